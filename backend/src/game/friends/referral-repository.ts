import type { ReferralRules, SeasonCalendar } from '@tapgram/shared';
import type pg from 'pg';
import { withTransaction, type Queryable } from '../../core/db';
import { GameRepository } from '../repository';
import type { BonusGrant, BonusRecording } from '../store';

/** The UTC day (days since 1970-01-01) by Postgres's clock. */
const DAY_NOW = `floor(extract(epoch FROM clock_timestamp()) / 86400)::int`;

/** The invited player's taps and the distinct UTC days they tapped, as Postgres holds them. */
const PROGRESS = (invitee: string) => `
  (SELECT coalesce(sum(taps), 0)::float8 FROM game_daily_taps WHERE user_id = ${invitee}) AS taps,
  (SELECT count(*)::int FROM game_daily_taps WHERE user_id = ${invitee} AND taps > 0) AS days`;

/** An invitation as its inviter's list reads it. */
export interface InvitationRow {
  id: string;
  inviteeId: string;
  inviteeName: string;
  createdAt: Date;
  state: 'pending' | 'paid' | 'cancelled';
  reason: string | null;
  settledAt: Date | null;
  taps: number;
  days: number;
  /** The UTC days on which Postgres holds taps of the invited player. */
  tapDays: number[];
}

export type PayOutcome =
  | { kind: 'paid'; grants: BonusGrant[] }
  /** Reached, but the inviter's bonuses for today are all paid: it waits for a later day. */
  | { kind: 'waiting' }
  /** Not reached yet (or a side is frozen, which the freeze cancels). */
  | { kind: 'not-due' }
  /** Paid or cancelled already (here, on another node, by a retry). */
  | { kind: 'settled' };

/** An unpaid invitation a freeze cancelled. */
export interface CancelledInvitation {
  id: string;
  inviterId: string;
  inviteeId: string;
  reason: string;
}

/** A referral bonus in a player's history. */
export interface ReferralHistoryRow {
  at: Date;
  points: number;
  state: 'paid' | 'pending' | 'cancelled';
  role: 'inviter' | 'invitee';
  other: string;
  reason: string | null;
}

/**
 * The referral bonus's state: its payment to both sides, once (the invitation's state, the bonus
 * rows' unique keys, and the inviter's count for the day, in one transaction), and its cancellation.
 */
export class ReferralRepository {
  constructor(private readonly pool: pg.Pool) {}

  async invitationsOf(inviterId: string, limit: number): Promise<InvitationRow[]> {
    const { rows } = await this.pool.query<InvitationRow>(
      `SELECT i.id, i.invitee_id AS "inviteeId", u.username AS "inviteeName",
              i.created_at AS "createdAt", i.state, i.reason, i.settled_at AS "settledAt",
              ${PROGRESS('i.invitee_id')},
              array(SELECT day FROM game_daily_taps WHERE user_id = i.invitee_id AND taps > 0)
                AS "tapDays"
         FROM game_invitations i JOIN game_users u ON u.id = i.invitee_id
        WHERE i.inviter_id = $1 ORDER BY i.created_at DESC LIMIT $2`,
      [inviterId, limit],
    );
    return rows;
  }

  /** Whether the inviter has been paid `cap` bonuses today (Postgres's UTC day). */
  async capReached(inviterId: string, cap: number): Promise<boolean> {
    const { rows } = await this.pool.query(
      `SELECT 1 FROM game_referral_days WHERE inviter_id = $1 AND day = ${DAY_NOW} AND paid >= $2`,
      [inviterId, cap],
    );
    return rows.length > 0;
  }

  /**
   * Unpaid invitations whose invited player has played enough, oldest first, leaving out those of
   * inviters paid their cap today; of one player (as either side) or of everyone.
   */
  async due(rules: ReferralRules, limit: number, playerId: string | null): Promise<string[]> {
    const { rows } = await this.pool.query<{ id: string }>(
      `SELECT id FROM (
         SELECT i.id, i.inviter_id, i.created_at, ${PROGRESS('i.invitee_id')}
           FROM game_invitations i
          WHERE i.state = 'pending'
            AND ($5::uuid IS NULL OR i.inviter_id = $5 OR i.invitee_id = $5)
       ) p
       WHERE p.taps >= $1 AND p.days >= $2
         AND NOT EXISTS (SELECT 1 FROM game_referral_days r
                          WHERE r.inviter_id = p.inviter_id AND r.day = ${DAY_NOW} AND r.paid >= $3)
       ORDER BY p.created_at LIMIT $4`,
      [rules.taps, rules.days, rules.dailyCap, limit, playerId],
    );
    return rows.map((row) => row.id);
  }

  /**
   * Pays an invitation's bonus to both sides when it is due, in one transaction: the invitation
   * goes from pending to paid (its row locked: a second payer waits, then finds it settled), the
   * inviter's count for today grows within the cap (or nothing is paid: it waits), and one bonus
   * row per side is written under its unique key. With `addPoints`, their points too; else
   * `granted` records in the same transaction that the store must still add them.
   */
  pay(
    id: string,
    rules: ReferralRules,
    how: BonusRecording,
    calendar: SeasonCalendar,
  ): Promise<PayOutcome> {
    return withTransaction(this.pool, async (tx) => {
      const { rows } = await tx.query<{
        inviterId: string;
        inviteeId: string;
        frozen: boolean;
        taps: number;
        days: number;
      }>(
        `SELECT i.inviter_id AS "inviterId", i.invitee_id AS "inviteeId",
                EXISTS (SELECT 1 FROM game_users
                         WHERE id IN (i.inviter_id, i.invitee_id) AND frozen_at IS NOT NULL) AS frozen,
                ${PROGRESS('i.invitee_id')}
           FROM game_invitations i WHERE i.id = $1 AND i.state = 'pending' FOR UPDATE OF i`,
        [id],
      );
      const invitation = rows[0];
      if (!invitation) return { kind: 'settled' };
      if (invitation.frozen) return { kind: 'not-due' };
      if (invitation.taps < rules.taps || invitation.days < rules.days) return { kind: 'not-due' };
      const counted = await tx.query(
        `INSERT INTO game_referral_days AS r (inviter_id, day, paid) VALUES ($1, ${DAY_NOW}, 1)
         ON CONFLICT (inviter_id, day) DO UPDATE SET paid = r.paid + 1 WHERE r.paid < $2
         RETURNING paid`,
        [invitation.inviterId, rules.dailyCap],
      );
      if (counted.rowCount === 0) return { kind: 'waiting' };
      await tx.query(
        `UPDATE game_invitations SET state = 'paid', settled_at = now() WHERE id = $1`,
        [id],
      );
      const sides = [
        { userId: invitation.inviterId, role: 'inviter' },
        { userId: invitation.inviteeId, role: 'invitee' },
      ];
      const grants: BonusGrant[] = [];
      for (const side of sides) {
        const inserted = await tx.query(
          `INSERT INTO game_referral_bonuses (invitation_id, user_id, role, points)
           VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING`,
          [id, side.userId, side.role, rules.bonus],
        );
        if (inserted.rowCount === 0) continue;
        if (how.addPoints) {
          await new GameRepository(tx).addBonusPoints(side.userId, rules.bonus, calendar);
        }
        grants.push({ userId: side.userId, points: rules.bonus, marker: `ref:${id}`, rank: 1 });
      }
      if (grants.length > 0) await how.granted(tx, grants);
      return { kind: 'paid', grants };
    });
  }

  /**
   * Cancels the unpaid invitations where the player is either side, in the caller's transaction
   * (a freeze's), with the reason each side reads.
   */
  async cancelUnpaid(
    db: Queryable,
    playerId: string,
    reasons: { asInviter: string; asInvitee: string },
  ): Promise<CancelledInvitation[]> {
    const { rows } = await db.query<CancelledInvitation>(
      `UPDATE game_invitations
          SET state = 'cancelled', settled_at = now(),
              reason = CASE WHEN inviter_id = $1 THEN $2 ELSE $3 END
        WHERE (inviter_id = $1 OR invitee_id = $1) AND state = 'pending'
        RETURNING id, inviter_id AS "inviterId", invitee_id AS "inviteeId", reason`,
      [playerId, reasons.asInviter, reasons.asInvitee],
    );
    return rows;
  }

  /**
   * Brings back to pending the cancelled invitations where the player is either side and the
   * other side is not frozen, in the caller's transaction (an unfreeze's, before the player's
   * row), with the reason each side reads. Only a freeze cancels an invitation, so these are the
   * bonuses freezes cancelled; the payer pays them by the usual rules once they are due.
   */
  async restoreCancelled(
    db: Queryable,
    playerId: string,
    reasons: { asInviter: string; asInvitee: string },
  ): Promise<CancelledInvitation[]> {
    const { rows } = await db.query<CancelledInvitation>(
      `UPDATE game_invitations i
          SET state = 'pending', settled_at = NULL, reason = NULL
        WHERE (i.inviter_id = $1 OR i.invitee_id = $1) AND i.state = 'cancelled'
          AND NOT EXISTS (SELECT 1 FROM game_users o
                           WHERE o.id IN (i.inviter_id, i.invitee_id) AND o.id <> $1
                             AND o.frozen_at IS NOT NULL)
        RETURNING i.id, i.inviter_id AS "inviterId", i.invitee_id AS "inviteeId",
                  CASE WHEN i.inviter_id = $1 THEN $2 ELSE $3 END AS reason`,
      [playerId, reasons.asInviter, reasons.asInvitee],
    );
    return rows;
  }

  /** The player's referral bonuses: paid, waiting or cancelled, as either side, newest first. */
  async history(userId: string, limit: number): Promise<ReferralHistoryRow[]> {
    const { rows } = await this.pool.query<ReferralHistoryRow>(
      `SELECT coalesce(b.paid_at, i.settled_at, i.created_at) AS at,
              coalesce(b.points, 0)::float8 AS points, i.state,
              CASE WHEN i.inviter_id = $1 THEN 'inviter' ELSE 'invitee' END AS role,
              o.username AS other, i.reason
         FROM game_invitations i
         JOIN game_users o ON o.id = CASE WHEN i.inviter_id = $1 THEN i.invitee_id ELSE i.inviter_id END
         LEFT JOIN game_referral_bonuses b ON b.invitation_id = i.id AND b.user_id = $1
        WHERE i.inviter_id = $1 OR i.invitee_id = $1
        ORDER BY at DESC LIMIT $2`,
      [userId, limit],
    );
    return rows;
  }
}
