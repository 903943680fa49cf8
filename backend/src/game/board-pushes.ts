import {
  gameEvents,
  LEADERBOARD_DEFAULT_LIMIT,
  seasonAt,
  type BoardDetail,
  type BoardsPush,
  type SeasonBoards,
} from '@tapgram/shared';
import type { Server as SocketServer, Socket } from 'socket.io';
import { HttpError } from '../core/errors';
import type { Logger } from '../core/logger';
import type { Metrics } from '../core/metrics';
import { BoardFeed, COMPACT_ROOM, SeasonFeed } from './board-feed';
import { LatestBoards } from './latest-boards';
import type { PushClaims } from './push-claims';
import type { SeasonsService } from './seasons/seasons-service';
import type { GameService, LeaderboardSnapshot } from './service';

// Claims are at most one a second (the claims' lock): a short tick keeps a change's push within
// about a second of it.
const PUSH_CHECK_MS = 100;
/**
 * The season boards are read again as a season ends by this process's clock, and again this long
 * after: the store's clock, which decides the rollover, may differ from it a little.
 */
const CLOCK_SKEW_MS = 2000;

function emitSnapshot(target: Pick<Socket, 'emit'>, snapshot: LeaderboardSnapshot) {
  const push: BoardsPush = snapshot;
  target.emit(gameEvents.boards, push);
}

/** Logs a failed push or read, unless the game is unavailable (the screens show that). */
function logFailure(logger: Logger, message: string) {
  return (err: unknown) => {
    if (!(err instanceof HttpError)) logger.error({ err }, message);
  };
}

/** The boards' side of the game channel, for the sockets of this process. */
export interface BoardPushes {
  /**
   * A socket connected: it follows `detail` (snapshot, then deltas), or gets the boards whole; and
   * the running season's boards at `season`, when asked.
   */
  welcome(socket: Socket, detail: BoardDetail | undefined, season: BoardDetail | undefined): void;
  /** The socket follows `detail` from now on. */
  watch(socket: Socket, detail: BoardDetail): void;
  /** The socket follows the running season's boards at `detail` from now on (null: no longer). */
  watchSeason(socket: Socket, detail: BoardDetail | null): void;
  forget(socket: Socket): void;
  /** Stops the timer, once a push under way has ended. */
  stop(): Promise<void>;
}

/**
 * The boards pushed on the game channel. A client that asks for a detail (in its handshake or
 * later with `watch`) gets that detail's snapshot, then deltas from its process (see BoardFeed);
 * any other gets every board whole on connect and the boards that changed, at most once a second
 * across every process, carried by the adapter.
 */
export function startBoardPushes(
  io: SocketServer,
  deps: {
    service: GameService;
    seasons: SeasonsService;
    claims: PushClaims;
    logger: Logger;
    metrics: Metrics;
  },
): BoardPushes {
  const { service, seasons, claims, logger, metrics } = deps;
  const version = () => claims.version();
  const latest = new LatestBoards({
    read: () => service.snapshot(LEADERBOARD_DEFAULT_LIMIT),
    version,
  });
  const onPush = () => metrics.leaderboardPushed();
  const feed = new BoardFeed({ io, source: { read: () => latest.current(), version }, onPush });
  // The season's boards change with the same taps, and at a rollover.
  const seasonVersion = async () => {
    const now = Date.now();
    const around = (ms: number) => seasonAt(ms, seasons.calendar);
    return `${await claims.version()}:${around(now - CLOCK_SKEW_MS)}:${around(now + CLOCK_SKEW_MS)}`;
  };
  const latestSeason = new LatestBoards<SeasonBoards>({
    read: () => seasons.boards(LEADERBOARD_DEFAULT_LIMIT),
    version: seasonVersion,
  });
  const seasonFeed = new SeasonFeed({
    io,
    source: { read: () => latestSeason.current(), version: seasonVersion },
    onPush,
  });
  /** This process's sockets that get the boards whole. */
  const fullBoards = new Set<Socket>();
  /**
   * Those of them still waiting for their first boards: sent on the next tick, every one from the
   * same read, so that a crowd of new sockets costs one read rather than one each.
   */
  const newcomers = new Set<Socket>();

  // What this process pushed last: a board that did not change is not sent again.
  const lastPushed = new Map<keyof BoardsPush, string>();
  const changed = <K extends keyof BoardsPush>(name: K, board: BoardsPush[K]) => {
    const json = JSON.stringify(board);
    if (lastPushed.get(name) === json) return false;
    lastPushed.set(name, json);
    return true;
  };
  // Only a process with sockets that get the boards whole claims their push: when every client
  // follows a detail, nobody reads or sends the whole boards.
  const pushChanges = async () => {
    if (fullBoards.size === 0) return;
    const claimed = await claims.claim();
    if (claimed === null) return;
    try {
      const snapshot = await latest.current();
      const push: BoardsPush = {};
      if (changed('users', snapshot.users)) push.users = snapshot.users;
      if (changed('countries', snapshot.countries)) push.countries = snapshot.countries;
      if (changed('milestone', snapshot.milestone)) push.milestone = snapshot.milestone;
      if (Object.keys(push).length > 0) {
        metrics.leaderboardPushed();
        io.except(COMPACT_ROOM).emit(gameEvents.boards, push);
      }
    } catch (error) {
      // Nothing was pushed: give the claim back so that the next tick tries again.
      await claims.release();
      throw error;
    }
    // The push went out: a mark that does not reach Redis only repeats it after the interval.
    await claims
      .pushed(claimed)
      .catch((err: unknown) => logger.warn({ err }, 'leaderboard push not marked as done'));
  };
  // The boards as they stand after each newcomer connected: a push it missed is older than them.
  const greetNewcomers = async () => {
    if (newcomers.size === 0) return;
    const waiting = [...newcomers];
    newcomers.clear();
    const snapshot = await latest.current();
    for (const socket of waiting) if (socket.connected) emitSnapshot(socket, snapshot);
  };
  let pushing: Promise<void> | null = null;
  let feeding: Promise<void> | null = null;
  let seasonFeeding: Promise<void> | null = null;
  let greeting: Promise<void> | null = null;
  const timer = setInterval(() => {
    greeting ??= greetNewcomers()
      // While the game is unavailable the page shows it; the boards come with the next push.
      .catch(logFailure(logger, 'snapshot on connect failed'))
      .finally(() => {
        greeting = null;
      });
    pushing ??= pushChanges()
      .catch(logFailure(logger, 'leaderboard push failed'))
      .finally(() => {
        pushing = null;
      });
    feeding ??= feed
      .check()
      .catch(logFailure(logger, 'board deltas failed'))
      .finally(() => {
        feeding = null;
      });
    seasonFeeding ??= seasonFeed
      .check()
      .catch(logFailure(logger, 'season board deltas failed'))
      .finally(() => {
        seasonFeeding = null;
      });
  }, PUSH_CHECK_MS);

  const forget = (socket: Socket) => {
    fullBoards.delete(socket);
    newcomers.delete(socket);
    feed.forget(socket);
    seasonFeed.forget(socket);
  };
  return {
    welcome(socket, detail, season) {
      if (detail) {
        feed.watch(socket, detail);
      } else {
        fullBoards.add(socket);
        newcomers.add(socket);
      }
      if (season) seasonFeed.watch(socket, season);
    },
    watch(socket, detail) {
      fullBoards.delete(socket);
      newcomers.delete(socket);
      feed.watch(socket, detail);
    },
    watchSeason(socket, detail) {
      if (detail) seasonFeed.watch(socket, detail);
      else seasonFeed.unwatch(socket);
    },
    forget,
    // Stopping waits for a push under way, so that it never reaches a closed Redis connection.
    async stop() {
      clearInterval(timer);
      await Promise.all([pushing, feeding, seasonFeeding, greeting]);
    },
  };
}
