import {
  firstIssueMessage,
  gameEvents,
  gameHandshakeSchema,
  watchBoardsSchema,
  watchSeasonSchema,
  type GameHandshake,
  type PlayerFrozenPush,
  type TapAllowance,
  type WatchAck,
} from '@tapgram/shared';
import type { Server as SocketServer } from 'socket.io';
import type { EventBus } from '../core/events';
import type { Logger } from '../core/logger';
import type { Metrics } from '../core/metrics';
import { startBoardPushes } from './board-pushes';
import { playerFromCookieHeader } from './player-cookie';
import type { PushClaims } from './push-claims';
import type { SeasonsService } from './seasons/seasons-service';
import type { GameService } from './service';
import { handleTaps } from './tap-handlers';

/** The room of a player's own sockets (the player its signed cookie names). */
const playerRoom = (playerId: string) => `player:${playerId}`;

/**
 * The game channel: the handshake (what the client asks for), batched taps with acknowledgements
 * (tap-handlers.ts), and the boards (board-pushes.ts).
 */
export function attachGameChannel(
  io: SocketServer,
  deps: {
    service: GameService;
    seasons: SeasonsService;
    claims: PushClaims;
    secret: string;
    logger: Logger;
    metrics: Metrics;
    /** Tells the player's own sockets of a freeze or an unfreeze, and of their friends' changes. */
    events?: EventBus;
    /** Announced on every connection: the game screen sends what it allows, as it refills. */
    allowance: TapAllowance;
  },
): () => Promise<void> {
  const { service, seasons, claims, secret, logger, metrics, events, allowance } = deps;
  const boards = startBoardPushes(io, { service, seasons, claims, logger, metrics });
  // A freeze happens on one node; the adapter carries the push to whichever node holds the
  // player's sockets.
  const stopFrozenPushes = events?.on('player.frozen', ({ playerId, frozen }) => {
    const push: PlayerFrozenPush = { frozen };
    io.to(playerRoom(playerId)).emit(gameEvents.frozen, push);
  });
  const stopFriendsPushes = events?.on('friends.changed', ({ playerIds }) => {
    io.to(playerIds.map(playerRoom)).emit(gameEvents.friends);
  });

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
    boards.welcome(socket, options.boards, options.season);
    socket.on('disconnect', () => boards.forget(socket));
    handleTaps(socket, { service, logger, metrics, player, options });

    socket.on(gameEvents.watch, (payload: unknown, ack?: (reply: WatchAck) => void) => {
      const watch = watchBoardsSchema.safeParse(payload);
      if (!watch.success) {
        if (typeof ack === 'function') {
          ack({ ok: false, status: 400, error: firstIssueMessage(watch.error) });
        }
        return;
      }
      boards.watch(socket, watch.data.boards);
      if (typeof ack === 'function') ack({ ok: true });
    });

    socket.on(gameEvents.watchSeason, (payload: unknown, ack?: (reply: WatchAck) => void) => {
      const watch = watchSeasonSchema.safeParse(payload);
      if (!watch.success) {
        if (typeof ack === 'function') {
          ack({ ok: false, status: 400, error: firstIssueMessage(watch.error) });
        }
        return;
      }
      boards.watchSeason(socket, watch.data.boards);
      if (typeof ack === 'function') ack({ ok: true });
    });
  });

  return () => {
    stopFrozenPushes?.();
    stopFriendsPushes?.();
    return boards.stop();
  };
}
