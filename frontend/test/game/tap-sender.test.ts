import { gameEvents, type GameSession, type GameUser } from '@tapgram/shared';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { TapSender, type TapSenderOptions } from '../../src/features/game/tap-sender';

const user: GameUser = { id: 'u', username: 'tapper', country: 'GB', totalPoints: 0, totalTaps: 0 };
const session: GameSession = { id: 's', userId: 'u', sessionPoints: 0, sessionTaps: 0 };

function fakeSocket(connected: boolean) {
  const handlers = new Map<string, () => void>();
  const emitWithAck = vi.fn();
  return {
    connected,
    emitWithAck,
    on: (event: string, handler: () => void) => handlers.set(event, handler),
    off: (event: string) => handlers.delete(event),
    timeout: () => ({ emitWithAck }),
    fire: (event: string) => handlers.get(event)?.(),
  };
}

function makeSender(socket: ReturnType<typeof fakeSocket>) {
  const onSettled = vi.fn();
  const onError = vi.fn();
  const postTap = vi.fn(async () => ({ user, session }));
  const sender = new TapSender({
    socket: socket as unknown as TapSenderOptions['socket'],
    postTap,
    onSettled,
    onError,
    windowMs: 150,
  });
  return { sender, onSettled, onError, postTap };
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('TapSender', () => {
  it('batches the taps of one window into one acknowledged message', async () => {
    const socket = fakeSocket(true);
    socket.emitWithAck.mockResolvedValue({ ok: true, accepted: 3, user, session });
    const { sender, onSettled } = makeSender(socket);
    sender.tap('u', 's');
    sender.tap('u', 's');
    sender.tap('u', 's');
    expect(sender.unconfirmed).toBe(3);
    expect(socket.emitWithAck).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(150);
    expect(socket.emitWithAck).toHaveBeenCalledTimes(1);
    expect(socket.emitWithAck).toHaveBeenCalledWith(gameEvents.tap, {
      sessionId: 's',
      count: 3,
      batchId: expect.stringMatching(/^[0-9a-f-]{36}$/),
    });
    expect(onSettled).toHaveBeenCalledWith({ user, session, accepted: 3, sent: 3 });
    expect(sender.unconfirmed).toBe(0);
  });

  it('posts each tap over HTTP while the socket is down', async () => {
    const socket = fakeSocket(false);
    const { sender, postTap, onSettled } = makeSender(socket);
    sender.tap('u', 's');
    sender.tap('u', 's');
    sender.tap('u', 's');
    await vi.runAllTimersAsync();
    expect(postTap).toHaveBeenCalledTimes(3);
    expect(socket.emitWithAck).not.toHaveBeenCalled();
    expect(onSettled).toHaveBeenCalledTimes(3);
  });

  it('re-sends an unanswered batch with the same id when the socket reconnects', async () => {
    const socket = fakeSocket(true);
    socket.emitWithAck.mockImplementationOnce(() => {
      socket.connected = false;
      return Promise.reject(new Error('timeout'));
    });
    const { sender, onSettled } = makeSender(socket);
    sender.tap('u', 's');
    await vi.advanceTimersByTimeAsync(150);
    expect(socket.emitWithAck).toHaveBeenCalledTimes(1);
    expect(sender.unconfirmed).toBe(1);
    socket.emitWithAck.mockResolvedValueOnce({ ok: true, accepted: 1, user, session });
    socket.connected = true;
    socket.fire('connect');
    await vi.runAllTimersAsync();
    const [first, second] = socket.emitWithAck.mock.calls.map(
      (call) => call[1] as { batchId: string },
    );
    expect(second.batchId).toBe(first.batchId);
    expect(onSettled).toHaveBeenCalledWith({ user, session, accepted: 1, sent: 1 });
    expect(sender.unconfirmed).toBe(0);
  });

  it('reports a refused batch with its size', async () => {
    const socket = fakeSocket(true);
    socket.emitWithAck.mockResolvedValue({
      ok: false,
      status: 429,
      error: 'Tapping too fast: slow down a little',
    });
    const { sender, onError } = makeSender(socket);
    sender.tap('u', 's');
    sender.tap('u', 's');
    await vi.advanceTimersByTimeAsync(150);
    expect(onError).toHaveBeenCalledWith(
      expect.objectContaining({ message: expect.stringMatching(/^429: /) }),
      2,
    );
  });
});
