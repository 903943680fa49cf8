import {
  firstIssueMessage,
  gameEvents,
  LEADERBOARD_DEFAULT_LIMIT,
  tapBatchSchema,
  type TapBatchAck,
} from '@tapgram/shared';
import type { Server as SocketServer, Socket } from 'socket.io';
import { HttpError } from '../core/errors';
import type { Logger } from '../core/logger';
import { playerFromCookieHeader } from './player-cookie';
import type { GameService, LeaderboardSnapshot } from './service';
import type { GameStore } from './store';

const PUSH_CHECK_MS = 250;

function emitSnapshot(target: Pick<Socket, 'emit'>, snapshot: LeaderboardSnapshot) {
  target.emit(gameEvents.leaderboardUsers, snapshot.users);
  target.emit(gameEvents.leaderboardCountries, snapshot.countries);
  target.emit(gameEvents.milestone, snapshot.milestone);
}

/**
 * The game channel: a snapshot on connect, pushes when the boards change (at most one a second
 * across every process, carried by the adapter), and batched taps with acknowledgements.
 */
export function attachGameChannel(
  io: SocketServer,
  deps: { service: GameService; store: GameStore; secret: string; logger: Logger },
): () => void {
  const { service, store, secret, logger } = deps;

  io.on('connection', (socket) => {
    const player = playerFromCookieHeader(socket.handshake.headers.cookie, secret);

    service.snapshot(LEADERBOARD_DEFAULT_LIMIT).then(
      (snapshot) => emitSnapshot(socket, snapshot),
      (err: unknown) => logger.error({ err }, 'snapshot on connect failed'),
    );

    socket.on(gameEvents.tap, async (payload: unknown, ack?: (reply: TapBatchAck) => void) => {
      if (typeof ack !== 'function') return;
      const batch = tapBatchSchema.safeParse(payload);
      if (!batch.success) {
        ack({ ok: false, status: 400, error: firstIssueMessage(batch.error) });
        return;
      }
      try {
        const { sessionId, count, batchId } = batch.data;
        const result = await service.tap(player, player ?? '', sessionId, count, batchId);
        ack({ ok: true, ...result });
      } catch (error) {
        if (error instanceof HttpError) {
          ack({ ok: false, status: error.status, error: error.message });
        } else {
          logger.error({ err: error }, 'socket tap failed');
          ack({ ok: false, status: 500, error: 'Internal server error' });
        }
      }
    });
  });

  // What this process pushed last: a board that did not change is not sent again.
  const lastPushed = new Map<string, string>();
  const pushIfChanged = (event: string, payload: unknown) => {
    const json = JSON.stringify(payload);
    if (lastPushed.get(event) === json) return;
    lastPushed.set(event, json);
    io.emit(event, payload);
  };
  let pushing = false;
  const timer = setInterval(async () => {
    if (pushing) return;
    pushing = true;
    try {
      if (await store.claimPush()) {
        const snapshot = await service.snapshot(LEADERBOARD_DEFAULT_LIMIT);
        pushIfChanged(gameEvents.leaderboardUsers, snapshot.users);
        pushIfChanged(gameEvents.leaderboardCountries, snapshot.countries);
        pushIfChanged(gameEvents.milestone, snapshot.milestone);
      }
    } catch (err) {
      logger.error({ err }, 'leaderboard push failed');
    } finally {
      pushing = false;
    }
  }, PUSH_CHECK_MS);
  return () => clearInterval(timer);
}
