import type { Friend } from '@tapgram/shared';
import { violates, type Queryable } from '../../core/db';

/** A player as the friends' lists name them. */
const FRIEND_COLUMNS = `u.id, u.username`;

/**
 * Invite codes, invitations (who brought whom), friendships and friend requests: the one
 * repository that writes them, apart from the referral bonus's state (ReferralRepository).
 */
export class FriendsRepository {
  constructor(private readonly db: Queryable) {}

  on(db: Queryable): FriendsRepository {
    return new FriendsRepository(db);
  }

  async codeOf(userId: string): Promise<string | null> {
    const { rows } = await this.db.query<{ code: string }>(
      `SELECT code FROM game_invite_codes WHERE user_id = $1`,
      [userId],
    );
    return rows[0]?.code ?? null;
  }

  /** Gives the player `code` unless they hold one; false when another player holds this code. */
  async insertCode(userId: string, code: string): Promise<boolean> {
    try {
      await this.db.query(
        `INSERT INTO game_invite_codes (user_id, code) SELECT id, $2 FROM game_users WHERE id = $1
         ON CONFLICT (user_id) DO NOTHING`,
        [userId, code],
      );
      return true;
    } catch (error) {
      if (violates(error, 'unique', 'game_invite_codes_code_key')) return false;
      throw error;
    }
  }

  async ownerOf(code: string): Promise<string | null> {
    const { rows } = await this.db.query<{ userId: string }>(
      `SELECT user_id AS "userId" FROM game_invite_codes WHERE code = $1`,
      [code],
    );
    return rows[0]?.userId ?? null;
  }

  /**
   * Serialises the changes to these players' friends (their counts are bounded), until the
   * transaction ends; in a fixed order, so that two changes never wait on each other.
   */
  async lockPlayers(...ids: string[]): Promise<void> {
    for (const id of [...new Set(ids)].sort()) {
      await this.db.query(`SELECT pg_advisory_xact_lock(hashtextextended('friends:' || $1, 0))`, [
        id,
      ]);
    }
  }

  /**
   * Records that `inviterId` brought `inviteeId`, once a player, when the invitee was created
   * within `windowMinutes`; null when it was not recorded (already invited, too old, unknown).
   */
  async insertInvitation(
    inviterId: string,
    inviteeId: string,
    windowMinutes: number,
  ): Promise<string | null> {
    const { rows } = await this.db.query<{ id: string }>(
      `INSERT INTO game_invitations (inviter_id, invitee_id)
       SELECT $1, id FROM game_users
        WHERE id = $2 AND id <> $1 AND created_at > now() - make_interval(mins => $3)
       ON CONFLICT (invitee_id) DO NOTHING
       RETURNING id`,
      [inviterId, inviteeId, windowMinutes],
    );
    return rows[0]?.id ?? null;
  }

  async friendCount(userId: string): Promise<number> {
    const { rows } = await this.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM game_friends WHERE user_id = $1`,
      [userId],
    );
    return rows[0].n;
  }

  async areFriends(a: string, b: string): Promise<boolean> {
    const { rows } = await this.db.query(
      `SELECT 1 FROM game_friends WHERE user_id = $1 AND friend_id = $2`,
      [a, b],
    );
    return rows.length > 0;
  }

  /** Makes the two friends, both ways (nothing when they are already), and drops their requests. */
  async befriend(a: string, b: string): Promise<void> {
    await this.db.query(
      `WITH pair AS (
         INSERT INTO game_friends (user_id, friend_id) VALUES ($1, $2), ($2, $1)
         ON CONFLICT DO NOTHING
       )
       DELETE FROM game_friend_requests
        WHERE (from_id = $1 AND to_id = $2) OR (from_id = $2 AND to_id = $1)`,
      [a, b],
    );
  }

  /** Ends a friendship both ways; false when there was none. */
  async unfriend(a: string, b: string): Promise<boolean> {
    const { rowCount } = await this.db.query(
      `DELETE FROM game_friends
        WHERE (user_id = $1 AND friend_id = $2) OR (user_id = $2 AND friend_id = $1)`,
      [a, b],
    );
    return (rowCount ?? 0) > 0;
  }

  async hasRequest(from: string, to: string): Promise<boolean> {
    const { rows } = await this.db.query(
      `SELECT 1 FROM game_friend_requests WHERE from_id = $1 AND to_id = $2`,
      [from, to],
    );
    return rows.length > 0;
  }

  async pendingSent(userId: string): Promise<number> {
    const { rows } = await this.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM game_friend_requests WHERE from_id = $1`,
      [userId],
    );
    return rows[0].n;
  }

  async insertRequest(from: string, to: string): Promise<void> {
    await this.db.query(
      `INSERT INTO game_friend_requests (from_id, to_id) VALUES ($1, $2) ON CONFLICT DO NOTHING`,
      [from, to],
    );
  }

  /** Drops a request either way between the two (declined or withdrawn); false when none. */
  async deleteRequest(a: string, b: string): Promise<boolean> {
    const { rowCount } = await this.db.query(
      `DELETE FROM game_friend_requests
        WHERE (from_id = $1 AND to_id = $2) OR (from_id = $2 AND to_id = $1)`,
      [a, b],
    );
    return (rowCount ?? 0) > 0;
  }

  async playerByName(username: string): Promise<Friend | null> {
    const { rows } = await this.db.query<Friend>(
      `SELECT ${FRIEND_COLUMNS} FROM game_users u WHERE lower(u.username) = lower($1)`,
      [username],
    );
    return rows[0] ?? null;
  }

  async nameOf(userId: string): Promise<string | null> {
    const { rows } = await this.db.query<{ username: string }>(
      `SELECT username FROM game_users WHERE id = $1`,
      [userId],
    );
    return rows[0]?.username ?? null;
  }

  async friends(userId: string): Promise<Friend[]> {
    return this.list(
      `SELECT ${FRIEND_COLUMNS} FROM game_friends f JOIN game_users u ON u.id = f.friend_id
        WHERE f.user_id = $1 ORDER BY lower(u.username)`,
      userId,
    );
  }

  async incoming(userId: string): Promise<Friend[]> {
    return this.list(
      `SELECT ${FRIEND_COLUMNS} FROM game_friend_requests r JOIN game_users u ON u.id = r.from_id
        WHERE r.to_id = $1 ORDER BY r.created_at DESC`,
      userId,
    );
  }

  async outgoing(userId: string): Promise<Friend[]> {
    return this.list(
      `SELECT ${FRIEND_COLUMNS} FROM game_friend_requests r JOIN game_users u ON u.id = r.to_id
        WHERE r.from_id = $1 ORDER BY r.created_at DESC`,
      userId,
    );
  }

  async inviterOf(userId: string): Promise<Friend | null> {
    const rows = await this.list(
      `SELECT ${FRIEND_COLUMNS} FROM game_invitations i JOIN game_users u ON u.id = i.inviter_id
        WHERE i.invitee_id = $1`,
      userId,
    );
    return rows[0] ?? null;
  }

  private async list(sql: string, userId: string): Promise<Friend[]> {
    const { rows } = await this.db.query<Friend>(sql, [userId]);
    return rows;
  }
}
