import { useSyncExternalStore } from 'react';
import { io, type Socket } from 'socket.io-client';

let socket: Socket | null = null;

/** The one game channel of this page, opened on first use and kept for the page's life. */
export function gameSocket(): Socket {
  socket ??= io({ withCredentials: true });
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
