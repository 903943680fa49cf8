import {
  firstIssueMessage,
  gameEvents,
  tapBatchSchema,
  tapSyncSchema,
  type CompactTapAck,
  type GameHandshake,
  type TapBatchAck,
  type TapRefusal,
  type TapSyncAck,
} from '@tapgram/shared';
import type { Socket } from 'socket.io';
import { errorAnswer } from '../core/errors';
import type { Logger } from '../core/logger';
import type { Metrics } from '../core/metrics';
import { BatchesLostError, TapsTooFastError, type GameService } from './service';

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
  const { status, error: message, retryAfterSeconds, unexpected } = errorAnswer(error);
  if (unexpected) logger.error({ err: error }, event);
  if (status === 503 && retryAfterSeconds !== undefined) {
    return { ok: false, status, error: message, retryAfterMs: retryAfterSeconds * 1000 };
  }
  return { ok: false, status, error: message };
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

/**
 * The game channel's taps on one socket: batches counted and acknowledged (compact when the
 * handshake asked), and `sync`, where a client holding batches not yet durable asks how far its
 * session stands. `player` is the one the handshake's signed cookie names.
 */
export function handleTaps(
  socket: Socket,
  deps: {
    service: GameService;
    logger: Logger;
    metrics: Metrics;
    player: string | null;
    options: GameHandshake;
  },
): void {
  const { service, logger, metrics, player, options } = deps;

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
}
