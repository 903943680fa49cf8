import { gameEvents, type TapBatchAck } from '@tapgram/shared';
import { io, type Socket } from 'socket.io-client';

/** A game-channel client as a browser holds it: the player's cookie on the handshake. */
export async function connectGame(url: string, cookie?: string): Promise<Socket> {
  const socket = io(url, {
    transports: ['websocket'],
    extraHeaders: cookie ? { Cookie: cookie } : {},
    reconnection: false,
    forceNew: true,
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('connect_error', reject);
  });
  return socket;
}

export function sendTaps(socket: Socket, sessionId: string, count: number): Promise<TapBatchAck> {
  return socket.timeout(10_000).emitWithAck(gameEvents.tap, { sessionId, count });
}

/** Resolves with the next payload of `event` that satisfies `accept`. */
export function nextEvent<T>(
  socket: Socket,
  event: string,
  accept: (payload: T) => boolean = () => true,
): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      socket.off(event, listener);
      reject(new Error(`no matching ${event} within 10 s`));
    }, 10_000);
    const listener = (payload: T) => {
      if (!accept(payload)) return;
      clearTimeout(timer);
      socket.off(event, listener);
      resolve(payload);
    };
    socket.on(event, listener);
  });
}
