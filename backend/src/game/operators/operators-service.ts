import type { LEADERBOARD_CSV_COLUMNS } from '@tapgram/shared';
import {
  boardRanks,
  referralCancelReasons,
  referralRestoreReasons,
  seasonAt,
  type ReferralEvidence,
  type SeasonCalendar,
  type PlayerAction,
  type PlayerDetail,
  type PlayerSort,
  type PlayersPage,
} from '@tapgram/shared';
import type pg from 'pg';
import type { Admin } from '../../accounts';
import { withTransaction } from '../../core/db';
import type { EventBus } from '../../core/events';
import { ConflictError, NotFoundError } from '../../core/errors';
import { isId } from '../../core/ids';
import type { ReferralRepository } from '../friends/referral-repository';
import { GameRepository } from '../repository';
import type { GameStore } from '../store';
import './events';
import type { OperatorsRepository } from './operators-repository';

const EXPORT_PAGE = 2000;
const RECENT_ACTIONS = 10;

/** A leaderboard row as the export writes it. */
export type CsvRow = Record<(typeof LEADERBOARD_CSV_COLUMNS)[number], string | number>;

/** What game operators do: look players up, freeze and unfreeze them, export the board. */
export interface OperatorsDeps {
  pool: pg.Pool;
  /** The players' list, detail and audit. */
  repo: OperatorsRepository;
  store: GameStore;
  events: EventBus;
  referrals: Pick<ReferralRepository, 'cancelUnpaid' | 'restoreCancelled'>;
  calendar: SeasonCalendar;
  /** REFERRAL_TAPS: the threshold an invited player who "stopped right after it" stayed near. */
  referralTaps: number;
}

export class OperatorsService {
  private readonly pool: pg.Pool;
  private readonly repo: OperatorsRepository;
  private readonly store: GameStore;
  private readonly events: EventBus;
  private readonly referrals: OperatorsDeps['referrals'];
  private readonly calendar: SeasonCalendar;
  private readonly referralTaps: number;

  constructor(deps: OperatorsDeps) {
    this.pool = deps.pool;
    this.repo = deps.repo;
    this.store = deps.store;
    this.events = deps.events;
    this.referrals = deps.referrals;
    this.calendar = deps.calendar;
    this.referralTaps = deps.referralTaps;
  }

  players(search: string, sort: PlayerSort, limit: number, offset: number): Promise<PlayersPage> {
    return this.repo.players(search, sort, limit, offset);
  }

  async detail(id: string): Promise<PlayerDetail> {
    const player = isId(id) ? await this.repo.findPlayer(id) : null;
    if (!player) throw new NotFoundError('Player not found');
    const [sessions, days, network, actions] = await Promise.all([
      this.repo.sessions(id),
      this.repo.days(id),
      this.repo.network(id),
      this.repo.actions(id, 50),
    ]);
    return { ...player, sessions, days, network, actions };
  }

  /**
   * Freezes a player (or unfreezes them) with a reason, recorded in the audit trail in the same
   * transaction. Postgres commits first; then the game store follows, also when the player was
   * already so in Postgres: a store that missed an earlier change (Redis failed after Postgres
   * committed) catches up, and the call that completed the change answers as the change did. A
   * 409 says that both already agreed.
   */
  async setFrozen(
    admin: Admin,
    id: string,
    frozen: boolean,
    reason: string,
  ): Promise<PlayerDetail> {
    const outcome = await withTransaction(this.pool, async (client) => {
      // Before the player's row: a payment locks the invitation, then the players' rows.
      if (isId(id)) await this.settleReferrals(client, { admin, id, frozen, reason });
      const changed = await new GameRepository(client).setFrozen(id, frozen, reason);
      if (changed === 'changed') {
        await this.repo
          .on(client)
          .recordAction(id, admin.id, frozen ? 'freeze' : 'unfreeze', reason);
      }
      return changed;
    });
    if (outcome === 'missing') throw new NotFoundError('Player not found');
    const completed = await this.store.setFrozen(id, frozen);
    // A retry that completed what an earlier call left half-done tells of the change too.
    if (outcome === 'changed' || completed) {
      this.events.emit('player.frozen', { playerId: id, frozen });
    }
    if (outcome === 'unchanged' && !completed) {
      throw new ConflictError(
        frozen ? 'This player is frozen already' : 'This player is not frozen',
      );
    }
    return this.detail(id);
  }

  /**
   * A freeze cancels the unpaid referral bonuses where the player is either side, for both sides;
   * an unfreeze brings back those whose other side is not frozen (pending again: paid once due,
   * within the cap). Each with its reason in the audit, on both players.
   */
  private async settleReferrals(
    client: pg.PoolClient,
    { admin, id, frozen, reason }: { admin: Admin; id: string; frozen: boolean; reason: string },
  ): Promise<void> {
    const changed = frozen
      ? await this.referrals.cancelUnpaid(client, id, {
          asInviter: referralCancelReasons.inviterFrozen(reason),
          asInvitee: referralCancelReasons.inviteeFrozen(reason),
        })
      : await this.referrals.restoreCancelled(client, id, {
          asInviter: referralRestoreReasons.inviterUnfrozen(reason),
          asInvitee: referralRestoreReasons.inviteeUnfrozen(reason),
        });
    const audit = this.repo.on(client);
    const action = frozen ? 'cancel-referral' : 'restore-referral';
    for (const invitation of changed) {
      for (const player of [invitation.inviterId, invitation.inviteeId]) {
        await audit.recordAction(player, admin.id, action, invitation.reason);
      }
    }
  }

  /** The player's invitations, with the evidence of an invitation farm. */
  async referralEvidence(id: string): Promise<ReferralEvidence> {
    if (!(await this.repo.findPlayer(id))) throw new NotFoundError('Player not found');
    return this.repo.referralEvidence(id, this.referralTaps);
  }

  recentActions(): Promise<PlayerAction[]> {
    return this.repo.actions(null, RECENT_ACTIONS);
  }

  /**
   * The board as the game shows it (frozen players left out), page by page, ranked by the Rank
   * tile's rule: equal points share a rank.
   */
  async *leaderboardRows(): AsyncGenerator<CsvRow[]> {
    let position = 0;
    let last: { points: number; rank: number } | null = null;
    const season = seasonAt(await this.store.now(), this.calendar);
    for (;;) {
      const page = await this.store.board(position, EXPORT_PAGE);
      if (page.length === 0) return;
      const ids = page.map((entry) => entry.id);
      const [parts, seasonPoints] = await Promise.all([
        this.repo.payoutParts(ids, season - 1),
        this.store.scores(season, ids),
      ]);
      const points = page.map((entry) => entry.totalPoints);
      // A page that starts level with the previous page's last row shares its rank.
      const firstRank = last?.points === points[0] ? last.rank : position + 1;
      const ranks = boardRanks(points, position, firstRank);
      yield page.map((entry, index) => ({
        rank: ranks[index],
        id: entry.id,
        username: entry.username,
        country: parts.get(entry.id)?.country ?? '',
        points: entry.totalPoints,
        taps: parts.get(entry.id)?.taps ?? 0,
        streak_bonus: parts.get(entry.id)?.streak ?? 0,
        referral_bonus: parts.get(entry.id)?.referral ?? 0,
        season_points: seasonPoints.get(entry.id) ?? 0,
        last_season_points: parts.get(entry.id)?.lastPoints ?? '',
        last_season_rank: parts.get(entry.id)?.lastRank ?? '',
      }));
      position += page.length;
      last = { points: points[points.length - 1], rank: ranks[ranks.length - 1] };
      if (page.length < EXPORT_PAGE) return;
    }
  }
}
