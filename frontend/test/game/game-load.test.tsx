import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { GamePage } from '../../src/features/game/GamePage';
import { gameStorage } from '../../src/features/game/storage';
import { dismiss } from '../../src/hooks/use-toast';
import { Providers } from '../../src/Providers';
import { notFromServer } from '../api-answers';
import { makeGameSession, makeGameUser } from './builders';
import { fakeSocket } from './fake-socket';
import { json, stubGameApi, type GameApi } from './game-api';
import { openGameSocket } from '../../src/features/game/game-socket';

const socket = fakeSocket(false);
vi.mock('socket.io-client', () => ({ io: () => socket }));

let api: GameApi;
const advance = (ms: number) => act(() => vi.advanceTimersByTimeAsync(ms));
const tile = (label: string) => screen.getByTestId(`stat-${label}`);
const welcome = () => screen.queryByText(/Create a username to start playing/);
const unreachable = () => {
  throw new TypeError('Failed to fetch');
};

function openGame() {
  const server = stubGameApi(api);
  render(
    <MemoryRouter>
      <Providers>
        <GamePage />
      </Providers>
    </MemoryRouter>,
  );
  return server;
}

function tap(times = 1) {
  const character = screen.getByTestId('tap-character');
  for (let i = 0; i < times; i += 1) {
    fireEvent.pointerDown(character);
    fireEvent.pointerUp(character);
  }
}

// The channel's client loads before the tests, so that the pages use the socket stubbed here.
beforeAll(() => openGameSocket());

beforeEach(() => {
  vi.useFakeTimers();
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
  socket.connected = false;
  const user = makeGameUser({ country: 'DE', totalPoints: 40, totalTaps: 40 });
  api = {
    user,
    session: makeGameSession({ userId: user.id }),
    rank: 5,
    users: [],
    countries: [],
  };
  gameStorage.save(api.user.id, api.session.id);
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

describe('opening the game with a stored player', () => {
  it('opens the welcome dialog when the server says the player does not exist', async () => {
    api.player = () => json({ error: 'User not found' }, 404);
    openGame();
    await advance(50);
    await vi.waitFor(() => expect(welcome()).toBeInTheDocument());
    expect(gameStorage.userId()).toBeNull();
  });

  it.each([
    ['no answer at all', unreachable],
    ['a 503', () => json({ error: 'The game is briefly unavailable' }, 503)],
    ['a 429', () => json({ error: 'Too many requests' }, 429)],
    [
      'a proxy page with a 404',
      () => notFromServer(new Response('<h1>Not Found</h1>', { status: 404 })),
    ],
  ])('keeps the player on %s, and loads it once the server answers', async (_, answer) => {
    api.player = answer;
    const server = openGame();
    await advance(50);
    // Asked again meanwhile, with no dialog over the game and nothing forgotten.
    await advance(5_000);
    expect(server.calls('GET', `/api/users/${api.user.id}`)).toBeGreaterThan(1);
    expect(welcome()).not.toBeInTheDocument();
    expect(gameStorage.userId()).toBe(api.user.id);
    // A tap while the player is looked for opens no dialog either: it is kept, and counted once
    // the player is loaded.
    tap();
    await advance(50);
    expect(welcome()).not.toBeInTheDocument();

    api.player = undefined;
    await advance(15_000);
    expect(tile('Country')).toHaveTextContent('DE');
    expect(tile('Total Taps')).toHaveTextContent('41');
  });

  it('plays on with the player the device last knew while the server cannot be reached', async () => {
    gameStorage.savePlayer({
      user: { ...api.user, totalTaps: 52, totalPoints: 52 },
      session: { ...api.session, sessionPoints: 12, sessionTaps: 12 },
      savedAt: Date.now() - 60_000,
    });
    api.player = unreachable;
    openGame();
    await advance(50);
    expect(tile('Country')).toHaveTextContent('DE');
    expect(tile('Total Taps')).toHaveTextContent('52');
    expect(tile('Session')).toHaveTextContent('12');
    expect(screen.getByTestId('tap-status')).toHaveAttribute('data-state', 'offline');
    tap(3);
    await advance(50);
    expect(tile('Total Taps')).toHaveTextContent('55');
    expect(welcome()).not.toBeInTheDocument();
  });

  it('counts a tap once when the player is read while its post is on its way', async () => {
    gameStorage.savePlayer({ ...api, savedAt: Date.now() - 60_000 });
    api.player = unreachable;
    api.tap = unreachable;
    openGame();
    await advance(50);
    expect(screen.getByTestId('tap-status')).toHaveAttribute('data-state', 'offline');
    tap();
    await advance(50);
    expect(tile('Total Taps')).toHaveTextContent(/^41$/);

    // The server is back: it counts the tap as soon as its post arrives, but the answer is slow;
    // the player, read meanwhile, already holds it.
    const user = { ...api.user, totalPoints: 41, totalTaps: 41 };
    const session = { ...api.session, sessionPoints: 1, sessionTaps: 1 };
    let answerTap: (answer: Response) => void = () => undefined;
    api.tap = () => new Promise<Response>((resolve) => (answerTap = resolve));
    api.player = () => json(user);
    await advance(3_000);
    await act(async () => {
      socket.connect();
      await vi.advanceTimersByTimeAsync(50);
    });
    expect(tile('Total Taps')).toHaveTextContent(/^41$/);

    answerTap(json({ user, session }));
    await advance(50);
    expect(tile('Total Taps')).toHaveTextContent(/^41$/);
    expect(tile('Session')).toHaveTextContent(/^1$/);
    expect(screen.getByTestId('tap-status')).toHaveAttribute('data-state', 'synced');
  });
});
