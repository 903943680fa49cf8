import { TAP_BATCH_WINDOW_MS, type TapBatch } from '@tapgram/shared';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { GamePage } from '../../src/features/game/GamePage';
import { gameStorage } from '../../src/features/game/storage';
import { dismiss } from '../../src/hooks/use-toast';
import { Providers } from '../../src/Providers';
import { makeGameSession, makeGameUser, makeLeaderboardUser, okAck } from './builders';
import { fakeSocket } from './fake-socket';
import { json, stubGameApi, type GameApi } from './game-api';
import { openGameSocket } from '../../src/features/game/game-socket';

const socket = fakeSocket(true);
vi.mock('socket.io-client', () => ({ io: () => socket }));

const FAILED = 'Failed to register tap. Please try again.';
// Past the window in which the game screen gathers taps into one batch.
const AFTER_WINDOW = TAP_BATCH_WINDOW_MS + 50;
let api: GameApi;

const advance = (ms: number) => act(() => vi.advanceTimersByTimeAsync(ms));
const tile = (label: string) => screen.getByTestId(`stat-${label}`);

function tap(times = 1) {
  const character = screen.getByTestId('tap-character');
  for (let i = 0; i < times; i += 1) {
    fireEvent.pointerDown(character);
    fireEvent.pointerUp(character);
  }
}

/** The game page of the stored player; `loaded`: waits until it shows the player's rank. */
async function renderGame({ loaded = true } = {}) {
  const server = stubGameApi(api);
  gameStorage.save(api.user.id, api.session.id);
  render(
    <MemoryRouter>
      <Providers>
        <GamePage />
      </Providers>
    </MemoryRouter>,
  );
  await advance(50);
  if (loaded) expect(tile('Rank')).toHaveTextContent(`#${api.rank}`);
  return server;
}

// The channel's client loads before the tests, so that the pages use the socket stubbed here.
beforeAll(() => openGameSocket());

beforeEach(() => {
  vi.useFakeTimers();
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
  socket.connected = true;
  socket.emitWithAck.mockReset();
  const user = makeGameUser({ totalPoints: 40, totalTaps: 40 });
  api = {
    user,
    session: makeGameSession({ userId: user.id }),
    rank: 5,
    users: [],
    countries: [],
  };
});

afterEach(async () => {
  await act(async () => {
    dismiss();
    await vi.advanceTimersByTimeAsync(1000);
  });
  cleanup();
  vi.useRealTimers();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
  localStorage.clear();
});

describe('a tap that is not counted', () => {
  it('shows the spec error toast for a refused batch, the counters not going back', async () => {
    socket.emitWithAck.mockResolvedValue({
      ok: false,
      status: 429,
      error: 'Tapping too fast: slow down a little',
    });
    await renderGame();
    tap(3);
    expect(tile('Session')).toHaveTextContent('3');
    await advance(AFTER_WINDOW);
    expect(screen.getByText('Error')).toBeInTheDocument();
    expect(screen.getByText(FAILED)).toBeInTheDocument();
    expect(screen.queryByText(/Tapping too fast/)).not.toBeInTheDocument();
    expect(console.error).toHaveBeenCalledWith('Tap failed', expect.any(Error));
    // What the player saw stays: the counters wait for the server's figures to pass them.
    expect(tile('Session')).toHaveTextContent(/^3$/);
    expect(tile('Total Taps')).toHaveTextContent(/^43$/);
  });

  it('shows the same toast when the per-tap call is refused while the socket is down', async () => {
    socket.connected = false;
    api.tap = () => json({ error: 'Tapping too fast: slow down a little' }, 429);
    await renderGame();
    tap();
    await advance(50);
    expect(screen.getByText(FAILED)).toBeInTheDocument();
    expect(tile('Session')).toHaveTextContent(/^1$/);
  });

  it('shows the toast when an answer accepts part of a batch, the counters not going back', async () => {
    await renderGame();
    const user = { ...api.user, totalPoints: 41, totalTaps: 41 };
    const session = { ...api.session, sessionPoints: 1, sessionTaps: 1 };
    socket.emitWithAck.mockResolvedValue(okAck(user, session, 1));
    tap(3);
    await advance(AFTER_WINDOW);
    expect(screen.getByText(FAILED)).toBeInTheDocument();
    expect(tile('Session')).toHaveTextContent(/^3$/);
    expect(tile('Total Taps')).toHaveTextContent(/^43$/);
    // The server's figures pass them again: the counters follow from there.
    const later = { ...user, totalPoints: 44, totalTaps: 44 };
    socket.emitWithAck.mockResolvedValue(
      okAck(later, { ...session, sessionPoints: 4, sessionTaps: 4 }, 3),
    );
    tap(3);
    await advance(AFTER_WINDOW);
    expect(tile('Session')).toHaveTextContent(/^4$/);
    expect(tile('Total Taps')).toHaveTextContent(/^44$/);
  });
});

describe('what the game screen sends', () => {
  it('opens its session and posts a tap without the counts the server ignores', async () => {
    socket.connected = false;
    const server = await renderGame();
    tap();
    await advance(50);
    expect(server.bodies('POST', '/api/sessions')).toEqual([{ userId: api.user.id }]);
    expect(server.bodies('POST', '/api/tap')).toEqual([
      { userId: api.user.id, sessionId: api.session.id, pointsPerTap: 1 },
    ]);
    // A key names the tap: posted again, it counts once.
    expect(server.headers('POST', '/api/tap')).toEqual([
      expect.objectContaining({ 'idempotency-key': expect.stringMatching(/^[0-9a-f]{32}$/) }),
    ]);
  });
});

describe('refreshing after taps', () => {
  it('refreshes the rank once more at the end of a burst', async () => {
    socket.emitWithAck.mockImplementation(async () => okAck(api.user, api.session, 1));
    await renderGame();
    tap();
    await advance(AFTER_WINDOW);
    api.rank = 2;
    tap();
    await advance(AFTER_WINDOW);
    await advance(1000);
    expect(tile('Rank')).toHaveTextContent('#2');
  });

  it('refreshes the leaderboards once more at the end of a burst while the socket is down', async () => {
    socket.connected = false;
    await renderGame();
    expect(screen.getByText('No players yet!')).toBeInTheDocument();
    tap();
    await advance(50);
    api.seasonUsers = [
      { ...makeLeaderboardUser({ id: api.user.id, username: 'tapper', totalPoints: 42 }), rank: 1 },
    ];
    tap();
    await advance(50);
    await advance(1000);
    expect(screen.getByText('tapper')).toBeInTheDocument();
  });
});

describe('while the game is briefly unavailable', () => {
  const UNAVAILABLE = {
    ok: false,
    status: 503,
    error: 'The game is briefly unavailable, try again in a moment',
  } as const;
  const status = () => screen.queryByTestId('game-reconnecting');

  it('shows one calm reconnecting status instead of error toasts, keeps the taps and sends them when it is back', async () => {
    socket.emitWithAck.mockResolvedValue(UNAVAILABLE);
    await renderGame();
    expect(status()).not.toBeInTheDocument();
    tap(2);
    await advance(AFTER_WINDOW);
    tap(3);
    await advance(AFTER_WINDOW);
    expect(status()).toHaveTextContent('Reconnecting');
    expect(status()).toHaveAttribute('role', 'status');
    expect(screen.queryByText(FAILED)).not.toBeInTheDocument();
    expect(tile('Session')).toHaveTextContent('5');

    // Each batch's answer carries the totals with that batch counted, as the server's do.
    let counted = 0;
    socket.emitWithAck.mockImplementation(async (_event, payload) => {
      counted += (payload as TapBatch).count;
      const user = { ...api.user, totalPoints: 40 + counted, totalTaps: 40 + counted };
      const session = { ...api.session, sessionPoints: counted, sessionTaps: counted };
      return okAck(user, session, (payload as TapBatch).count);
    });
    await advance(2000);
    await advance(AFTER_WINDOW);
    expect(status()).not.toBeInTheDocument();
    expect(screen.queryByText(FAILED)).not.toBeInTheDocument();
    expect(tile('Session')).toHaveTextContent('5');
    expect(tile('Total Taps')).toHaveTextContent('45');
  });
});

describe('a frozen player', () => {
  const FROZEN = { ok: false, status: 403, error: 'This player is frozen' } as const;
  const banner = () => screen.queryByTestId('game-frozen');

  it('says the player is frozen, for good, and stops sending taps', async () => {
    socket.emitWithAck.mockResolvedValue(FROZEN);
    await renderGame();
    expect(banner()).not.toBeInTheDocument();
    tap(3);
    await advance(AFTER_WINDOW);

    expect(banner()).toHaveAttribute('role', 'alert');
    expect(banner()).toHaveTextContent('This player is frozen');
    expect(banner()).toHaveTextContent('Your taps are not counted');
    // Off the boards: no rank is shown for them.
    expect(tile('Rank')).toHaveTextContent(/^—$/);
    expect(screen.queryByText(FAILED)).not.toBeInTheDocument();
    expect(tile('Session')).toHaveTextContent('0');
    expect(socket.emitWithAck).toHaveBeenCalledTimes(1);

    // Later taps are not sent, not counted on the screen, and the notice stays.
    tap(5);
    await advance(AFTER_WINDOW);
    await advance(10_000);
    expect(socket.emitWithAck).toHaveBeenCalledTimes(1);
    expect(tile('Session')).toHaveTextContent('0');
    expect(screen.queryByTestId('plus-one')).not.toBeInTheDocument();
    expect(screen.getByTestId('tap-character')).toHaveAttribute('aria-disabled', 'true');
    expect(banner()).toBeInTheDocument();
  });

  it('says the same when the per-tap call is refused while the socket is down', async () => {
    socket.connected = false;
    api.tap = () => json({ error: 'This player is frozen' }, 403);
    const server = await renderGame();
    tap();
    await advance(50);
    expect(banner()).toHaveTextContent('This player is frozen');
    expect(screen.queryByText(FAILED)).not.toBeInTheDocument();

    tap(4);
    await advance(10_000);
    expect(server.calls('POST', '/api/tap')).toBe(1);
    expect(tile('Session')).toHaveTextContent('0');
  });

  it('reads it again at each connection: a change made while the channel was closed shows', async () => {
    api.player = () => json({ ...api.user, frozen: false });
    await renderGame();
    socket.disconnect();
    api.player = () => json({ ...api.user, frozen: true });
    await advance(1000);
    expect(banner()).not.toBeInTheDocument();
    socket.reconnect();
    await advance(50);
    expect(banner()).toHaveTextContent('This player is frozen');

    socket.disconnect();
    api.player = () => json({ ...api.user, frozen: false });
    socket.reconnect();
    await advance(50);
    expect(banner()).not.toBeInTheDocument();
    expect(tile('Rank')).toHaveTextContent(`#${api.rank}`);
  });

  it('keeps an unfreeze pushed while a read of the player, asked before it, was on its way', async () => {
    // The page loads as the player is frozen; the unfreeze is pushed before that read's answer.
    let answerRead: (response: Response) => void = () => undefined;
    api.player = () => new Promise<Response>((resolve) => (answerRead = resolve));
    await renderGame({ loaded: false });
    socket.push('frozen', { frozen: false });
    answerRead(json({ ...api.user, frozen: true }));
    await advance(50);
    expect(tile('Total Taps')).toHaveTextContent(`${api.user.totalTaps}`);
    expect(banner()).not.toBeInTheDocument();
    expect(screen.getByTestId('tap-character')).not.toHaveAttribute('aria-disabled', 'true');

    // The same for a read at a reconnection, and for a freeze pushed meanwhile.
    socket.disconnect();
    socket.reconnect();
    socket.push('frozen', { frozen: true });
    answerRead(json({ ...api.user, frozen: false }));
    await advance(50);
    expect(banner()).toHaveTextContent('This player is frozen');
  });

  it('keeps the error toast for other refusals', async () => {
    socket.emitWithAck.mockResolvedValue({ ok: false, status: 403, error: 'Not your session' });
    await renderGame();
    tap();
    await advance(AFTER_WINDOW);
    expect(screen.getByText(FAILED)).toBeInTheDocument();
    expect(banner()).not.toBeInTheDocument();
  });
});
