import { randomInt } from 'node:crypto';
import {
  INVITATIONS_SHOWN,
  INVITE_ACCEPT_WINDOW_MINUTES,
  INVITE_CODE_ALPHABET,
  INVITE_CODE_LENGTH,
  invitePath,
  isInviteCode,
  MAX_FRIENDS,
  referralReached,
  referralWaitingReason,
  type Invitation,
  type Invitations,
  type Invite,
  type ReferralRules,
  type SeasonCalendar,
} from '@tapgram/shared';
import type pg from 'pg';
import { withTransaction } from '../../core/db';
import { NotFoundError, ServiceUnavailableError } from '../../core/errors';
import type { EventBus } from '../../core/events';
import type { Logger } from '../../core/logger';
import type { GameStore } from '../store';
import './events';
import { actingAs } from './acting-as';
import { FriendsRepository } from './friends-repository';
import type { InvitationRow, PayOutcome, ReferralRepository } from './referral-repository';

/** What the invitations ask of the game store. */
export type InvitationsStore = Pick<GameStore, 'getUser' | 'recentDayTaps' | 'grantBonuses'>;

/** What the invitations read and write in Postgres (the repositories, or memory in tests). */
export interface InvitationsPorts {
  codeOf(userId: string): Promise<string | null>;
  insertCode(userId: string, code: string): Promise<boolean>;
  ownerOf(code: string): Promise<string | null>;
  isFrozen(userId: string): Promise<boolean>;
  /** Records the invitation and, within the friends' bound, the friendship; null: not recorded. */
  recordInvitation(inviterId: string, inviteeId: string): Promise<string | null>;
  referrals: Pick<ReferralRepository, 'invitationsOf' | 'capReached' | 'due' | 'pay'>;
}

/** The outcome of an acceptance, for the caller's log and tests: the invitation, or why none. */
export type AcceptOutcome =
  | { kind: 'recorded'; invitationId: string }
  | { kind: 'ignored'; why: 'malformed' | 'unknown' | 'self' | 'frozen' | 'not-new' | 'failed' };

const CODE_ATTEMPTS = 5;
/** Invitations paid per look of the background payer. */
const DUE_PAGE = 100;

export function newInviteCode(): string {
  let code = '';
  for (let i = 0; i < INVITE_CODE_LENGTH; i += 1) {
    code += INVITE_CODE_ALPHABET[randomInt(INVITE_CODE_ALPHABET.length)];
  }
  return code;
}

/**
 * Invite links and invitations (docs/GAME.md, Friends and invitations): a player's code, the
 * acceptance of a code by a player just created (by the web's sign-up or a Telegram launch), the
 * invitations as their inviter sees them, and the referral bonus, paid to both sides once the
 * invited player has played enough, within the inviter's daily cap, once.
 */
export class InvitationsService {
  private readonly store: InvitationsStore;
  private readonly ports: InvitationsPorts;
  readonly rules: ReferralRules;
  private readonly calendar: SeasonCalendar;
  private readonly logger?: Logger;
  private readonly events?: EventBus;

  constructor(deps: {
    store: InvitationsStore;
    ports: InvitationsPorts;
    rules: ReferralRules;
    calendar: SeasonCalendar;
    logger?: Logger;
    events?: EventBus;
  }) {
    this.store = deps.store;
    this.ports = deps.ports;
    this.rules = deps.rules;
    this.calendar = deps.calendar;
    this.logger = deps.logger;
    this.events = deps.events;
  }

  /** The player's invite code (made the first time they ask) and the path of their link. */
  async invite(player: string | null, userId: string): Promise<Invite> {
    actingAs(player, userId);
    if (!(await this.store.getUser(userId))) throw new NotFoundError('User not found');
    for (let attempt = 0; attempt < CODE_ATTEMPTS; attempt += 1) {
      const code = await this.ports.codeOf(userId);
      if (code) return { code, path: invitePath(code) };
      await this.ports.insertCode(userId, newInviteCode());
    }
    throw new ServiceUnavailableError('No invite code could be made: try again', 1);
  }

  /**
   * Counts that the code's owner brought `inviteeId`, a player just created: once a player, never
   * oneself, never for a player made before (an existing player opening a link changes nothing).
   * A malformed or unknown code, or a frozen inviter, records nothing; the player stays created.
   */
  async accept(invitation: { inviteeId: string; code: string }): Promise<AcceptOutcome> {
    try {
      return await this.record(invitation);
    } catch (err) {
      // The player is made already: a failure here loses the invitation, never the player.
      this.logger?.error({ err, inviteeId: invitation.inviteeId }, 'invitation not recorded');
      return { kind: 'ignored', why: 'failed' };
    }
  }

  private async record({
    inviteeId,
    code,
  }: {
    inviteeId: string;
    code: string;
  }): Promise<AcceptOutcome> {
    if (!isInviteCode(code)) return { kind: 'ignored', why: 'malformed' };
    const inviterId = await this.ports.ownerOf(code.toLowerCase());
    if (!inviterId) return { kind: 'ignored', why: 'unknown' };
    if (inviterId === inviteeId) return { kind: 'ignored', why: 'self' };
    if (await this.ports.isFrozen(inviterId)) return { kind: 'ignored', why: 'frozen' };
    const invitationId = await this.ports.recordInvitation(inviterId, inviteeId);
    if (!invitationId) return { kind: 'ignored', why: 'not-new' };
    this.logger?.info({ inviterId, inviteeId, invitationId }, 'invitation accepted');
    this.events?.emit('friends.changed', { playerIds: [inviterId, inviteeId] });
    return { kind: 'recorded', invitationId };
  }

  /** The player's invitations with their state; those due are paid first. */
  async invitations(player: string | null, userId: string): Promise<Invitations> {
    actingAs(player, userId);
    await this.payDue(userId);
    const [rows, capped] = await Promise.all([
      this.ports.referrals.invitationsOf(userId, INVITATIONS_SHOWN),
      this.ports.referrals.capReached(userId, this.rules.dailyCap),
    ]);
    const invitations = await Promise.all(rows.map((row) => this.shown(row, capped)));
    return { rules: this.rules, invitations };
  }

  /**
   * Pays what is due, of one player (either side) or of everyone, and answers how many were paid.
   * Every node may run it at once: each payment is decided once in Postgres.
   */
  async payDue(playerId: string | null = null): Promise<number> {
    const due = await this.ports.referrals.due(this.rules, DUE_PAGE, playerId);
    let paid = 0;
    for (const id of due) {
      const outcome = await this.pay(id);
      if (outcome.kind === 'paid') paid += 1;
    }
    return paid;
  }

  private async pay(id: string): Promise<PayOutcome> {
    const outcomes: PayOutcome[] = [];
    await this.store.grantBonuses(async (how) => {
      const outcome = await this.ports.referrals.pay(id, this.rules, how, this.calendar);
      outcomes.push(outcome);
      return outcome.kind === 'paid' ? outcome.grants : [];
    });
    const outcome = outcomes[0] ?? { kind: 'settled' };
    if (outcome.kind === 'paid') {
      this.logger?.info({ invitationId: id }, 'referral bonus paid');
      this.events?.emit('friends.changed', { playerIds: outcome.grants.map((g) => g.userId) });
    }
    return outcome;
  }

  /** An invitation as its inviter reads it, with the taps the store has not flushed yet. */
  private async shown(row: InvitationRow, capped: boolean): Promise<Invitation> {
    const progress = { taps: row.taps, days: row.days };
    if (row.state === 'pending') {
      // The store's figures ahead of Postgres's (Redis, before its flush): never shown behind.
      const [user, recent] = await Promise.all([
        this.store.getUser(row.inviteeId),
        this.store.recentDayTaps(row.inviteeId),
      ]);
      const days = new Set(row.tapDays);
      for (const day of recent) if (day.taps > 0) days.add(day.day);
      progress.taps = Math.max(row.taps, user?.totalTaps ?? 0);
      progress.days = days.size;
    }
    const base = {
      id: row.id,
      invitee: { id: row.inviteeId, username: row.inviteeName },
      joinedAt: row.createdAt.toISOString(),
      taps: Math.floor(progress.taps),
      days: progress.days,
      paidAt: row.state === 'paid' && row.settledAt ? row.settledAt.toISOString() : null,
      reason: row.reason,
    };
    if (row.state !== 'pending') return { ...base, state: row.state };
    if (referralReached(progress, this.rules) && capped) {
      return { ...base, state: 'waiting', reason: referralWaitingReason };
    }
    return { ...base, state: progress.taps > 0 ? 'playing' : 'joined' };
  }
}

/** The ports on Postgres: the acceptance writes the invitation and the friendship in one transaction. */
export function invitationsPorts(pool: pg.Pool, referrals: ReferralRepository): InvitationsPorts {
  const friends = new FriendsRepository(pool);
  return {
    codeOf: (userId) => friends.codeOf(userId),
    insertCode: (userId, code) => friends.insertCode(userId, code),
    ownerOf: (code) => friends.ownerOf(code),
    isFrozen: async (userId) => {
      const { rows } = await pool.query(
        `SELECT 1 FROM game_users WHERE id = $1 AND frozen_at IS NOT NULL`,
        [userId],
      );
      return rows.length > 0;
    },
    recordInvitation: (inviterId, inviteeId) =>
      withTransaction(pool, async (tx) => {
        const repo = friends.on(tx);
        await repo.lockPlayers(inviterId, inviteeId);
        const id = await repo.insertInvitation(inviterId, inviteeId, INVITE_ACCEPT_WINDOW_MINUTES);
        if (!id) return null;
        const [theirs, mine] = await Promise.all([
          repo.friendCount(inviterId),
          repo.friendCount(inviteeId),
        ]);
        if (theirs < MAX_FRIENDS && mine < MAX_FRIENDS) await repo.befriend(inviterId, inviteeId);
        return id;
      }),
    referrals,
  };
}
