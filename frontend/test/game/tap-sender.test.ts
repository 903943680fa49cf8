import {
  gameEvents,
  TAP_BATCH_WINDOW_MS,
  TapBucket,
  type CompactTapAck,
  type TapBatch,
} from '@tapgram/shared';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { TapSender, type TapSenderOptions } from '../../src/features/game/taps/tap-sender';
import { ApiError } from '../../src/lib/api';
import { deferred, makeGameSession, makeGameUser, okAck, totalsOf } from './builders';
import { fakeSocket } from './fake-socket';

const user = makeGameUser({ id: 'u' });
const session = makeGameSession({ id: 's', userId: 'u' });

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

const sentBatches = (socket: ReturnType<typeof fakeSocket>) =>
  socket.emitWithAck.mock.calls.map((call) => call[1] as TapBatch);

function tapTimes(sender: TapSender, n: number, sessionId = 's') {
  for (let i = 0; i < n; i += 1) sender.tap('u', sessionId);
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('TapSender', () => {
  it('batches the taps of one window into one acknowledged message numbered 1', async () => {
    const socket = fakeSocket(true);
    socket.emitWithAck.mockResolvedValue(okAck(user, session, 3));
    const { sender, onSettled } = makeSender(socket);
    tapTimes(sender, 3);
    expect(sender.unconfirmed).toBe(3);
    expect(socket.emitWithAck).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(150);
    expect(socket.emitWithAck).toHaveBeenCalledTimes(1);
    expect(socket.emitWithAck).toHaveBeenCalledWith(gameEvents.tap, {
      sessionId: 's',
      count: 3,
      seq: 1,
      after: 0,
    });
    expect(onSettled).toHaveBeenCalledWith({
      userId: 'u',
      sessionId: 's',
      totals: totalsOf(user, session),
      accepted: 3,
      sent: 3,
    });
    expect(sender.unconfirmed).toBe(0);
  });

  it('says which waiting taps were sent when, through a reconnect and to the next page', async () => {
    const socket = fakeSocket(true);
    const answer = deferred<CompactTapAck>();
    socket.emitWithAck.mockReturnValue(answer.promise);
    const { sender } = makeSender(socket);
    tapTimes(sender, 3);
    expect(sender.waiting('s')).toEqual({ unconfirmed: 3, waitingHere: 3, sent: [] });
    await vi.advanceTimersByTimeAsync(150);
    const sentAt = Date.now();
    tapTimes(sender, 2);
    // On its way, the batch may be in figures the server reads now; the window's taps may not.
    expect(sender.waiting('s')).toEqual({
      unconfirmed: 5,
      waitingHere: 5,
      sent: [{ sessionId: 's', at: sentAt, count: 3 }],
    });
    // Lost with the connection, it keeps the time it first went, and the device keeps it too.
    socket.disconnect();
    await vi.advanceTimersByTimeAsync(1000);
    socket.reconnect();
    expect(sender.waiting('s').sent).toEqual([{ sessionId: 's', at: sentAt, count: 3 }]);
    const kept = sender.snapshot();
    sender.dispose();
    const next = makeSender(fakeSocket(false)).sender;
    next.restore(kept);
    // (The window's two taps were posted meanwhile, the socket being down, and counted.)
    expect(next.waiting('s')).toEqual({
      unconfirmed: 3,
      waitingHere: 3,
      sent: [{ sessionId: 's', at: sentAt, count: 3 }],
    });
    next.dispose();
  });

  it('gathers about a second of taps into one message, counting each tap at once', async () => {
    expect(TAP_BATCH_WINDOW_MS).toBe(1000);
    const socket = fakeSocket(true);
    socket.emitWithAck.mockResolvedValue(okAck(user, session, 3));
    const sender = new TapSender({
      socket: socket as unknown as TapSenderOptions['socket'],
      postTap: vi.fn(),
      onSettled: vi.fn(),
      onError: vi.fn(),
    });
    for (let i = 1; i <= 3; i += 1) {
      sender.tap('u', 's');
      expect(sender.unconfirmed).toBe(i);
      await vi.advanceTimersByTimeAsync(300);
    }
    // 900 ms after the first tap: still gathering.
    expect(socket.emitWithAck).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(TAP_BATCH_WINDOW_MS - 900);
    expect(sentBatches(socket)).toEqual([{ sessionId: 's', count: 3, seq: 1, after: 0 }]);
    expect(sender.unconfirmed).toBe(0);
    sender.dispose();
  });

  it('numbers the batches of a session 1, 2, 3 and starts again at 1 for a new session', async () => {
    const socket = fakeSocket(true);
    socket.emitWithAck.mockResolvedValue(okAck(user, session, 1));
    const { sender } = makeSender(socket);
    for (let i = 0; i < 3; i += 1) {
      sender.tap('u', 's');
      await vi.advanceTimersByTimeAsync(150);
    }
    sender.tap('u', 's2');
    await vi.advanceTimersByTimeAsync(150);
    expect(sentBatches(socket).map((b) => [b.sessionId, b.seq])).toEqual([
      ['s', 1],
      ['s', 2],
      ['s', 3],
      ['s2', 1],
    ]);
  });

  it('posts each tap over HTTP while the socket is down, counting those in flight', async () => {
    const socket = fakeSocket(false);
    const { sender, postTap, onSettled } = makeSender(socket);
    const answer = deferred<{ user: typeof user; session: typeof session }>();
    postTap.mockReturnValue(answer.promise);
    tapTimes(sender, 3);
    expect(sender.unconfirmed).toBe(3);
    answer.resolve({ user, session });
    await vi.runAllTimersAsync();
    expect(postTap).toHaveBeenCalledTimes(3);
    expect(socket.emitWithAck).not.toHaveBeenCalled();
    expect(onSettled).toHaveBeenCalledTimes(3);
    expect(sender.unconfirmed).toBe(0);
  });

  it('keeps an unanswered batch for the reconnect and re-sends it with the same seq', async () => {
    const socket = fakeSocket(true);
    socket.emitWithAck.mockImplementationOnce(() => {
      socket.connected = false;
      return Promise.reject(new Error('timeout'));
    });
    const { sender, onSettled } = makeSender(socket);
    tapTimes(sender, 2);
    await vi.advanceTimersByTimeAsync(150);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(socket.emitWithAck).toHaveBeenCalledTimes(1);
    expect(sender.unconfirmed).toBe(2);
    socket.emitWithAck.mockResolvedValueOnce(okAck(user, session, 2));
    socket.reconnect();
    await vi.runAllTimersAsync();
    const [first, second] = sentBatches(socket);
    expect(second).toEqual(first);
    expect(onSettled).toHaveBeenCalledWith({
      userId: 'u',
      sessionId: 's',
      totals: totalsOf(user, session),
      accepted: 2,
      sent: 2,
    });
    expect(sender.unconfirmed).toBe(0);
  });

  it('settles a batch once when both its buffered send and its re-send are answered', async () => {
    const socket = fakeSocket(true);
    const buffered = deferred<CompactTapAck>();
    const resent = deferred<CompactTapAck>();
    socket.emitWithAck.mockReturnValueOnce(buffered.promise).mockReturnValueOnce(resent.promise);
    const { sender, onSettled } = makeSender(socket);
    tapTimes(sender, 4);
    await vi.advanceTimersByTimeAsync(150);
    socket.reconnect();
    buffered.resolve(okAck(user, session, 4));
    resent.resolve(okAck(user, session, 4));
    await vi.runAllTimersAsync();
    expect(socket.emitWithAck).toHaveBeenCalledTimes(2);
    expect(onSettled).toHaveBeenCalledTimes(1);
    expect(sender.unconfirmed).toBe(0);
  });

  it('re-sends a batch unanswered while connected once, ignoring superseded timeouts', async () => {
    const socket = fakeSocket(true);
    const first = deferred<CompactTapAck>();
    const second = deferred<CompactTapAck>();
    socket.emitWithAck.mockReturnValueOnce(first.promise).mockReturnValueOnce(second.promise);
    const { sender } = makeSender(socket);
    sender.tap('u', 's');
    await vi.advanceTimersByTimeAsync(150);
    socket.reconnect();
    first.reject(new Error('operation has timed out'));
    second.reject(new Error('operation has timed out'));
    await vi.advanceTimersByTimeAsync(0);
    expect(sentBatches(socket)).toEqual([
      { sessionId: 's', count: 1, seq: 1, after: 0 },
      { sessionId: 's', count: 1, seq: 1, after: 0 },
      { sessionId: 's', count: 1, seq: 1, after: 0 },
    ]);
    expect(sender.unconfirmed).toBe(1);
  });

  it('reports a refused batch with its size', async () => {
    const socket = fakeSocket(true);
    socket.emitWithAck.mockResolvedValue({
      ok: false,
      status: 429,
      error: 'Tapping too fast: slow down a little',
    });
    const { sender, onError } = makeSender(socket);
    tapTimes(sender, 2);
    await vi.advanceTimersByTimeAsync(150);
    expect(onError).toHaveBeenCalledWith(expect.any(ApiError), 2);
    expect(onError.mock.calls[0][0]).toMatchObject({
      status: 429,
      message: 'Tapping too fast: slow down a little',
    });
    expect(sender.unconfirmed).toBe(0);
  });

  it('sends the pending window at once when the page is hidden', () => {
    const socket = fakeSocket(true);
    socket.emitWithAck.mockReturnValue(new Promise(() => undefined));
    const { sender } = makeSender(socket);
    tapTimes(sender, 2);
    const visibility = vi.spyOn(document, 'visibilityState', 'get').mockReturnValue('hidden');
    document.dispatchEvent(new Event('visibilitychange'));
    visibility.mockRestore();
    expect(sentBatches(socket)).toEqual([{ sessionId: 's', count: 2, seq: 1, after: 0 }]);
    expect(sender.unconfirmed).toBe(2);
  });

  it('sends the pending window at once when the page is being unloaded', () => {
    const socket = fakeSocket(true);
    socket.emitWithAck.mockReturnValue(new Promise(() => undefined));
    const { sender } = makeSender(socket);
    tapTimes(sender, 3);
    window.dispatchEvent(new Event('pagehide'));
    expect(sentBatches(socket)).toEqual([{ sessionId: 's', count: 3, seq: 1, after: 0 }]);
  });

  it('stops listening to the page once disposed', () => {
    const socket = fakeSocket(true);
    const { sender } = makeSender(socket);
    sender.tap('u', 's');
    sender.dispose();
    window.dispatchEvent(new Event('pagehide'));
    expect(socket.emitWithAck).not.toHaveBeenCalled();
  });
});

describe('TapSender and durability', () => {
  const answer = (numbers: { seq: number; durableSeq: number }) => okAck(user, session, 1, numbers);
  const tapBatches = (socket: ReturnType<typeof fakeSocket>) =>
    socket.emitWithAck.mock.calls
      .filter(([event]) => event === gameEvents.tap)
      .map((call) => call[1] as TapBatch);

  async function sendBatch(sender: TapSender) {
    sender.tap('u', 's');
    await vi.advanceTimersByTimeAsync(150);
  }

  it('sends answered batches that are not yet durable again after a reconnect, durable ones not', async () => {
    const socket = fakeSocket(true);
    socket.emitWithAck
      .mockResolvedValueOnce(answer({ seq: 1, durableSeq: 1 }))
      .mockResolvedValueOnce(answer({ seq: 2, durableSeq: 1 }));
    const { sender, onSettled } = makeSender(socket);
    await sendBatch(sender);
    await sendBatch(sender);
    expect(sender.notDurable).toBe(1);
    expect(sender.unconfirmed).toBe(0);

    socket.emitWithAck.mockResolvedValue(answer({ seq: 2, durableSeq: 2 }));
    socket.reconnect();
    await vi.advanceTimersByTimeAsync(0);
    expect(tapBatches(socket).slice(2)).toEqual([{ sessionId: 's', count: 1, seq: 2, after: 1 }]);
    expect(sender.notDurable).toBe(0);
    expect(sender.unconfirmed).toBe(0);
    // The re-sent batch was counted before: it is not reported as new taps.
    expect(onSettled).toHaveBeenLastCalledWith(expect.objectContaining({ sent: 0 }));
  });

  it('sends again, in order and before newer taps, the answered batches a server lost', async () => {
    const socket = fakeSocket(true);
    socket.emitWithAck
      .mockResolvedValueOnce(answer({ seq: 1, durableSeq: 1 }))
      .mockResolvedValueOnce(answer({ seq: 2, durableSeq: 1 }))
      .mockResolvedValueOnce(answer({ seq: 3, durableSeq: 1 }))
      .mockResolvedValueOnce({
        ok: false,
        status: 409,
        error: 'Some acknowledged taps were lost by the server: send them again',
        seq: 1,
        durableSeq: 1,
      })
      .mockResolvedValue(answer({ seq: 4, durableSeq: 1 }));
    const { sender, onError } = makeSender(socket);
    for (let i = 0; i < 4; i += 1) await sendBatch(sender);
    // Sent again one by one, each once the one before is counted.
    expect(tapBatches(socket)).toEqual([
      { sessionId: 's', count: 1, seq: 1, after: 0 },
      { sessionId: 's', count: 1, seq: 2, after: 1 },
      { sessionId: 's', count: 1, seq: 3, after: 2 },
      { sessionId: 's', count: 1, seq: 4, after: 3 },
      { sessionId: 's', count: 1, seq: 2, after: 1 },
      { sessionId: 's', count: 1, seq: 3, after: 2 },
      { sessionId: 's', count: 1, seq: 4, after: 3 },
    ]);
    expect(onError).not.toHaveBeenCalled();
    expect(sender.notDurable).toBe(3);
  });

  it('does not give up a lost batch the server refuses for a rate: it goes again later', async () => {
    const socket = fakeSocket(true);
    socket.emitWithAck
      .mockResolvedValueOnce(answer({ seq: 1, durableSeq: 0 }))
      .mockResolvedValueOnce({ ok: false, status: 409, error: 'lost', seq: 0, durableSeq: 0 })
      .mockResolvedValueOnce({ ok: false, status: 429, error: 'Tapping too fast' })
      .mockResolvedValueOnce(answer({ seq: 2, durableSeq: 0 }))
      .mockResolvedValueOnce(answer({ seq: 2, durableSeq: 2 }));
    const { sender, onError } = makeSender(socket);
    await sendBatch(sender);
    await sendBatch(sender);
    // Batch 2 waits: counted before 1, it would make 1 look like a re-send.
    expect(tapBatches(socket).map((b) => b.seq)).toEqual([1, 2, 1]);
    await vi.advanceTimersByTimeAsync(2000);
    expect(tapBatches(socket).map((b) => b.seq)).toEqual([1, 2, 1, 1, 2]);
    expect(onError).not.toHaveBeenCalled();
    expect(sender.notDurable).toBe(0);
  });

  it('asks how far its batches are once tapping stops, until they are durable', async () => {
    const socket = fakeSocket(true);
    socket.emitWithAck.mockResolvedValueOnce(answer({ seq: 1, durableSeq: 0 }));
    const { sender } = makeSender(socket);
    await sendBatch(sender);
    expect(sender.notDurable).toBe(1);
    socket.emitWithAck.mockResolvedValueOnce({ ok: true, seq: 1, durableSeq: 1 });
    await vi.advanceTimersByTimeAsync(2000);
    expect(socket.emitWithAck).toHaveBeenLastCalledWith(gameEvents.sync, { sessionId: 's' });
    expect(sender.notDurable).toBe(0);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(socket.emitWithAck).toHaveBeenCalledTimes(2);
  });

  it('sends its batches again when the server says its session stands below them', async () => {
    const socket = fakeSocket(true);
    socket.emitWithAck.mockResolvedValueOnce(answer({ seq: 1, durableSeq: 0 }));
    const { sender } = makeSender(socket);
    await sendBatch(sender);
    socket.emitWithAck
      .mockResolvedValueOnce({ ok: true, seq: 0, durableSeq: 0 })
      .mockResolvedValueOnce(answer({ seq: 1, durableSeq: 1 }));
    await vi.advanceTimersByTimeAsync(2000);
    expect(tapBatches(socket)).toEqual([
      { sessionId: 's', count: 1, seq: 1, after: 0 },
      { sessionId: 's', count: 1, seq: 1, after: 0 },
    ]);
    expect(sender.notDurable).toBe(0);
  });
});

describe('TapSender while the game is briefly unavailable', () => {
  const unavailable = {
    ok: false,
    status: 503,
    error: 'The game is briefly unavailable, try again in a moment',
  } as const;

  it('keeps the taps without an error and sends them, in order, when it serves again', async () => {
    const socket = fakeSocket(true);
    socket.emitWithAck.mockResolvedValue(unavailable);
    const onChange = vi.fn();
    const onError = vi.fn();
    const onSettled = vi.fn();
    const sender = new TapSender({
      socket: socket as unknown as TapSenderOptions['socket'],
      postTap: vi.fn(),
      onSettled,
      onError,
      onChange,
      windowMs: 150,
      retryMs: 1000,
    });
    tapTimes(sender, 2);
    await vi.advanceTimersByTimeAsync(150);
    expect(sender.unavailable).toBe(true);
    expect(onChange).toHaveBeenCalled();
    tapTimes(sender, 3);
    await vi.advanceTimersByTimeAsync(150);
    // Nothing more is sent while it is unavailable, and nothing is reported lost.
    expect(sentBatches(socket)).toHaveLength(1);
    expect(sender.unconfirmed).toBe(5);

    socket.emitWithAck.mockResolvedValue(okAck(user, session, 2));
    await vi.advanceTimersByTimeAsync(1000);
    expect(sender.unavailable).toBe(false);
    await vi.advanceTimersByTimeAsync(150);
    expect(sentBatches(socket)).toEqual([
      { sessionId: 's', count: 2, seq: 1, after: 0 },
      { sessionId: 's', count: 2, seq: 1, after: 0 },
      { sessionId: 's', count: 3, seq: 2, after: 0 },
    ]);
    expect(onError).not.toHaveBeenCalled();
    expect(onSettled).toHaveBeenCalledTimes(2);
    expect(sender.unconfirmed).toBe(0);
  });

  it('keeps a batch answered 504 (it may still count) and sends it again with its number', async () => {
    const socket = fakeSocket(true);
    socket.emitWithAck.mockResolvedValue({
      ok: false,
      status: 504,
      error: 'The game did not answer in time: the taps may still be counted',
    });
    const { sender, onError, onSettled } = makeSender(socket);
    tapTimes(sender, 2);
    await vi.advanceTimersByTimeAsync(150);
    expect(sender.unavailable).toBe(true);
    expect(sender.unconfirmed).toBe(2);
    socket.emitWithAck.mockResolvedValue(okAck(user, session, 2));
    await vi.advanceTimersByTimeAsync(2000);
    expect(sentBatches(socket)).toEqual([
      { sessionId: 's', count: 2, seq: 1, after: 0 },
      { sessionId: 's', count: 2, seq: 1, after: 0 },
    ]);
    expect(onError).not.toHaveBeenCalled();
    expect(onSettled).toHaveBeenCalledTimes(1);
    expect(sender.unconfirmed).toBe(0);
  });

  it('posts each tap with a key of its own, and a tap the game did not answer again with its key', async () => {
    const socket = fakeSocket(false);
    const { sender, postTap, onError, onSettled } = makeSender(socket);
    const noAnswer = 'The game did not answer in time: the taps may still be counted';
    postTap.mockRejectedValueOnce(new ApiError(504, { error: noAnswer }, noAnswer));
    tapTimes(sender, 2);
    await vi.advanceTimersByTimeAsync(2000);
    const keys = postTap.mock.calls.map((call) => (call as unknown[])[2]);
    expect(keys).toHaveLength(3);
    expect(keys[0]).toMatch(/^[A-Za-z0-9_-]{16,64}$/);
    expect(keys[1]).not.toBe(keys[0]);
    // The tap the game did not answer goes again with its own key: the server counts it once.
    expect(keys[2]).toBe(keys[0]);
    expect(onError).not.toHaveBeenCalled();
    expect(onSettled).toHaveBeenCalledTimes(2);
    expect(sender.unconfirmed).toBe(0);
  });

  it('keeps a tap the per-tap call was refused with 503 and posts it again later', async () => {
    const socket = fakeSocket(false);
    const { sender, postTap, onError, onSettled } = makeSender(socket);
    postTap.mockRejectedValueOnce(
      new ApiError(503, { error: unavailable.error }, unavailable.error),
    );
    sender.tap('u', 's');
    await vi.advanceTimersByTimeAsync(0);
    expect(sender.unavailable).toBe(true);
    expect(sender.unconfirmed).toBe(1);
    await vi.advanceTimersByTimeAsync(2000);
    expect(postTap).toHaveBeenCalledTimes(2);
    expect(onSettled).toHaveBeenCalledTimes(1);
    expect(onError).not.toHaveBeenCalled();
    expect(sender.unavailable).toBe(false);
    expect(sender.unconfirmed).toBe(0);
  });
});

describe('TapSender for a frozen player', () => {
  it('once stopped, drops the kept taps and sends no more', async () => {
    const socket = fakeSocket(true);
    socket.emitWithAck.mockResolvedValue(okAck(user, session, 2));
    const { sender, postTap } = makeSender(socket);
    tapTimes(sender, 2);
    sender.stop();
    expect(sender.unconfirmed).toBe(0);
    tapTimes(sender, 3);
    socket.connected = false;
    tapTimes(sender, 1);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(socket.emitWithAck).not.toHaveBeenCalled();
    expect(postTap).not.toHaveBeenCalled();
    expect(sender.unconfirmed).toBe(0);
  });
});

describe('TapSender and the tap allowance', () => {
  const unavailable = {
    ok: false,
    status: 503,
    error: 'The game is briefly unavailable, try again in a moment',
  } as const;
  const tooFast = (retryAfterMs?: number) => ({
    ok: false as const,
    status: 429,
    error: 'Tapping too fast: slow down a little',
    ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
  });

  /** A game channel that counts as the server does: down when told, and within the allowance. */
  function allowanceServer(allowance: { perSecond: number; burst: number }) {
    const socket = fakeSocket(true);
    const server = { down: false, bucket: new TapBucket(allowance), counted: 0, refused: 0 };
    socket.emitWithAck.mockImplementation(async (_event, payload) => {
      const { count } = payload as TapBatch;
      if (server.down) return unavailable;
      if (!server.bucket.take(count)) {
        server.refused += count;
        const wait = server.bucket.msUntil(count);
        return tooFast(Number.isFinite(wait) ? wait : undefined);
      }
      server.counted += count;
      return okAck(user, session, count);
    });
    return { socket, server, announce: () => socket.push(gameEvents.allowance, allowance) };
  }

  /** A sender on `socket`, which then announces the allowance, as a server does on connection. */
  function makePacedSender(socket: ReturnType<typeof fakeSocket>, announce: () => void = () => {}) {
    const onError = vi.fn();
    const sender = new TapSender({
      socket: socket as unknown as TapSenderOptions['socket'],
      postTap: vi.fn(),
      onSettled: vi.fn(),
      onError,
    });
    announce();
    return { sender, onError };
  }

  /** Taps ten times a second for `seconds`. */
  async function tapFor(sender: TapSender, seconds: number) {
    for (let i = 0; i < seconds * 10; i += 1) {
      sender.tap('u', 's');
      await vi.advanceTimersByTimeAsync(100);
    }
  }

  it('sends taps kept through an outage in batches the allowance holds, as it refills', async () => {
    const { socket, server, announce } = allowanceServer({ perSecond: 20, burst: 40 });
    const { sender, onError } = makePacedSender(socket, announce);
    await tapFor(sender, 2);
    server.down = true;
    await tapFor(sender, 8);
    expect(sender.unavailable).toBe(true);
    expect(sender.unconfirmed).toBeGreaterThan(40);
    server.down = false;
    await tapFor(sender, 5);
    await vi.advanceTimersByTimeAsync(10_000);

    expect(server.counted).toBe(150);
    expect(server.refused).toBe(0);
    expect(onError).not.toHaveBeenCalled();
    expect(sender.unconfirmed).toBe(0);
    expect(Math.max(...sentBatches(socket).map((b) => b.count))).toBeLessThanOrEqual(40);
  });

  it('follows the allowance the server announces', async () => {
    const { socket, server, announce } = allowanceServer({ perSecond: 5, burst: 10 });
    const { sender } = makePacedSender(socket, announce);
    for (let i = 0; i < 30; i += 1) sender.tap('u', 's');
    // The burst of 10, less a tenth of a second's refill left for the clocks' difference; then
    // a second's refill each window.
    await vi.advanceTimersByTimeAsync(1000);
    expect(sentBatches(socket).map((b) => b.count)).toEqual([9]);
    await vi.advanceTimersByTimeAsync(4000);
    expect(sentBatches(socket).map((b) => b.count)).toEqual([9, 5, 5, 5, 5]);
    expect(server.refused).toBe(0);
  });

  it('keeps a batch refused for the rate and sends it again when the server says it fits', async () => {
    const socket = fakeSocket(true);
    socket.emitWithAck
      .mockResolvedValueOnce(tooFast(700))
      .mockResolvedValue(okAck(user, session, 3));
    const { sender, onError } = makePacedSender(socket);
    for (let i = 0; i < 3; i += 1) sender.tap('u', 's');
    await vi.advanceTimersByTimeAsync(1000);
    expect(sender.unconfirmed).toBe(3);
    await vi.advanceTimersByTimeAsync(699);
    expect(sentBatches(socket)).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(sentBatches(socket)).toEqual([
      { sessionId: 's', count: 3, seq: 1, after: 0 },
      { sessionId: 's', count: 3, seq: 1, after: 0 },
    ]);
    expect(onError).not.toHaveBeenCalled();
    expect(sender.unconfirmed).toBe(0);
  });

  it('sends a session one batch at a time: the next once the one before is answered', async () => {
    const socket = fakeSocket(true);
    const first = deferred<CompactTapAck>();
    socket.emitWithAck
      .mockReturnValueOnce(first.promise)
      .mockResolvedValue(okAck(user, session, 2));
    const { sender } = makePacedSender(socket);
    sender.tap('u', 's');
    await vi.advanceTimersByTimeAsync(1000);
    tapTimes(sender, 2);
    await vi.advanceTimersByTimeAsync(3000);
    expect(sentBatches(socket).map((b) => b.seq)).toEqual([1]);
    first.resolve(okAck(user, session, 1));
    await vi.advanceTimersByTimeAsync(0);
    expect(sentBatches(socket).map((b) => [b.seq, b.count])).toEqual([
      [1, 1],
      [2, 2],
    ]);
  });

  it('posts taps as the allowance holds them while the socket is down, and again with their key after a 429', async () => {
    const socket = fakeSocket(false);
    const { sender, postTap, onError } = makeSender(socket);
    socket.push(gameEvents.allowance, { perSecond: 10, burst: 4 });
    postTap.mockRejectedValueOnce(
      new ApiError(429, { error: 'Tapping too fast: slow down a little' }, 'too fast', 1000),
    );
    tapTimes(sender, 6);
    await vi.advanceTimersByTimeAsync(0);
    expect(postTap).toHaveBeenCalledTimes(4);
    // The refused tap goes again, with its key, once the server's allowance holds it (the
    // server's word for its bucket holds back the others too); then the others, as it refills.
    await vi.advanceTimersByTimeAsync(999);
    expect(postTap).toHaveBeenCalledTimes(4);
    await vi.advanceTimersByTimeAsync(1);
    const keys = () => postTap.mock.calls.map((call) => (call as unknown[])[2]);
    expect(keys()).toHaveLength(5);
    expect(keys()[4]).toBe(keys()[0]);
    await vi.advanceTimersByTimeAsync(200);
    expect(new Set(keys()).size).toBe(6);
    expect(onError).not.toHaveBeenCalled();
    expect(sender.unconfirmed).toBe(0);
  });
});
