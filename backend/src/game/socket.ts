import {
  firstIssueMessage,
  gameEvents,
  LEADERBOARD_DEFAULT_LIMIT,
  tapBatchSchema,
  tapSyncSchema,
  type BatchNumbers,
  type BoardsPush,
  type TapBatchAck,
  type TapSyncAck,
} from '@tapgram/shared';
import type { Server as SocketServer, Socket } from 'socket.io';
import { errorAnswer, HttpError } from '../core/errors';
import type { Logger } from '../core/logger';
import type { Metrics } from '../core/metrics';
import { playerFromCookieHeader } from './player-cookie';
import { BatchesLostError, type GameService, type LeaderboardSnapshot } from './service';
import type { PushClaims } from './push-claims';

// Claims are at most one a second (the claims' lock): a short tick keeps a change's push within
// about a second of it.
const PUSH_CHECK_MS = 100;

/** The answer to a socket call that failed: the error's own status, or a logged 500. */
function failure(
  error: unknown,
  logger: Logger,
  event: string,
): { ok: false; status: number; error: string } & Partial<BatchNumbers> {
  if (error instanceof BatchesLostError) {
    return { ok: false, status: error.status, error: error.message, ...error.numbers };
  }
  const { status, error: message, unexpected } = errorAnswer(error);
  if (unexpected) logger.error({ err: error }, event);
  return { ok: false, status, error: message };
}

function emitSnapshot(target: Pick<Socket, 'emit'>, snapshot: LeaderboardSnapshot) {
  const push: BoardsPush = snapshot;
  target.emit(gameEvents.boards, push);
}

/**
 * The game channel: a snapshot on connect, pushes when the boards change (at most one a second
 * across every process, carried by the adapter), and batched taps with acknowledgements.
 */
export function attachGameChannel(
  io: SocketServer,
  deps: {
    service: GameService;
    claims: PushClaims;
    secret: string;
    logger: Logger;
    metrics: Metrics;
  },
): () => Promise<void> {
  const { service, claims, secret, logger, metrics } = deps;

  io.on('connection', (socket) => {
    const player = playerFromCookieHeader(socket.handshake.headers.cookie, secret);

    service.snapshot(LEADERBOARD_DEFAULT_LIMIT).then(
      (snapshot) => emitSnapshot(socket, snapshot),
      (err: unknown) => {
        // While the game is unavailable the page shows it; the boards come with the next push.
        if (!(err instanceof HttpError)) logger.error({ err }, 'snapshot on connect failed');
      },
    );

    const tapAnswer = async (payload: unknown): Promise<TapBatchAck> => {
      const batch = tapBatchSchema.safeParse(payload);
      if (!batch.success) return { ok: false, status: 400, error: firstIssueMessage(batch.error) };
      try {
        const { sessionId, count, seq, after } = batch.data;
        const result = await service.tap(player, player ?? '', sessionId, count, seq, after);
        return { ok: true, ...result };
      } catch (error) {
        return failure(error, logger, 'socket tap failed');
      }
    };

    socket.on(gameEvents.tap, async (payload: unknown, ack?: (reply: TapBatchAck) => void) => {
      if (typeof ack !== 'function') return;
      const received = performance.now();
      const answer = await tapAnswer(payload);
      metrics.tapBatch((performance.now() - received) / 1000);
      ack(answer);
    });

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
  });

  // What this process pushed last: a board that did not change is not sent again.
  const lastPushed = new Map<keyof BoardsPush, string>();
  const changed = <K extends keyof BoardsPush>(name: K, board: BoardsPush[K]) => {
    const json = JSON.stringify(board);
    if (lastPushed.get(name) === json) return false;
    lastPushed.set(name, json);
    return true;
  };
  const pushChanges = async () => {
    if (!(await claims.claim())) return;
    try {
      const snapshot = await service.snapshot(LEADERBOARD_DEFAULT_LIMIT);
      const push: BoardsPush = {};
      if (changed('users', snapshot.users)) push.users = snapshot.users;
      if (changed('countries', snapshot.countries)) push.countries = snapshot.countries;
      if (changed('milestone', snapshot.milestone)) push.milestone = snapshot.milestone;
      if (Object.keys(push).length > 0) {
        metrics.leaderboardPushed();
        io.emit(gameEvents.boards, push);
      }
    } catch (error) {
      // Nothing was pushed: give the claim back so that the next tick tries again.
      await claims.release();
      throw error;
    }
  };
  let pushing: Promise<void> | null = null;
  const timer = setInterval(() => {
    pushing ??= pushChanges()
      .catch((err: unknown) => logger.error({ err }, 'leaderboard push failed'))
      .finally(() => {
        pushing = null;
      });
  }, PUSH_CHECK_MS);
  // Stopping waits for a push under way, so that it never reaches a closed Redis connection.
  return async () => {
    clearInterval(timer);
    await pushing;
  };
}
