import { useSyncExternalStore } from 'react';
import type { BoardDetail, GameHandshake } from '@tapgram/shared';
import { whenIdle } from '../../lib/when-idle';
import { LazySocket, type GameSocket } from './lazy-socket';

let socket: LazySocket | null = null;
/** The boards' detail this page's screen follows, and the one the last handshake asked for. */
let followed: BoardDetail | undefined;
let askedAtConnect: BoardDetail | undefined;
/** Whether the channel has been open on this page: before that, it is connecting, not reconnecting. */
let everConnected = false;

/**
 * The handshake of every (re)connection: the compact protocol (totals-only acknowledgements, the
 * followed boards as snapshot and deltas).
 */
function handshake(send: (auth: GameHandshake) => void) {
  askedAtConnect = followed;
  send({ acks: 'compact', ...(followed ? { boards: followed } : {}) });
}

/** The screen on show follows `detail` of the boards: asked for in the next handshakes. */
export function followBoards(detail: BoardDetail): void {
  followed = detail;
}

export function boardsAskedAtConnect(): BoardDetail | undefined {
  return askedAtConnect;
}

/**
 * Reconnection after a dropped connection (a deploy closes every socket of a node at once, and a
 * node over capacity refuses handshakes with 503): exponential backoff from about a second, doubling
 * to at most 5 s, each delay drawn at random within ±50 %, so that a crowd cut at the same moment
 * comes back spread over time instead of in one wave. It never gives up.
 */
export const RECONNECT_FIRST_MS = 1000;
export const RECONNECT_LONGEST_MS = 5000;
export const RECONNECT_JITTER = 0.5;

/** Whether the channel waits before it opens by itself (see holdGameSocket). */
let held = false;
/** Whether the page has been idle, the moment the channel opens by itself. */
let idleReached = false;

function openWhenIdle(): void {
  if (idleReached && !held) void socket?.open().catch(() => undefined);
}

/**
 * The one game channel of this page, kept for the page's life. Its client code loads once the
 * page has started and is idle (see LazySocket: what screens ask of it meanwhile applies then),
 * unless a screen holds it.
 */
export function gameSocket(): GameSocket {
  if (!socket) {
    socket = new LazySocket(connectGameSocket);
    whenIdle(() => {
      idleReached = true;
      openWhenIdle();
    });
  }
  return socket;
}

/**
 * Holds the channel while `hold`: the game screen of a first visit, whose welcome dialog asks for a
 * player before anything else can be done (the page behind it is inert, its boards refresh by
 * polling). Its client's code (about 13 KB gzipped) is then not loaded at all until the player is
 * made, which connects the channel (usePlayer). Released, the channel opens as it would have. A
 * channel already asked to open is not closed by a hold.
 */
export function holdGameSocket(hold: boolean): void {
  held = hold;
  openWhenIdle();
}

/** Loads the channel's client and opens it now, without waiting for the page to be idle. */
export async function openGameSocket(): Promise<void> {
  gameSocket();
  await socket?.open();
}

async function connectGameSocket(): Promise<GameSocket> {
  const { io } = await import('socket.io-client');
  // WebSocket first: one connection, which any backend worker or node can hold without sticky
  // routing; long-polling only where WebSocket fails (then the proxy's sticky routing counts).
  const opened = io({
    withCredentials: true,
    auth: handshake,
    transports: ['websocket', 'polling'],
    tryAllTransports: true,
    reconnection: true,
    reconnectionAttempts: Infinity,
    reconnectionDelay: RECONNECT_FIRST_MS,
    reconnectionDelayMax: RECONNECT_LONGEST_MS,
    randomizationFactor: RECONNECT_JITTER,
  });
  everConnected = opened.connected;
  opened.on('connect', () => {
    everConnected = true;
  });
  return opened;
}

function subscribe(onChange: () => void) {
  const s = gameSocket();
  s.on('connect', onChange);
  s.on('disconnect', onChange);
  return () => {
    s.off('connect', onChange);
    s.off('disconnect', onChange);
  };
}

export function useSocketConnected(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => gameSocket().connected,
    () => false,
  );
}

/** The channel was open and is not now: it is coming back by itself (see the backoff above). */
export function useSocketReconnecting(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => everConnected && !gameSocket().connected,
    () => false,
  );
}
