import type {
  GameSession,
  GameUser,
  LeaderboardCountry,
  LeaderboardUser,
  RankedUser,
} from '@tapgram/shared';
import { vi } from 'vitest';
import { checkedAnswer } from '../api-answers';

export function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json' },
  });
}

/** What the stubbed game server answers; a test changes it between steps. */
export interface GameApi {
  user: GameUser;
  session: GameSession;
  rank: number;
  users: LeaderboardUser[];
  countries: LeaderboardCountry[];
  /** The running season's boards (none: empty); the season ends in two days. */
  seasonUsers?: RankedUser[];
  seasonCountries?: LeaderboardCountry[];
  /** The answer to POST /api/tap (now or later); by default the tap is counted. */
  tap?: () => Response | Promise<Response>;
  /** The answer to GET /api/users/:id; by default the user. Throwing is a network failure. */
  player?: () => Response | Promise<Response>;
}

/** Season 3, which started five days ago and ends in two. */
function runningSeason() {
  const now = Date.now();
  const day = 86_400_000;
  return {
    id: 3,
    name: 'Season 3',
    startsAt: new Date(now - 5 * day).toISOString(),
    endsAt: new Date(now + 2 * day).toISOString(),
    now: new Date(now).toISOString(),
  };
}

/** Replaces fetch with the game's HTTP calls, answered from `api` (checked like the server's). */
export function stubGameApi(api: GameApi) {
  const answer = (method: string, path: string): Response | Promise<Response> => {
    const route = `${method} ${path}`;
    if (route === `GET /api/users/${api.user.id}`) return api.player?.() ?? json(api.user);
    if (route === `GET /api/users/${api.user.id}/rank`) return json({ rank: api.rank });
    if (route === 'POST /api/sessions') return json(api.session, 201);
    if (route === 'POST /api/tap')
      return api.tap?.() ?? json({ user: api.user, session: api.session });
    if (route === 'GET /api/leaderboard/users') return json(api.users);
    if (route === 'GET /api/leaderboard/countries') return json(api.countries);
    if (route === 'GET /api/milestone/100k') return json({ usersOver100k: 0 });
    if (route === 'GET /api/seasons/current') return json(runningSeason());
    if (route === 'GET /api/seasons/current/users') return json(api.seasonUsers ?? []);
    if (route === 'GET /api/seasons/current/countries') return json(api.seasonCountries ?? []);
    if (route === `GET /api/users/${api.user.id}/seasons`) {
      const mine = api.seasonUsers?.find((u) => u.id === api.user.id);
      return json([
        {
          ...runningSeason(),
          now: undefined,
          points: mine?.totalPoints ?? 0,
          rank: mine?.rank ?? 1,
          final: false,
        },
      ]);
    }
    if (route === 'GET /api/game/config') {
      return json({
        socialUrl: 'https://x.test',
        chartUrl: 'https://c.test',
        contractAddress: 'CA',
        countryChangeDays: 30,
      });
    }
    return json({ error: `No stub for ${route}` }, 500);
  };
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const method = init?.method ?? 'GET';
    const path = new URL(String(input), 'http://localhost').pathname;
    return checkedAnswer(method, path, await answer(method, path));
  });
  vi.stubGlobal('fetch', fetchMock);
  return callsOf(fetchMock);
}

/** What a stubbed fetch was asked: how often, with which headers and JSON bodies, per route. */
export function callsOf(fetchMock: {
  mock: { calls: [input: RequestInfo | URL, init?: RequestInit][] };
}) {
  const callsTo = (method: string, path: string) =>
    fetchMock.mock.calls.filter(
      ([input, init]) =>
        (init?.method ?? 'GET') === method &&
        new URL(String(input), 'http://localhost').pathname === path,
    );
  return {
    calls: (method: string, path: string) => callsTo(method, path).length,
    /** The headers of each call the screen made. */
    headers: (method: string, path: string): Record<string, string>[] =>
      callsTo(method, path).map(([, init]) =>
        Object.fromEntries(
          Object.entries(init?.headers ?? {}).map(([name, value]) => [name.toLowerCase(), value]),
        ),
      ),
    /** The JSON bodies the screen sent. */
    bodies: (method: string, path: string): unknown[] =>
      callsTo(method, path).map(([, init]) => JSON.parse(String(init?.body))),
  };
}
