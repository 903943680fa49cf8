import { TapBucket, type TapBatch } from '@tapgram/shared';
import { act, render, screen } from '@testing-library/react';
import { createElement } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { EnergyGauge } from '../../src/features/game/EnergyGauge';
import {
  emptyKept,
  KeptTapsWriter,
  mergeKept,
  waitingIn,
  type KeptTaps,
  type KeptTapsStorage,
} from '../../src/features/game/taps/kept-taps';
import { TapBatches, type TapBatchesOptions } from '../../src/features/game/taps/tap-batches';
import { ApiError } from '../../src/lib/api';
import { makeGameSession, makeGameUser, okAck } from './builders';
import { fakeSocket, type FakeSocket } from './fake-socket';

const user = makeGameUser({ id: 'u' });
const session = makeGameSession({ id: 's', userId: 'u' });
const WINDOW = 100;

function makeBatches(socket: FakeSocket, postTap: TapBatchesOptions['postTap'] = vi.fn()) {
  const onError = vi.fn();
  const onKeep = vi.fn();
  const batches = new TapBatches({
    socket: socket as unknown as TapBatchesOptions['socket'],
    postTap,
    onSettled: vi.fn(),
    onError,
    onKeep,
    windowMs: WINDOW,
    retryMs: 1000,
  });
  return { batches, onError, onKeep };
}

const sent = (socket: FakeSocket) =>
  socket.emitWithAck.mock.calls.map((call) => call[1] as TapBatch);

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('what the device keeps of the taps', () => {
  it('keeps counted-on-screen taps, then their numbered batch until it is answered and durable', async () => {
    const socket = fakeSocket(true);
    const { batches, onKeep } = makeBatches(socket);
    for (let i = 0; i < 3; i += 1) batches.tap('u', 's');
    expect(onKeep).toHaveBeenCalled();
    expect(batches.snapshot()).toMatchObject({ loose: [{ sessionId: 's', count: 3 }] });
    await vi.advanceTimersByTimeAsync(WINDOW);
    // On its way, unanswered: kept with its number.
    expect(batches.snapshot()).toMatchObject({
      batches: [{ userId: 'u', sessionId: 's', seq: 1, count: 3, answered: false }],
      loose: [],
      last: { s: 1 },
    });
    expect(waitingIn(batches.snapshot())).toBe(3);
  });

  it('drops a batch once the server says it is durable', async () => {
    const socket = fakeSocket(true);
    socket.emitWithAck.mockResolvedValue(okAck(user, session, 2));
    const { batches } = makeBatches(socket);
    batches.tap('u', 's');
    batches.tap('u', 's');
    await vi.advanceTimersByTimeAsync(WINDOW);
    expect(batches.snapshot().batches).toEqual([]);
    // The session's numbers stay, so that a page opened without a network numbers above them.
    expect(batches.snapshot().last).toEqual({ s: 1 });
  });

  it('sends what an earlier page kept first, each batch with its number, and numbers its loose taps above', async () => {
    const socket = fakeSocket(true);
    socket.emitWithAck.mockResolvedValue(okAck(user, session, 1));
    const { batches } = makeBatches(socket);
    const kept: KeptTaps = {
      batches: [
        { userId: 'u', sessionId: 'old', seq: 4, count: 5, answered: false },
        { userId: 'u', sessionId: 'old', seq: 3, count: 2, answered: true },
      ],
      loose: [{ userId: 'u', sessionId: 'old', count: 150 }],
      posts: [],
      last: { old: 4 },
    };
    batches.restore(kept);
    expect(batches.unconfirmed).toBe(155);
    await vi.advanceTimersByTimeAsync(20_000);
    const old = sent(socket).filter((b) => b.sessionId === 'old');
    expect(old.map((b) => [b.seq, b.count])).toEqual([
      [3, 2],
      [4, 5],
      [5, 40],
      [6, 40],
      [7, 40],
      [8, 30],
    ]);
  });

  it('takes a numbered batch found twice (two pages kept it) once', () => {
    const socket = fakeSocket(false);
    const { batches } = makeBatches(socket);
    const batch = { userId: 'u', sessionId: 'old', seq: 2, count: 5, answered: false };
    batches.restore({ ...emptyKept(), batches: [batch], last: { old: 2 } });
    batches.restore({ ...emptyKept(), batches: [batch], last: { old: 2 } });
    expect(batches.unconfirmed).toBe(5);
    expect(batches.snapshot().batches).toHaveLength(1);
  });

  it('keeps the taps of a post that never reached the server, says it is offline, no error', async () => {
    const socket = fakeSocket(false);
    const postTap = vi.fn<TapBatchesOptions['postTap']>(() =>
      Promise.reject(new TypeError('Failed to fetch')),
    );
    const onChange = vi.fn();
    const batches = new TapBatches({
      socket: socket as unknown as TapBatchesOptions['socket'],
      postTap,
      onSettled: vi.fn(),
      onError: vi.fn(),
      onChange,
      retryMs: 1000,
    });
    batches.tap('u', 's');
    await vi.advanceTimersByTimeAsync(0);
    expect(batches.offline).toBe(true);
    expect(batches.unavailable).toBe(true);
    for (let i = 0; i < 4; i += 1) batches.tap('u', 's');
    expect(batches.unconfirmed).toBe(5);
    expect(waitingIn(batches.snapshot())).toBe(5);
    // The posted tap keeps its key: posted again, it counts once.
    const [firstKey] = batches.snapshot().posts.map((p) => p.key);
    postTap.mockResolvedValue({ user, session });
    await vi.advanceTimersByTimeAsync(1000);
    expect(postTap.mock.calls[1][2]).toBe(firstKey);
    await vi.advanceTimersByTimeAsync(1000);
    expect(batches.offline).toBe(false);
    expect(onChange).toHaveBeenCalled();
  });

  it('goes offline when the browser says so, and asks again as soon as it is back', async () => {
    const socket = fakeSocket(true);
    const { batches } = makeBatches(socket);
    batches.networkLost();
    expect(batches.offline).toBe(true);
    batches.tap('u', 's');
    await vi.advanceTimersByTimeAsync(WINDOW);
    expect(socket.emitWithAck).not.toHaveBeenCalled();
    socket.emitWithAck.mockResolvedValue(okAck(user, session, 1));
    batches.networkBack();
    await vi.advanceTimersByTimeAsync(0);
    expect(sent(socket)).toEqual([{ sessionId: 's', count: 1, seq: 1, after: 0 }]);
    expect(batches.offline).toBe(false);
    expect(batches.unconfirmed).toBe(0);
  });

  it('drops what it keeps for a frozen player, for good', async () => {
    const socket = fakeSocket(true);
    socket.emitWithAck.mockResolvedValue({
      ok: false,
      status: 403,
      error: 'This player is frozen',
    });
    const { batches, onError } = makeBatches(socket);
    batches.tap('u', 's');
    await vi.advanceTimersByTimeAsync(WINDOW);
    expect(onError).toHaveBeenCalledWith(expect.any(ApiError), 1);
    batches.stop();
    expect(waitingIn(batches.snapshot())).toBe(0);
  });
});

describe('KeptTapsWriter', () => {
  function memoryStorage(adopted: KeptTaps = emptyKept()) {
    const writes: KeptTaps[] = [];
    let release: () => void = () => undefined;
    const storage: KeptTapsStorage = {
      adopt: () => Promise.resolve(adopted),
      write: (kept) => {
        writes.push(structuredClone(kept));
        return new Promise<void>((resolve) => {
          release = resolve;
        });
      },
      writeNow: (kept) => {
        writes.push(structuredClone(kept));
      },
    };
    return { storage, writes, release: () => release() };
  }

  it('writes nothing before it has adopted what earlier pages kept', async () => {
    const earlier = mergeKept([
      { ...emptyKept(), loose: [{ userId: 'u', sessionId: 'a', count: 2 }], last: { a: 1 } },
      { ...emptyKept(), loose: [{ userId: 'u', sessionId: 'a', count: 3 }], last: { a: 4 } },
    ]);
    const { storage, writes, release } = memoryStorage(earlier);
    let state = emptyKept();
    const writer = new KeptTapsWriter(storage, () => state);
    writer.changed();
    expect(writes).toEqual([]);
    const adopted = await writer.adopt();
    expect(waitingIn(adopted)).toBe(5);
    expect(adopted.last).toEqual({ a: 4 });
    // Then the page's newest state, one write at a time.
    expect(writes).toHaveLength(1);
    state = { ...emptyKept(), loose: [{ userId: 'u', sessionId: 'b', count: 1 }] };
    writer.changed();
    state = { ...emptyKept(), loose: [{ userId: 'u', sessionId: 'b', count: 2 }] };
    writer.changed();
    expect(writes).toHaveLength(1);
    release();
    await vi.waitFor(() => expect(writes).toHaveLength(2));
    expect(writes[1].loose[0].count).toBe(2);
    release();
    await writer.settled();
  });
});

describe('EnergyGauge', () => {
  it('shows the taps the allowance holds, as a meter, and says Empty when none is left', () => {
    let now = 1_000_000;
    const bucket = new TapBucket({ perSecond: 20, burst: 40 }, () => now);
    const view = render(createElement(EnergyGauge, { bucket, spent: 0 }));
    const meter = screen.getByRole('meter', { name: 'Tap energy' });
    expect(meter).toHaveAttribute('aria-valuemin', '0');
    expect(meter).toHaveAttribute('aria-valuemax', '40');
    expect(meter).toHaveAttribute('aria-valuenow', '40');
    expect(meter).toHaveAttribute('aria-valuetext', '40 of 40 taps');
    expect(bucket.take(40)).toBe(true);
    view.rerender(createElement(EnergyGauge, { bucket, spent: 40 }));
    expect(meter).toHaveAttribute('aria-valuenow', '0');
    expect(meter.getAttribute('aria-valuetext')).toMatch(/^Empty/);
    expect(screen.getByTestId('energy-gauge')).toHaveTextContent('Empty');
    // It refills as the server's allowance does: a tap each 50 ms.
    now += 500;
    act(() => {
      vi.advanceTimersByTime(100);
    });
    expect(meter).toHaveAttribute('aria-valuenow', '10');
    view.unmount();
  });
});
