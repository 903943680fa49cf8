import type { LiveEventName, LiveEvents } from '@tapgram/shared';
import { setLiveConnector, type LiveSocket } from '../../src/features/auth/live-client';
import { checkLivePush } from '../socket-answers';

type Listener = (...args: unknown[]) => void;

/**
 * Stands in for the live channel's socket: the test opens it, refuses it, ends it as the server
 * does, and pushes; what the client asked of it is counted.
 */
export function fakeLiveSocket() {
  const listeners = new Map<string, Set<Listener>>();
  const any = new Set<(event: string, payload: unknown) => void>();
  const fire = (event: string, ...args: unknown[]) => {
    for (const listener of listeners.get(event) ?? []) listener(...args);
  };
  const socket = {
    connected: false,
    active: false,
    /** How often the client asked to connect, and to disconnect. */
    connects: 0,
    disconnects: 0,
    on(event: string, listener: (...args: never[]) => void) {
      if (!listeners.has(event)) listeners.set(event, new Set());
      listeners.get(event)?.add(listener as Listener);
      return socket;
    },
    onAny(listener: (event: string, payload: unknown) => void) {
      any.add(listener);
      return socket;
    },
    connect() {
      socket.connects += 1;
      socket.active = true;
      return socket;
    },
    disconnect() {
      socket.disconnects += 1;
      socket.connected = false;
      socket.active = false;
      return socket;
    },
    /** The handshake succeeded (or a dropped connection came back). */
    open() {
      socket.connected = true;
      fire('connect');
    },
    /** The server refused the handshake: Socket.IO does not try again by itself. */
    refuse() {
      socket.active = false;
      fire('connect_error', new Error('Not signed in'));
    },
    /** The server ended the socket (its session expired or signed out). */
    end() {
      socket.connected = false;
      socket.active = false;
      fire('disconnect', 'io server disconnect');
    },
    push<K extends LiveEventName>(event: K, payload: LiveEvents[K]) {
      checkLivePush(event, payload);
      for (const listener of any) listener(event, payload);
    },
  };
  return socket satisfies LiveSocket;
}

export type FakeLiveSocket = ReturnType<typeof fakeLiveSocket>;

/** Makes the live client open fake sockets; answers the ones it opened, in order. */
export function fakeLiveSockets(): FakeLiveSocket[] {
  const opened: FakeLiveSocket[] = [];
  setLiveConnector(async () => {
    const socket = fakeLiveSocket();
    opened.push(socket);
    return socket;
  });
  return opened;
}
