import {
  gameEvents,
  type BoardsPush,
  type GameHandshake,
  type TapBatch,
  type TapBatchAck,
} from '@tapgram/shared';
import { io, type Socket } from 'socket.io-client';
import { afterEach } from 'vitest';

/**
 * A game-channel client as a browser holds it: the player's cookie on the handshake, and the
 * other handshake headers a browser adds (Origin, say) when given; `auth` is what the handshake
 * asks for (the compact protocol).
 */
export async function connectGame(
  url: string,
  cookie?: string,
  headers: Record<string, string> = {},
  auth?: GameHandshake,
): Promise<Socket> {
  const socket = io(url, {
    transports: ['websocket'],
    extraHeaders: { ...headers, ...(cookie ? { Cookie: cookie } : {}) },
    reconnection: false,
    forceNew: true,
    ...(auth ? { auth } : {}),
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('connect_error', reject);
  });
  return socket;
}

/**
 * Opens game-channel clients to the server at `url()` (read when called: servers start in
 * beforeAll), each disconnected after the test that opened it.
 */
export function gameSockets(url: () => string) {
  const open: Socket[] = [];
  afterEach(() => {
    for (const socket of open.splice(0)) socket.disconnect();
  });
  return async (
    cookie?: string,
    headers?: Record<string, string>,
    auth?: GameHandshake,
  ): Promise<Socket> => {
    const socket = await connectGame(url(), cookie, headers, auth);
    open.push(socket);
    return socket;
  };
}

/** Sends a batch of taps, numbered `seq` in its session as the game screen numbers them. */
export function sendTaps(
  socket: Socket,
  sessionId: string,
  count: number,
  seq?: number,
): Promise<TapBatchAck> {
  const batch: TapBatch = { sessionId, count, seq };
  return socket.timeout(10_000).emitWithAck(gameEvents.tap, batch);
}

const WAIT_MS = 30_000;

/** Resolves with the next payload of `event` that satisfies `accept`. */
export function nextEvent<T>(
  socket: Socket,
  event: string,
  accept: (payload: T) => boolean = () => true,
): Promise<T> {
  return new Promise((resolve, reject) => {
    // As long as the suite's other waits: two cores shared with the rest of the suite.
    const timer = setTimeout(() => {
      socket.off(event, listener);
      reject(new Error(`no matching ${event} within ${WAIT_MS / 1000} s`));
    }, WAIT_MS);
    const listener = (payload: T) => {
      if (!accept(payload)) return;
      clearTimeout(timer);
      socket.off(event, listener);
      resolve(payload);
    };
    socket.on(event, listener);
  });
}

/** Resolves with board `name` of the next push that carries it and satisfies `accept`. */
export async function nextBoard<K extends keyof BoardsPush>(
  socket: Socket,
  name: K,
  accept: (board: NonNullable<BoardsPush[K]>) => boolean = () => true,
): Promise<NonNullable<BoardsPush[K]>> {
  const push = await nextEvent<BoardsPush>(socket, gameEvents.boards, (p) => {
    const board = p[name];
    return board !== undefined && accept(board as NonNullable<BoardsPush[K]>);
  });
  return push[name] as NonNullable<BoardsPush[K]>;
}
