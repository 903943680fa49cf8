import { act, renderHook } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import {
  gameSocket,
  useSocketConnected,
  useSocketReconnecting,
} from '../../src/features/game/game-socket';
import { fakeSocket } from './fake-socket';

const socket = fakeSocket(false);
vi.mock('socket.io-client', () => ({ io: () => socket }));

describe('the game channel of a page', () => {
  it('is connecting before it first opens, reconnecting once it has dropped', () => {
    const connected = renderHook(() => useSocketConnected());
    const reconnecting = renderHook(() => useSocketReconnecting());
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

  it('is one socket with one listener of its own however often a screen reads it', () => {
    const before = socket.listenerCount('connect');
    for (let i = 0; i < 50; i += 1) expect(gameSocket()).toBe(socket);
    expect(socket.listenerCount('connect')).toBe(before);
  });
});
