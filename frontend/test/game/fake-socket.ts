import { vi } from 'vitest';

type Handler = (...args: never[]) => void;

/**
 * Stands in for the game channel's socket.io client: the test decides whether it is connected,
 * answers `emitWithAck`, and pushes server events.
 */
export function fakeSocket(connected: boolean) {
  const handlers = new Map<string, Set<Handler>>();
  const emitWithAck = vi.fn<(event: string, payload: unknown) => Promise<unknown>>(
    () => new Promise(() => undefined),
  );
  const fire = (event: string, ...args: unknown[]) => {
    for (const handler of handlers.get(event) ?? [])
      (handler as (...a: unknown[]) => void)(...args);
  };
  const socket = {
    connected,
    emitWithAck,
    on(event: string, handler: Handler) {
      if (!handlers.has(event)) handlers.set(event, new Set());
      handlers.get(event)?.add(handler);
      return socket;
    },
    off(event: string, handler: Handler) {
      handlers.get(event)?.delete(handler);
      return socket;
    },
    timeout: () => ({ emitWithAck }),
    connect() {
      socket.connected = true;
      fire('connect');
      return socket;
    },
    disconnect() {
      socket.connected = false;
      fire('disconnect');
      return socket;
    },
    /** The connection dropped and came back. */
    reconnect() {
      socket.connected = true;
      fire('connect');
    },
    /** A server push. */
    push: (event: string, payload: unknown) => fire(event, payload),
  };
  return socket;
}

export type FakeSocket = ReturnType<typeof fakeSocket>;
