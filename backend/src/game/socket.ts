import {
  firstIssueMessage,
  gameEvents,
  gameHandshakeSchema,
  LEADERBOARD_DEFAULT_LIMIT,
  tapBatchSchema,
  tapSyncSchema,
  watchBoardsSchema,
  type BoardsPush,
  type CompactTapAck,
  type GameHandshake,
  type PlayerFrozenPush,
  type TapAllowance,
  type TapBatchAck,
  type TapRefusal,
  type TapSyncAck,
  type WatchAck,
} from '@tapgram/shared';
import type { Server as SocketServer, Socket } from 'socket.io';
import { errorAnswer, HttpError } from '../core/errors';
import type { EventBus } from '../core/events';
import type { Logger } from '../core/logger';
import type { Metrics } from '../core/metrics';
import { BoardFeed, COMPACT_ROOM } from './board-feed';
import { LatestBoards } from './latest-boards';
import { playerFromCookieHeader } from './player-cookie';
import {
  BatchesLostError,
  TapsTooFastError,
  type GameService,
  type LeaderboardSnapshot,
} from './service';
import type { PushClaims } from './push-claims';

/** The room of a player's own sockets (the player its signed cookie names). */
const playerRoom = (playerId: string) => `player:${playerId}`;

// Claims are at most one a second (the claims' lock): a short tick keeps a change's push within
// about a second of it.
const PUSH_CHECK_MS = 100;

/** The answer to a socket call that failed: the error's own status, or a logged 500. */
function failure(error: unknown, logger: Logger, event: string): TapRefusal {
  if (error instanceof BatchesLostError) {
    return { ok: false, status: error.status, error: error.message, ...error.numbers };
  }
  if (error instanceof TapsTooFastError && error.retryAfterMs !== undefined) {
    return {
      ok: false,
      status: error.status,
      error: error.message,
      retryAfterMs: error.retryAfterMs,
    };
  }
  const { status, error: message, unexpected } = errorAnswer(error);
  if (unexpected) logger.error({ err: error }, event);
  return { ok: false, status, error: message };
}

function emitSnapshot(target: Pick<Socket, 'emit'>, snapshot: LeaderboardSnapshot) {
  const push: BoardsPush = snapshot;
  target.emit(gameEvents.boards, push);
}

/** What a compact acknowledgement keeps of a full one: the totals the game screen shows. */
function compact(answer: TapBatchAck): CompactTapAck {
  if (!answer.ok) return answer;
  const { accepted, user, session, seq, durableSeq } = answer;
  return {
    ok: true,
    accepted,
    totalPoints: user.totalPoints,
    totalTaps: user.totalTaps,
    sessionPoints: session.sessionPoints,
    sessionTaps: session.sessionTaps,
    seq,
    durableSeq,
  };
}

/** Logs a failed push or read, unless the game is unavailable (the screens show that). */
function logFailure(logger: Logger, message: string) {
  return (err: unknown) => {
    if (!(err instanceof HttpError)) logger.error({ err }, message);
  };
}

/**
 * The game channel: batched taps with acknowledgements, and the boards. A client that asks for a
 * detail in its handshake (or later with `watch`) gets that detail's snapshot, then deltas from
 * its process (see BoardFeed); any other gets every board whole on connect and the boards that
 * changed, at most once a second across every process, carried by the adapter.
 */
export function attachGameChannel(
  io: SocketServer,
  deps: {
    service: GameService;
    claims: PushClaims;
    secret: string;
    logger: Logger;
    metrics: Metrics;
    /** Tells the player's own sockets of a freeze or an unfreeze (`player.frozen`). */
    events?: EventBus;
    /** Announced on every connection: the game screen sends what it allows, as it refills. */
    allowance: TapAllowance;
  },
): () => Promise<void> {
  const { service, claims, secret, logger, metrics, events, allowance } = deps;
  // A freeze happens on one node; the adapter carries the push to whichever node holds the
  // player's sockets.
  const stopFrozenPushes = events?.on('player.frozen', ({ playerId, frozen }) => {
    const push: PlayerFrozenPush = { frozen };
    io.to(playerRoom(playerId)).emit(gameEvents.frozen, push);
  });
  const version = () => claims.version();
  const latest = new LatestBoards({
    read: () => service.snapshot(LEADERBOARD_DEFAULT_LIMIT),
    version,
  });
  const feed = new BoardFeed(io, { read: () => latest.current(), version }, () =>
    metrics.leaderboardPushed(),
  );
  /** This process's sockets that get the boards whole. */
  const fullBoards = new Set<Socket>();
  /**
   * Those of them still waiting for their first boards: sent on the next tick, every one from the
   * same read, so that a crowd of new sockets costs one read rather than one each.
   */
  const newcomers = new Set<Socket>();

  // A handshake that asks for something this server does not offer is refused, with the reason.
  io.use((socket, next) => {
    const handshake = gameHandshakeSchema.safeParse(socket.handshake.auth ?? {});
    if (!handshake.success) {
      next(new Error(`Invalid handshake: ${firstIssueMessage(handshake.error)}`));
      return;
    }
    const options: GameHandshake = handshake.data;
    socket.data.game = options;
    next();
  });

  io.on('connection', (socket) => {
    const player = playerFromCookieHeader(socket.handshake.headers.cookie, secret);
    const options = socket.data.game as GameHandshake;
    socket.emit(gameEvents.allowance, allowance);
    if (player) void socket.join(playerRoom(player));

    if (options.boards) {
      feed.watch(socket, options.boards);
    } else {
      fullBoards.add(socket);
      newcomers.add(socket);
    }
    socket.on('disconnect', () => {
      fullBoards.delete(socket);
      newcomers.delete(socket);
      feed.forget(socket);
    });

    const tapAnswer = async (payload: unknown): Promise<TapBatchAck> => {
      const batch = tapBatchSchema.safeParse(payload);
      if (!batch.success) return { ok: false, status: 400, error: firstIssueMessage(batch.error) };
      try {
        const result = await service.tap(player, batch.data);
        return { ok: true, ...result };
      } catch (error) {
        return failure(error, logger, 'socket tap failed');
      }
    };

    socket.on(
      gameEvents.tap,
      async (payload: unknown, ack?: (reply: TapBatchAck | CompactTapAck) => void) => {
        if (typeof ack !== 'function') return;
        const received = performance.now();
        const answer = await tapAnswer(payload);
        metrics.tapBatch((performance.now() - received) / 1000);
        ack(options.acks === 'compact' ? compact(answer) : answer);
      },
    );

    socket.on(gameEvents.sync, async (payload: unknown, ack?: (reply: TapSyncAck) => void) => {
      if (typeof ack !== 'function') return;
      const sync = tapSyncSchema.safeParse(payload);
      if (!sync.success) {
        ack({ ok: false, status: 400, error: firstIssueMessage(sync.error) });
        return;
      }
      try {
        ack({ ok: true, ...(await service.sessionNumbers(player, sync.data.sessionId)) });
      } catch (error) {
        ack(failure(error, logger, 'socket sync failed'));
      }
    });

    socket.on(gameEvents.watch, (payload: unknown, ack?: (reply: WatchAck) => void) => {
      const watch = watchBoardsSchema.safeParse(payload);
      if (!watch.success) {
        if (typeof ack === 'function') {
          ack({ ok: false, status: 400, error: firstIssueMessage(watch.error) });
        }
        return;
      }
      fullBoards.delete(socket);
      newcomers.delete(socket);
      feed.watch(socket, watch.data.boards);
      if (typeof ack === 'function') ack({ ok: true });
    });
  });

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
    if (fullBoards.size === 0 || !(await claims.claim())) return;
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
  }, PUSH_CHECK_MS);
  // Stopping waits for a push under way, so that it never reaches a closed Redis connection.
  return async () => {
    stopFrozenPushes?.();
    clearInterval(timer);
    await Promise.all([pushing, feeding, greeting]);
  };
}
