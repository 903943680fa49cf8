import type { Namespace, Server as SocketServer } from 'socket.io';
import { TokenBuckets } from './token-bucket';
import type { Logger } from './logger';

/**
 * Messages a socket may send, of any event, a second and at once: the game screen sends one tap
 * batch per TAP_BATCH_WINDOW_MS (one a second), so this leaves room for a re-send after a reconnect
 * while one socket can no longer take the process from the other players.
 */
export const SOCKET_MESSAGES_PER_SECOND = 10;
export const SOCKET_MESSAGE_BURST = 20;
/** Refusals in a row after which the socket is dropped: no page of this site keeps going. */
export const SOCKET_REFUSALS_BEFORE_DISCONNECT = 50;

const TOO_MANY_MESSAGES = 'Too many messages, slow down';

/**
 * Counts every incoming message of every socket, in every namespace (those made later too),
 * before any handler runs. A message beyond the limit does no work: it is answered 429 when it
 * asks for an answer, dropped otherwise. A socket is bound to one process, so the count is kept
 * in memory.
 */
export function limitSocketMessages(
  io: SocketServer,
  { logger, now = Date.now }: { logger: Logger; now?: () => number },
): void {
  const limitEach = (namespace: Namespace) => limitNamespace(namespace, logger, now);
  limitEach(io.of('/'));
  // Told synchronously as io.of() makes a namespace: before its own handlers are added.
  io.on('new_namespace', limitEach);
}

function limitNamespace(namespace: Namespace, logger: Logger, now: () => number): void {
  const limit = { perSecond: SOCKET_MESSAGES_PER_SECOND, burst: SOCKET_MESSAGE_BURST };
  namespace.on('connection', (socket) => {
    const bucket = new TokenBuckets(limit, now);
    let refusals = 0;
    socket.use((packet, next) => {
      if (bucket.take(socket.id, 1)) {
        refusals = 0;
        next();
        return;
      }
      refusals += 1;
      const ack: unknown = packet[packet.length - 1];
      if (typeof ack === 'function') ack({ ok: false, status: 429, error: TOO_MANY_MESSAGES });
      if (refusals === SOCKET_REFUSALS_BEFORE_DISCONNECT) {
        logger.warn(
          {
            socket: socket.id,
            namespace: namespace.name,
            address: socket.handshake.address,
            forwardedFor: socket.handshake.headers['x-forwarded-for'],
          },
          'socket disconnected: too many messages',
        );
        socket.disconnect(true);
      }
    });
  });
}
