import {
  BONUS_HISTORY_SHOWN,
  type BonusEntry,
  type ReferralRules,
  type StreakClaim,
} from '@tapgram/shared';
import { actingAs } from './acting-as';
import type { ReferralHistoryRow } from './referral-repository';

export interface BonusHistoryReads {
  claims(userId: string, limit: number): Promise<StreakClaim[]>;
  history(userId: string, limit: number): Promise<ReferralHistoryRow[]>;
}

/** Why a referral bonus was added, waits or was cancelled, as its player reads it. */
function referralEntry(row: ReferralHistoryRow, rules: ReferralRules): BonusEntry {
  const at = row.at.toISOString();
  const joined =
    row.role === 'inviter'
      ? `${row.other} joined by your invite`
      : `You joined by ${row.other}'s invite`;
  if (row.state === 'paid') {
    return { kind: 'referral', at, points: row.points, state: 'added', reason: joined };
  }
  if (row.state === 'cancelled') {
    return { kind: 'referral', at, points: 0, state: 'cancelled', reason: row.reason ?? joined };
  }
  const who = row.role === 'inviter' ? row.other : 'you';
  return {
    kind: 'referral',
    at,
    points: 0,
    state: 'waiting',
    reason: `${joined}: ${rules.bonus.toLocaleString('en')} points once ${who} made ${rules.taps.toLocaleString('en')} taps over ${rules.days} days`,
  };
}

/**
 * A player's last bonuses (docs/GAME.md, Bonus history): the check-in bonuses claimed and the
 * referral bonuses paid, waiting or cancelled with the reason, newest first.
 */
export class BonusHistory {
  constructor(
    private readonly reads: BonusHistoryReads,
    private readonly rules: ReferralRules,
  ) {}

  async of(player: string | null, userId: string): Promise<BonusEntry[]> {
    actingAs(player, userId);
    const [claims, referrals] = await Promise.all([
      this.reads.claims(userId, BONUS_HISTORY_SHOWN),
      this.reads.history(userId, BONUS_HISTORY_SHOWN),
    ]);
    const entries: BonusEntry[] = [
      ...claims.map((claim): BonusEntry => ({
        kind: 'streak',
        at: claim.claimedAt,
        points: claim.points,
        state: 'added',
        reason: `Daily check-in, ${claim.streak}-day streak`,
      })),
      ...referrals.map((row) => referralEntry(row, this.rules)),
    ];
    return entries.sort((a, b) => b.at.localeCompare(a.at)).slice(0, BONUS_HISTORY_SHOWN);
  }
}
