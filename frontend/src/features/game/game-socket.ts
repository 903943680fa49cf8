import { useSyncExternalStore } from 'react';
import type { BoardDetail, GameHandshake } from '@tapgram/shared';
import { io, type Socket } from 'socket.io-client';

let socket: Socket | null = null;
/** The boards' detail this page's screen follows, and the one the last handshake asked for. */
let followed: BoardDetail | undefined;
let askedAtConnect: BoardDetail | undefined;

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

/** The one game channel of this page, opened on first use and kept for the page's life. */
export function gameSocket(): Socket {
  // WebSocket first: one connection, which any backend worker or node can hold without sticky
  // routing; long-polling only where WebSocket fails (then the proxy's sticky routing counts).
  socket ??= io({
    withCredentials: true,
    auth: handshake,
    transports: ['websocket', 'polling'],
    tryAllTransports: true,
  });
  return socket;
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
