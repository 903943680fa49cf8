import {
  accountMessages,
  messages,
  WALLET_USERNAME_PREFIX,
  type LolgramUser,
} from '@tapgram/shared';
import type pg from 'pg';
import { violates, type Queryable } from '../core/db';
import { ConflictError } from '../core/errors';
import { imageUrl, srcsetOf } from '../images';

interface UserRow {
  id: string;
  username: string;
  avatar_key: string | null;
  avatar_widths: number[];
  bio: string | null;
  follower_count: number;
  following_count: number;
  post_count: number;
  wallet_address: string | null;
  is_verified: boolean;
}

export function toUser(row: UserRow): LolgramUser {
  return {
    id: row.id,
    username: row.username,
    avatar: row.avatar_key ? imageUrl(row.avatar_key) : null,
    ...(row.avatar_key && row.avatar_widths.length > 0
      ? { avatarSrcset: srcsetOf(row.avatar_key, row.avatar_widths) }
      : {}),
    bio: row.bio,
    followerCount: row.follower_count,
    followingCount: row.following_count,
    postCount: row.post_count,
    walletAddress: row.wallet_address,
    isVerified: row.is_verified,
  };
}

const COLUMNS = `id, username, avatar_key, avatar_widths, bio, follower_count, following_count, post_count, wallet_address, is_verified`;
function uniqueUsername<T>(work: Promise<T>): Promise<T> {
  return work.catch((error: unknown) => {
    if (violates(error, 'unique', 'lolgram_users_username_key')) {
      throw new ConflictError(messages.usernameTaken);
    }
    if (violates(error, 'unique')) throw new ConflictError('This wallet already has an account');
    throw error;
  });
}

/** How an account signs in, for the settings that change it. */
export interface SignInMethods {
  username: string;
  role: 'user' | 'admin';
  passwordHash: string | null;
  walletAddress: string | null;
}

export class UsersRepository {
  constructor(private readonly db: Queryable) {}

  async signInMethods(id: string, client: Queryable = this.db): Promise<SignInMethods | null> {
    const { rows } = await client.query<SignInMethods>(
      `SELECT username, role, password_hash AS "passwordHash", wallet_address AS "walletAddress"
         FROM lolgram_users WHERE id = $1`,
      [id],
    );
    return rows[0] ?? null;
  }

  /** The same, locked until the transaction ends: an account is deleted once, by one request. */
  async lockForDeletion(client: pg.PoolClient, id: string): Promise<SignInMethods | null> {
    const { rows } = await client.query<SignInMethods>(
      `SELECT username, role, password_hash AS "passwordHash", wallet_address AS "walletAddress"
         FROM lolgram_users WHERE id = $1 FOR UPDATE`,
      [id],
    );
    return rows[0] ?? null;
  }

  async setPasswordHash(id: string, passwordHash: string): Promise<boolean> {
    const { rowCount } = await this.db.query(
      'UPDATE lolgram_users SET password_hash = $2 WHERE id = $1',
      [id, passwordHash],
    );
    return (rowCount ?? 0) > 0;
  }

  /** Links a wallet to an account that has none; false when it has one by now. */
  async linkWallet(id: string, address: string): Promise<boolean> {
    try {
      const { rowCount } = await this.db.query(
        'UPDATE lolgram_users SET wallet_address = $2 WHERE id = $1 AND wallet_address IS NULL',
        [id, address],
      );
      return (rowCount ?? 0) > 0;
    } catch (error) {
      if (violates(error, 'unique')) throw new ConflictError(accountMessages.walletTakenElsewhere);
      throw error;
    }
  }

  /**
   * Unlinks the wallet while the account keeps a password and a name of its own, in one statement,
   * so that a concurrent change cannot leave it with no way in; false when that does not hold.
   */
  async unlinkWallet(id: string): Promise<boolean> {
    const { rowCount } = await this.db.query(
      `UPDATE lolgram_users SET wallet_address = NULL
        WHERE id = $1 AND wallet_address IS NOT NULL AND password_hash IS NOT NULL
          AND left(lower(username), $2) <> $3`,
      [id, WALLET_USERNAME_PREFIX.length, WALLET_USERNAME_PREFIX],
    );
    return (rowCount ?? 0) > 0;
  }

  /** Deletes the account's row; what refers to it goes with it (foreign keys cascade). */
  async delete(client: pg.PoolClient, id: string): Promise<void> {
    await client.query('DELETE FROM lolgram_users WHERE id = $1', [id]);
  }

  /** Keeps a deleted account's name from anyone else until `until`. */
  async holdUsername(client: pg.PoolClient, username: string, until: Date): Promise<void> {
    await client.query(
      `INSERT INTO held_usernames (username, released_at) VALUES (lower($1), $2)
       ON CONFLICT (username) DO UPDATE SET released_at = GREATEST(held_usernames.released_at, $2)`,
      [username, until],
    );
  }

  async isHeld(username: string, now: Date = new Date()): Promise<boolean> {
    const { rows } = await this.db.query(
      'SELECT 1 FROM held_usernames WHERE username = lower($1) AND released_at > $2',
      [username, now],
    );
    return rows.length > 0;
  }

  /** Forgets the holds that have ended (their names are free whether the row exists or not). */
  async deleteExpired(now: Date = new Date()): Promise<number> {
    const { rowCount } = await this.db.query('DELETE FROM held_usernames WHERE released_at <= $1', [
      now,
    ]);
    return rowCount ?? 0;
  }

  async create(user: {
    username: string;
    passwordHash: string | null;
    walletAddress: string | null;
    role: 'user' | 'admin';
  }): Promise<LolgramUser> {
    const { rows } = await uniqueUsername(
      this.db.query<UserRow>(
        `INSERT INTO lolgram_users (username, password_hash, wallet_address, role)
         VALUES ($1, $2, $3, $4) RETURNING ${COLUMNS}`,
        [user.username, user.passwordHash, user.walletAddress, user.role],
      ),
    );
    return toUser(rows[0]);
  }

  /** Sets the role of the account named `username` (any case); false when there is none. */
  async setRole(username: string, role: 'user' | 'admin'): Promise<boolean> {
    const { rowCount } = await this.db.query(
      'UPDATE lolgram_users SET role = $2 WHERE lower(username) = lower($1)',
      [username, role],
    );
    return (rowCount ?? 0) > 0;
  }

  /** Moves an author's count of visible posts by `delta`, with the move of a post's status. */
  async addToPostCount(client: pg.PoolClient, userId: string, delta: number): Promise<void> {
    await client.query('UPDATE lolgram_users SET post_count = post_count + $2 WHERE id = $1', [
      userId,
      delta,
    ]);
  }

  /** Makes the accounts named in `usernames` (lower case) admins; answers the names it changed. */
  async grantAdmins(usernames: string[]): Promise<string[]> {
    const { rows } = await this.db.query<{ username: string }>(
      `UPDATE lolgram_users SET role = 'admin'
        WHERE lower(username) = ANY($1::text[]) AND role <> 'admin' RETURNING username`,
      [usernames],
    );
    return rows.map((row) => row.username);
  }

  async byId(id: string): Promise<LolgramUser | null> {
    const { rows } = await this.db.query<UserRow>(
      `SELECT ${COLUMNS} FROM lolgram_users WHERE id = $1`,
      [id],
    );
    return rows[0] ? toUser(rows[0]) : null;
  }

  async byUsername(username: string): Promise<LolgramUser | null> {
    const { rows } = await this.db.query<UserRow>(
      `SELECT ${COLUMNS} FROM lolgram_users WHERE lower(username) = lower($1)`,
      [username],
    );
    return rows[0] ? toUser(rows[0]) : null;
  }

  async byWallet(address: string): Promise<LolgramUser | null> {
    const { rows } = await this.db.query<UserRow>(
      `SELECT ${COLUMNS} FROM lolgram_users WHERE wallet_address = $1`,
      [address],
    );
    return rows[0] ? toUser(rows[0]) : null;
  }

  async credentials(username: string): Promise<{ id: string; passwordHash: string | null } | null> {
    const { rows } = await this.db.query<{ id: string; password_hash: string | null }>(
      'SELECT id, password_hash FROM lolgram_users WHERE lower(username) = lower($1)',
      [username],
    );
    return rows[0] ? { id: rows[0].id, passwordHash: rows[0].password_hash } : null;
  }

  async updateProfile(id: string, username: string, bio: string): Promise<LolgramUser | null> {
    const { rows } = await uniqueUsername(
      this.db.query<UserRow>(
        `UPDATE lolgram_users SET username = $2, bio = NULLIF($3, '') WHERE id = $1 RETURNING ${COLUMNS}`,
        [id, username, bio],
      ),
    );
    return rows[0] ? toUser(rows[0]) : null;
  }

  /**
   * Sets the avatar and the widths of its copies, and answers the user with the avatar it
   * replaced (to delete its files).
   */
  async setAvatar(
    id: string,
    key: string,
    widths: number[],
  ): Promise<{ user: LolgramUser; previous: { key: string; widths: number[] } | null } | null> {
    const { rows } = await this.db.query<
      UserRow & { previous: string | null; previous_widths: number[] }
    >(
      `UPDATE lolgram_users u SET avatar_key = $2, avatar_widths = $3
         FROM (SELECT avatar_key AS previous, avatar_widths AS previous_widths
                 FROM lolgram_users WHERE id = $1) old
        WHERE u.id = $1 RETURNING ${COLUMNS.split(', ')
          .map((c) => `u.${c}`)
          .join(', ')}, old.previous, old.previous_widths`,
      [id, key, widths],
    );
    const row = rows[0];
    if (!row) return null;
    const previous = row.previous ? { key: row.previous, widths: row.previous_widths } : null;
    return { user: toUser(row), previous };
  }

  /**
   * Locks both users of a follow, in id order (concurrent follows stay exact), for the
   * transaction that moves their counts. NO KEY UPDATE, as the counts' own update takes: it
   * excludes another follow or block of either user, not the key-share locks with which rows that
   * refer to a user (a notification, its actors) are written meanwhile, which a FOR UPDATE lock
   * waited on in an order of their own, into deadlocks.
   */
  async lockPair(client: pg.PoolClient, a: string, b: string): Promise<boolean> {
    const { rowCount } = await client.query(
      'SELECT id FROM lolgram_users WHERE id = ANY($1) ORDER BY id FOR NO KEY UPDATE',
      [[a, b]],
    );
    // False when either was deleted meanwhile.
    return rowCount === 2;
  }

  /** Moves the counts of a follow that was added (1) or removed (-1); answers the followers now. */
  async moveFollowCounts(
    client: pg.PoolClient,
    followerId: string,
    userId: string,
    delta: number,
  ): Promise<number> {
    if (delta !== 0) {
      await client.query(
        'UPDATE lolgram_users SET following_count = following_count + $2 WHERE id = $1',
        [followerId, delta],
      );
    }
    const { rows } = await client.query<{ follower_count: number }>(
      'UPDATE lolgram_users SET follower_count = follower_count + $2 WHERE id = $1 RETURNING follower_count',
      [userId, delta],
    );
    return rows[0].follower_count;
  }
}
