import type { Queryable } from '../../core/db';

export interface TelegramAccount {
  userId: string;
  /** A web player's link code moved the account to its player (it cannot move again). */
  linked: boolean;
}

export interface LinkCodeRow {
  userId: string;
  expired: boolean;
  /** The Telegram account that used the code; null while unused. */
  usedBy: number | null;
}

/** Telegram accounts, the game player each opens, and the web players' link codes. */
export class TelegramRepository {
  constructor(private readonly db: Queryable) {}

  /** `lock`: held until the transaction ends (the caller's client must be in one). */
  async findAccount(telegramId: number, lock = false): Promise<TelegramAccount | null> {
    const { rows } = await this.db.query<TelegramAccount>(
      `SELECT user_id AS "userId", linked_at IS NOT NULL AS linked
         FROM game_telegram_accounts WHERE telegram_id = $1 ${lock ? 'FOR UPDATE' : ''}`,
      [telegramId],
    );
    return rows[0] ?? null;
  }

  /**
   * Binds the account to the player; false when the account is bound already (a launch of the
   * same user that committed first: the caller's transaction waited for it).
   */
  async insertAccount(telegramId: number, userId: string, linked: boolean): Promise<boolean> {
    const { rowCount } = await this.db.query(
      `INSERT INTO game_telegram_accounts (telegram_id, user_id, linked_at)
       VALUES ($1, $2, CASE WHEN $3 THEN now() END)
       ON CONFLICT (telegram_id) DO NOTHING`,
      [telegramId, userId, linked],
    );
    return rowCount === 1;
  }

  /** Moves the account to a web player's player, once. */
  async linkAccount(telegramId: number, userId: string): Promise<void> {
    await this.db.query(
      `UPDATE game_telegram_accounts SET user_id = $2, linked_at = now()
        WHERE telegram_id = $1 AND linked_at IS NULL`,
      [telegramId, userId],
    );
  }

  /** The Telegram account that opens this player, if any. */
  async accountOf(userId: string): Promise<number | null> {
    const { rows } = await this.db.query<{ telegramId: number }>(
      `SELECT telegram_id AS "telegramId" FROM game_telegram_accounts WHERE user_id = $1`,
      [userId],
    );
    return rows[0]?.telegramId ?? null;
  }

  /** Keeps a new link code of the player, dropping its earlier ones and every expired one. */
  async insertLinkCode(
    codeHash: string,
    userId: string,
    expiresAt: Date,
    now: Date,
  ): Promise<void> {
    await this.db.query(
      `WITH dropped AS (
         DELETE FROM game_telegram_link_codes WHERE user_id = $2 OR expires_at < $4
       )
       INSERT INTO game_telegram_link_codes (code_hash, user_id, expires_at) VALUES ($1, $2, $3)`,
      [codeHash, userId, expiresAt, now],
    );
  }

  /** The code's row, locked until the transaction ends; null for a code never made. */
  async takeLinkCode(codeHash: string, now: Date): Promise<LinkCodeRow | null> {
    const { rows } = await this.db.query<LinkCodeRow>(
      `SELECT user_id AS "userId", expires_at <= $2 AS expired, used_by AS "usedBy"
         FROM game_telegram_link_codes WHERE code_hash = $1 FOR UPDATE`,
      [codeHash, now],
    );
    return rows[0] ?? null;
  }

  async markLinkCodeUsed(codeHash: string, telegramId: number): Promise<void> {
    await this.db.query(`UPDATE game_telegram_link_codes SET used_by = $2 WHERE code_hash = $1`, [
      codeHash,
      telegramId,
    ]);
  }
}
