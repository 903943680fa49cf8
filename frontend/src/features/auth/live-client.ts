import { LIVE_NAMESPACE, type LiveEventName, type LiveEvents } from '@tapgram/shared';

/** What the live client needs of a Socket.IO client socket. */
export interface LiveSocket {
  readonly connected: boolean;
  /** False after the server refused the handshake: Socket.IO does not try again by itself. */
  readonly active: boolean;
  on(event: string, listener: (...args: never[]) => void): unknown;
  onAny(listener: (event: string, payload: unknown) => void): unknown;
  connect(): unknown;
  disconnect(): unknown;
}

export type LiveConnector = () => Promise<LiveSocket>;

/** The first wait before asking again after a refusal; it doubles up to the longest. */
export const LIVE_RETRY_FIRST_MS = 1000;
export const LIVE_RETRY_LONGEST_MS = 30_000;

// Socket.IO loads with the first signed-in screen, not with pages nobody is signed in on.
let connector: LiveConnector = async () => {
  const { io } = await import('socket.io-client');
  return io(LIVE_NAMESPACE, {
    withCredentials: true,
    // As the game channel: WebSocket first, which any backend node can hold without sticky routing.
    transports: ['websocket', 'polling'],
    tryAllTransports: true,
    autoConnect: false,
    reconnectionDelay: LIVE_RETRY_FIRST_MS,
    reconnectionDelayMax: LIVE_RETRY_LONGEST_MS,
  });
};

const listeners = new Map<string, Set<(payload: unknown) => void>>();
const connectListeners = new Set<() => void>();

interface Connection {
  userId: string;
  socket: LiveSocket | null;
  closed: boolean;
  retry: ReturnType<typeof setTimeout> | undefined;
  wait: number;
}
let connection: Connection | null = null;

/** Replaces how the live socket is made (tests hand in a stand-in). */
export function setLiveConnector(next: LiveConnector): void {
  connector = next;
}

/**
 * Opens the live channel of the signed-in user (once: a second call for the same user keeps it).
 * Socket.IO reconnects after a dropped connection by itself, with backoff; a refused handshake or
 * a socket the server ended (the session expired or signed out) is asked again here, with backoff,
 * after `recheck` has let the sign-in state look at the session (a signed-out user stops it).
 */
export function startLive(userId: string, recheck: () => void): void {
  if (connection?.userId === userId) return;
  stopLive();
  const current: Connection = {
    userId,
    socket: null,
    closed: false,
    retry: undefined,
    wait: LIVE_RETRY_FIRST_MS,
  };
  connection = current;
  const askAgainLater = () => {
    recheck();
    clearTimeout(current.retry);
    current.retry = setTimeout(() => {
      if (!current.closed) current.socket?.connect();
    }, current.wait);
    current.wait = Math.min(current.wait * 2, LIVE_RETRY_LONGEST_MS);
  };
  void connector().then((socket) => {
    if (current.closed) {
      socket.disconnect();
      return;
    }
    current.socket = socket;
    socket.onAny((event, payload) => {
      for (const listener of listeners.get(event) ?? []) listener(payload);
    });
    socket.on('connect', () => {
      current.wait = LIVE_RETRY_FIRST_MS;
      for (const listener of connectListeners) listener();
    });
    socket.on('connect_error', () => {
      if (!socket.active) askAgainLater();
    });
    socket.on('disconnect', (reason: string) => {
      if (reason === 'io server disconnect') askAgainLater();
    });
    socket.connect();
  });
}

/** Closes the live channel (signed out). */
export function stopLive(): void {
  if (!connection) return;
  connection.closed = true;
  clearTimeout(connection.retry);
  connection.socket?.disconnect();
  connection = null;
}

/** Calls `listener` with every push of `event`; answers a function that stops it. */
export function onLive<K extends LiveEventName>(
  event: K,
  listener: (payload: LiveEvents[K]) => void,
): () => void {
  let set = listeners.get(event);
  if (!set) {
    set = new Set();
    listeners.set(event, set);
  }
  const registered = listener as (payload: unknown) => void;
  set.add(registered);
  return () => set.delete(registered);
}

/**
 * Calls `listener` at every (re)connection: a push sent while the socket was away is lost, so a
 * screen reads again what it may have missed.
 */
export function onLiveConnect(listener: () => void): () => void {
  connectListeners.add(listener);
  return () => connectListeners.delete(listener);
}
