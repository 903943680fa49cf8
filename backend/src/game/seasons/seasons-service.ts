import {
  seasonAt,
  seasonBounds,
  seasonName,
  type CurrentSeason,
  type LeaderboardCountry,
  type PastSeason,
  type PlayerSeason,
  type RankedUser,
  type Season,
  type SeasonBoards,
  type SeasonCalendar,
} from '@tapgram/shared';
import type pg from 'pg';
import { NotFoundError } from '../../core/errors';
import { isId } from '../../core/ids';
import { withRanks } from '../ranking';
import type { GameStore } from '../store';
import type { ArchivedSeason, SeasonsRepository } from './seasons-repository';

/** A player's archived seasons shown with their running one. */
const PLAYER_SEASONS = 20;

/** `current`, or a season's number, as a path names it. */
export type SeasonParam = 'current' | number;

/**
 * Weekly seasons: the running one (its boards are the store's, keyed by season), and the ended
 * ones, each archived once with its final ranks (Postgres).
 */
export class SeasonsService {
  private readonly store: GameStore;
  private readonly repo: SeasonsRepository;
  private readonly pool: pg.Pool;
  readonly calendar: SeasonCalendar;

  constructor(deps: {
    store: GameStore;
    repo: SeasonsRepository;
    /** The archive's transactions. */
    pool: pg.Pool;
    calendar: SeasonCalendar;
  }) {
    this.store = deps.store;
    this.repo = deps.repo;
    this.pool = deps.pool;
    this.calendar = deps.calendar;
  }

  season(id: number): Season {
    const { startsAt, endsAt } = seasonBounds(id, this.calendar);
    return {
      id,
      name: seasonName(id),
      startsAt: new Date(startsAt).toISOString(),
      endsAt: new Date(endsAt).toISOString(),
    };
  }

  /** The season running by the store's clock, with that clock's time for the countdown. */
  async current(): Promise<CurrentSeason> {
    const now = await this.store.now();
    return { ...this.season(seasonAt(now, this.calendar)), now: new Date(now).toISOString() };
  }

  async currentId(): Promise<number> {
    return seasonAt(await this.store.now(), this.calendar);
  }

  /**
   * A season's players board: live while the store still holds the season (the running one, or
   * an ended one not yet archived), its final ranks once archived.
   */
  async users(param: SeasonParam, limit: number): Promise<RankedUser[]> {
    const season = await this.live(param);
    if (season.live) {
      const entries = await this.store.topUsers(limit, season.id);
      return withRanks({ start: 0, firstRank: 1, entries });
    }
    return this.repo.finalUsers(season.id, limit);
  }

  async countries(param: SeasonParam): Promise<LeaderboardCountry[]> {
    const season = await this.live(param);
    return season.live ? this.store.topCountries(season.id) : this.repo.finalCountries(season.id);
  }

  /** The running season's boards, whole, as the game channel follows them. */
  async boards(limit: number): Promise<SeasonBoards> {
    const season = await this.currentId();
    const [entries, countries] = await Promise.all([
      this.store.topUsers(limit, season),
      this.store.topCountries(season),
    ]);
    return { season, users: withRanks({ start: 0, firstRank: 1, entries }), countries };
  }

  async archived(limit: number, before?: number): Promise<PastSeason[]> {
    return (await this.repo.archived(limit, before)).map((s) => this.past(s));
  }

  /** The player's running season (rank live), then their archived ones, newest first. */
  async playerSeasons(userId: string): Promise<PlayerSeason[]> {
    const user = isId(userId) ? await this.store.getUser(userId) : null;
    if (!user) throw new NotFoundError('User not found');
    const current = await this.currentId();
    const [standing, results] = await Promise.all([
      this.store.seasonStanding(current, userId),
      this.repo.results(userId, PLAYER_SEASONS),
    ]);
    return [
      { ...this.season(current), ...standing, final: false },
      ...results.map(({ season, points, rank }) => ({
        ...this.season(season),
        points,
        rank,
        final: true,
      })),
    ];
  }

  /**
   * Archives every season that has ended by the store's clock and is not archived yet, oldest
   * first; once each across every process (the archive's transaction decides). Answers the
   * seasons this call archived.
   */
  async archiveEnded(): Promise<number[]> {
    const current = await this.currentId();
    let next = (await this.repo.nextToArchive()) ?? (await this.repo.startArchiving(current));
    const archived: number[] = [];
    while (next < current) {
      const { startsAt, endsAt } = seasonBounds(next, this.calendar);
      const season = { id: next, startsAt, endsAt };
      if (await this.repo.archive(this.pool, season, this.store.seasonScores(next))) {
        archived.push(next);
      }
      next = (await this.repo.nextToArchive()) ?? current;
    }
    await this.store.dropSeasons(next);
    return archived;
  }

  /** Whether the store still holds the season's boards; a season yet to come is not found. */
  private async live(param: SeasonParam): Promise<{ id: number; live: boolean }> {
    const current = await this.currentId();
    const id = param === 'current' ? current : param;
    if (id > current) throw new NotFoundError('No such season');
    if (id === current) return { id, live: true };
    const next = await this.repo.nextToArchive();
    if (next === null || id < next) {
      if (!(await this.repo.findArchived(id))) throw new NotFoundError('No such season');
      return { id, live: false };
    }
    return { id, live: true };
  }

  private past(season: ArchivedSeason): PastSeason {
    return {
      ...this.season(season.id),
      players: season.players,
      points: season.points,
      winner: season.winner,
    };
  }
}
