import { vi } from 'vitest';
import { checkedSocketAnswer, checkPush } from '../socket-answers';

type Handler = (...args: never[]) => void;

/**
 * Stands in for the game channel's socket.io client: the test decides whether it is connected,
 * answers `emitWithAck`, and pushes server events. Answers and pushes are checked against the
 * shared schemas of their events, as the game screen's handshake asks for them (compact).
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
  const checkedEmitWithAck = (event: string, payload: unknown) =>
    emitWithAck(event, payload).then((answer) => checkedSocketAnswer(event, answer));
  const socket = {
    connected,
    emitWithAck,
    /** Messages without an answer (`watch`). */
    emit: vi.fn<(event: string, payload: unknown) => void>(),
    on(event: string, handler: Handler) {
      if (!handlers.has(event)) handlers.set(event, new Set());
      handlers.get(event)?.add(handler);
      return socket;
    },
    off(event: string, handler: Handler) {
      handlers.get(event)?.delete(handler);
      return socket;
    },
    listenerCount: (event: string) => handlers.get(event)?.size ?? 0,
    timeout: () => ({ emitWithAck: checkedEmitWithAck }),
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
    push: (event: string, payload: unknown) => {
      checkPush(event, payload);
      fire(event, payload);
    },
  };
  return socket;
}

export type FakeSocket = ReturnType<typeof fakeSocket>;
