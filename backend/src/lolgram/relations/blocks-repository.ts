import { messages, type BlockedUser } from '@tapgram/shared';
import { violates, type Queryable } from '../../core/db';
import { NotFoundError } from '../../core/errors';
import { imageUrl, srcsetOf } from '../../images';
import { encodeCursor, type Cursor } from '../posts/post-cursor';

/**
 * SQL that is true when the users `a` and `b` (SQL expressions) have blocked one another, either
 * way: two probes of the indexes, for the listings that leave blocked authors out.
 */
export function blockedEitherWay(a: string, b: string): string {
  return `EXISTS (SELECT 1 FROM user_blocks ub
                   WHERE (ub.blocker_id = ${a} AND ub.blocked_id = ${b})
                      OR (ub.blocker_id = ${b} AND ub.blocked_id = ${a}))`;
}

/**
 * SQL of the users whom `a` (an SQL expression) blocked or was blocked by, each once: a probe of
 * each index, so that counts can leave them out at the cost of the user's blocks, not of a table.
 */
export function blockedEitherWaySet(a: string): string {
  return `(SELECT ub.blocked_id AS id FROM user_blocks ub WHERE ub.blocker_id = ${a}
           UNION SELECT ub.blocker_id FROM user_blocks ub WHERE ub.blocked_id = ${a})`;
}

interface BlockedRow {
  id: string;
  username: string;
  avatar_key: string | null;
  avatar_widths: number[];
  created_at: Date;
  cursor_at: string;
}

/** Who blocked whom: the user_blocks table. */
export class BlocksRepository {
  constructor(private readonly db: Queryable) {}

  /**
   * Whether either user has blocked the other. What refuses a follow or a LOL between them, and
   * what comments and notifications ask before they show one to the other.
   */
  async isBlockedEitherWay(a: string, b: string, client: Queryable = this.db): Promise<boolean> {
    const { rows } = await client.query<{ blocked: boolean }>(
      `SELECT ${blockedEitherWay('$1::uuid', '$2::uuid')} AS blocked`,
      [a, b],
    );
    return rows[0].blocked;
  }

  /** Whether `blockerId` has blocked `blockedId` (the other way round is not told). */
  async hasBlocked(blockerId: string, blockedId: string): Promise<boolean> {
    const { rowCount } = await this.db.query(
      'SELECT 1 FROM user_blocks WHERE blocker_id = $1 AND blocked_id = $2',
      [blockerId, blockedId],
    );
    return (rowCount ?? 0) > 0;
  }

  /** Adds the block; false when it was there already. */
  async add(client: Queryable, blockerId: string, blockedId: string): Promise<boolean> {
    try {
      const { rowCount } = await client.query(
        'INSERT INTO user_blocks (blocker_id, blocked_id) VALUES ($1, $2) ON CONFLICT DO NOTHING',
        [blockerId, blockedId],
      );
      return (rowCount ?? 0) > 0;
    } catch (error) {
      if (violates(error, 'foreignKey')) throw new NotFoundError(messages.userNotFound);
      throw error;
    }
  }

  async remove(blockerId: string, blockedId: string): Promise<void> {
    await this.db.query('DELETE FROM user_blocks WHERE blocker_id = $1 AND blocked_id = $2', [
      blockerId,
      blockedId,
    ]);
  }

  /** The accounts `blockerId` blocked, the latest first, a page at a time. */
  async list(blockerId: string, limit: number, before: Cursor | null): Promise<BlockedUser[]> {
    const { rows } = await this.db.query<BlockedRow>(
      `SELECT u.id, u.username, u.avatar_key, u.avatar_widths, b.created_at,
              b.created_at::text AS cursor_at
         FROM user_blocks b JOIN lolgram_users u ON u.id = b.blocked_id
        WHERE b.blocker_id = $1
          AND ($3::timestamptz IS NULL OR (b.created_at, b.blocked_id) < ($3::timestamptz, $4::uuid))
        ORDER BY b.created_at DESC, b.blocked_id DESC
        LIMIT $2`,
      [blockerId, limit, before?.at ?? null, before?.id ?? null],
    );
    return rows.map((row) => {
      const avatarSrcset = row.avatar_key ? srcsetOf(row.avatar_key, row.avatar_widths) : undefined;
      return {
        id: row.id,
        username: row.username,
        avatar: row.avatar_key ? imageUrl(row.avatar_key) : null,
        ...(avatarSrcset ? { avatarSrcset } : {}),
        blockedAt: row.created_at.toISOString(),
        cursor: encodeCursor(row.cursor_at, row.id),
      };
    });
  }
}
