import { LIVE_NAMESPACE, type LiveEventName, type LiveEvents } from '@tapgram/shared';
import { io, type Socket } from 'socket.io-client';
import { afterEach } from 'vitest';

export type Push = { [K in LiveEventName]: { event: K; payload: LiveEvents[K] } }[LiveEventName];

/** A live-channel client as a signed-in browser holds one, with every push it received. */
export interface LiveClient {
  socket: Socket;
  pushes: Push[];
  /** The next push that `accept` takes (one already received counts). */
  next<K extends LiveEventName>(
    event: K,
    accept?: (payload: LiveEvents[K]) => boolean,
  ): Promise<LiveEvents[K]>;
  /** Resolves with the reason when the socket is disconnected. */
  ended: Promise<string>;
}

/**
 * Opens the live channel of the server at `url` with a session cookie and the other headers a
 * browser adds (Origin); rejects with the handshake's refusal.
 */
export async function connectLive(
  url: string,
  cookie?: string,
  headers: Record<string, string> = {},
): Promise<LiveClient> {
  const socket = io(`${url}${LIVE_NAMESPACE}`, {
    transports: ['websocket'],
    extraHeaders: { ...headers, ...(cookie ? { Cookie: cookie } : {}) },
    reconnection: false,
    forceNew: true,
  });
  const pushes: Push[] = [];
  const waiting = new Set<() => void>();
  socket.onAny((event: LiveEventName, payload: LiveEvents[LiveEventName]) => {
    pushes.push({ event, payload } as Push);
    for (const check of waiting) check();
  });
  const ended = new Promise<string>((resolve) => socket.once('disconnect', resolve));
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('connect_error', (error) => {
      socket.close();
      reject(error);
    });
  });
  return {
    socket,
    pushes,
    ended,
    next(event, accept = () => true) {
      return new Promise((resolve) => {
        const check = () => {
          const found = pushes.find(
            (push) => push.event === event && accept(push.payload as LiveEvents[typeof event]),
          );
          if (!found) return;
          waiting.delete(check);
          resolve(found.payload as LiveEvents[typeof event]);
        };
        waiting.add(check);
        check();
      });
    },
  };
}

/** Opens live clients, each closed after the test that opened it. */
export function liveClients() {
  const open: Socket[] = [];
  afterEach(() => {
    for (const socket of open.splice(0)) socket.disconnect();
  });
  return async (url: string, cookie?: string, headers?: Record<string, string>) => {
    const client = await connectLive(url, cookie, headers);
    open.push(client.socket);
    return client;
  };
}
