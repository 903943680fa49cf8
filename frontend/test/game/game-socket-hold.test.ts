import { describe, expect, it, vi } from 'vitest';
import { gameSocket, holdGameSocket } from '../../src/features/game/game-socket';
import { whenIdle } from '../../src/lib/when-idle';
import { fakeSocket } from './fake-socket';

const io = vi.hoisted(() => vi.fn());
vi.mock('socket.io-client', () => ({ io }));
io.mockImplementation(() => fakeSocket(false));

/**
 * Resolves once idle work asked for before it has run: the channel's own opening, asked for when
 * it was first read (idle callbacks run in the order they were asked for).
 */
const idle = () => new Promise<void>((resolve) => whenIdle(resolve));

describe("the game channel held by a first visit's welcome", () => {
  it('does not load its client while held, even once the page is idle, and opens when released', async () => {
    holdGameSocket(true);
    const channel = gameSocket();
    await idle();
    // The client's module, imported after the channel would have imported it to open.
    await import('socket.io-client');
    expect(io).not.toHaveBeenCalled();
    // The player made connects it at once, held or not (usePlayer).
    holdGameSocket(false);
    await vi.waitFor(() => expect(io).toHaveBeenCalledTimes(1));
    expect(channel).toBe(gameSocket());
  });
});
