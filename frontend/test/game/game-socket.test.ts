import { act, renderHook } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import {
  gameSocket,
  openGameSocket,
  useSocketConnected,
  useSocketReconnecting,
} from '../../src/features/game/game-socket';
import { fakeSocket } from './fake-socket';

const socket = fakeSocket(false);
const io = vi.hoisted(() => vi.fn());
vi.mock('socket.io-client', () => ({ io }));
io.mockImplementation(() => socket);

describe('the game channel of a page', () => {
  it('loads its client once the page is idle, not while a screen first reads it', async () => {
    const channel = gameSocket();
    expect(io).not.toHaveBeenCalled();
    expect(channel.connected).toBe(false);
    await vi.waitFor(() => expect(io).toHaveBeenCalledTimes(1));
  });

  it('is connecting before it first opens, reconnecting once it has dropped', async () => {
    const connected = renderHook(() => useSocketConnected());
    const reconnecting = renderHook(() => useSocketReconnecting());
    await act(() => openGameSocket());
    expect([connected.result.current, reconnecting.result.current]).toEqual([false, false]);
    act(() => {
      socket.connect();
    });
    expect([connected.result.current, reconnecting.result.current]).toEqual([true, false]);
    act(() => {
      socket.disconnect();
    });
    expect([connected.result.current, reconnecting.result.current]).toEqual([false, true]);
  });

  it('is one socket with one listener of its own however often a screen reads it', async () => {
    await openGameSocket();
    const before = socket.listenerCount('connect');
    const first = gameSocket();
    for (let i = 0; i < 50; i += 1) expect(gameSocket()).toBe(first);
    expect(socket.listenerCount('connect')).toBe(before);
    expect(io).toHaveBeenCalledTimes(1);
  });
});
