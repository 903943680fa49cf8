import { gameEvents } from '@tapgram/shared';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LazySocket, type GameSocket } from '../../src/features/game/lazy-socket';
import { fakeSocket, type FakeSocket } from './fake-socket';

/** A LazySocket whose client code loads when the test says so. */
function lazy() {
  let loaded!: (socket: FakeSocket) => void;
  let failed!: (error: Error) => void;
  const load = vi.fn(
    () =>
      new Promise<GameSocket>((resolve, reject) => {
        loaded = (socket) => resolve(socket as unknown as GameSocket);
        failed = reject;
      }),
  );
  const channel = new LazySocket(load);
  return { channel, load, loaded: (s: FakeSocket) => loaded(s), failed: (e: Error) => failed(e) };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('the game channel before its client has loaded', () => {
  it('is not connected, and registers the listeners screens add meanwhile once it exists', async () => {
    const { channel, load, loaded } = lazy();
    const onConnect = vi.fn();
    const removed = vi.fn();
    channel.on('connect', onConnect).on('connect', removed).off('connect', removed);
    expect(channel.connected).toBe(false);
    expect(load).not.toHaveBeenCalled();

    const opening = channel.open();
    const socket = fakeSocket(false);
    loaded(socket);
    await opening;
    expect(socket.listenerCount('connect')).toBe(1);
    socket.connect();
    expect(onConnect).toHaveBeenCalledTimes(1);
    expect(removed).not.toHaveBeenCalled();
    expect(channel.connected).toBe(true);

    // Once it exists, the channel is the socket.
    channel.off('connect', onConnect);
    expect(socket.listenerCount('connect')).toBe(0);
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('sends the messages asked for meanwhile, in their order, once it exists', async () => {
    const { channel, load, loaded } = lazy();
    channel.emit('one', 1).emit('two', 2);
    expect(load).toHaveBeenCalledTimes(1);
    const socket = fakeSocket(false);
    loaded(socket);
    await channel.open();
    expect(socket.emit.mock.calls).toEqual([
      ['one', 1],
      ['two', 2],
    ]);
  });

  it('answers a message awaiting an answer once it exists', async () => {
    const { channel, loaded } = lazy();
    const answer = channel.timeout(5000).emitWithAck(gameEvents.sync, { sessionId: 's' });
    const socket = fakeSocket(true);
    const unavailable = { ok: false, status: 503, error: 'Game unavailable' };
    socket.emitWithAck.mockResolvedValue(unavailable);
    loaded(socket);
    await expect(answer).resolves.toEqual(unavailable);
    expect(socket.emitWithAck).toHaveBeenCalledWith(gameEvents.sync, { sessionId: 's' });
  });

  it('times a message out from when it was asked, and then never sends it', async () => {
    vi.useFakeTimers();
    const { channel, loaded } = lazy();
    const answer = channel.timeout(5000).emitWithAck(gameEvents.tap, { taps: 3 });
    const rejected = expect(answer).rejects.toThrow('operation has timed out');
    await vi.advanceTimersByTimeAsync(5000);
    await rejected;
    const socket = fakeSocket(true);
    loaded(socket);
    await channel.open();
    expect(socket.emitWithAck).not.toHaveBeenCalled();
  });

  it('loads again a while after its code failed to load (the network dropped)', async () => {
    vi.useFakeTimers();
    const { channel, load, failed, loaded } = lazy();
    const onConnect = vi.fn();
    channel.on('connect', onConnect);
    const first = channel.open();
    failed(new Error('Failed to fetch dynamically imported module'));
    await expect(first).rejects.toThrow('Failed to fetch');
    expect(load).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(5000);
    expect(load).toHaveBeenCalledTimes(2);
    const socket = fakeSocket(false);
    loaded(socket);
    await channel.open();
    socket.connect();
    expect(onConnect).toHaveBeenCalledTimes(1);
  });

  it('opens at once when asked to connect, and has nothing to close before', async () => {
    const { channel, load, loaded } = lazy();
    channel.disconnect();
    expect(load).not.toHaveBeenCalled();
    channel.disconnect().connect();
    expect(load).toHaveBeenCalledTimes(1);
    const socket = fakeSocket(false);
    loaded(socket);
    await channel.open();
    channel.disconnect().connect();
    expect(socket.connected).toBe(true);
  });
});
