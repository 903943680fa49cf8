import {
  bonusHistorySchema,
  errorBodySchema,
  friendActionBodySchema,
  friendMessages,
  friendRequestAnswerSchema,
  friendRequestBodySchema,
  friendsBoardSchema,
  friendsSchema,
  invitationsSchema,
  inviteSchema,
  type BonusEntry,
  type Friend,
  type Friends,
  type FriendsBoard,
  type GameConfig,
  type Invitations,
  type Invite,
} from '@tapgram/shared';
import { vi } from 'vitest';
import { checkedAnswer, mismatch, reportDrift } from '../api-answers';
import { callsOf, json } from './game-api';

type Schema = Parameters<typeof mismatch>[0];
type Answer = Response | Promise<Response>;

/**
 * The friend endpoints' answers and bodies, by the shared schemas: test/api-answers.ts does not
 * list them yet, so they are checked here the same way (a mismatch fails the test).
 */
const ANSWERS: { method: string; path: RegExp; answer: Schema; body?: Schema }[] = [
  { method: 'GET', path: /^\/api\/users\/[^/]+\/friends$/, answer: friendsSchema },
  { method: 'GET', path: /^\/api\/users\/[^/]+\/friends\/board$/, answer: friendsBoardSchema },
  { method: 'GET', path: /^\/api\/users\/[^/]+\/invite$/, answer: inviteSchema },
  { method: 'GET', path: /^\/api\/users\/[^/]+\/invitations$/, answer: invitationsSchema },
  { method: 'GET', path: /^\/api\/users\/[^/]+\/bonuses$/, answer: bonusHistorySchema },
  {
    method: 'POST',
    path: /^\/api\/friends\/requests$/,
    answer: friendRequestAnswerSchema,
    body: friendRequestBodySchema,
  },
  {
    method: 'POST',
    path: /^\/api\/friends\/requests\/[^/]+\/accept$/,
    answer: friendsSchema,
    body: friendActionBodySchema,
  },
  {
    method: 'DELETE',
    path: /^\/api\/friends\/requests\/[^/]+$/,
    answer: friendsSchema,
    body: friendActionBodySchema,
  },
  {
    method: 'DELETE',
    path: /^\/api\/friends\/[^/]+$/,
    answer: friendsSchema,
    body: friendActionBodySchema,
  },
];

function drift(message: string): never {
  reportDrift(message);
  throw new Error(message);
}

/** Checks what the screen sent and the stub answered, as test/api-answers.ts does for the others. */
async function checked(method: string, path: string, body: unknown, answer: Answer) {
  const endpoint = ANSWERS.find((e) => e.method === method && e.path.test(path));
  if (!endpoint) return checkedAnswer(method, path, await answer);
  if (endpoint.body) {
    const wrong = mismatch(endpoint.body, body);
    if (wrong) drift(`${method} ${path} sends what the server refuses: ${wrong}`);
  }
  const response = await answer;
  const wrong = mismatch(
    response.ok ? endpoint.answer : errorBodySchema,
    await response.clone().json(),
  );
  if (wrong) drift(`The stub of ${method} ${path} answers what the server never does: ${wrong}`);
  return response;
}

/**
 * The player's side of the friends server: their friends and requests (which the friend calls
 * change as the server does), invite, invitations and bonuses. A test changes it between steps.
 */
export interface FriendsApi {
  userId: string;
  /** Players who exist, by name, for a request by name. */
  players: Friend[];
  friends: Friends;
  board: FriendsBoard;
  invite: Invite;
  invitations: Invitations;
  bonuses: BonusEntry[];
  config: GameConfig;
  /** Answers a call instead of the server above (a refusal, or one that waits), by "METHOD path". */
  override?: Record<string, () => Answer>;
}

const without = (list: Friend[], id: string) => list.filter((f) => f.id !== id);

/** What the server does with a friend call: the player's friends after it, or its refusal. */
function act(api: FriendsApi, method: string, path: string, body: unknown): Response {
  const f = api.friends;
  if (method === 'POST' && path === '/api/friends/requests') {
    const { username } = body as { username: string };
    const friend = api.players.find((p) => p.username === username);
    if (!friend) return json({ error: friendMessages.notFound }, 404);
    if (f.incoming.some((p) => p.id === friend.id)) {
      api.friends = {
        ...f,
        incoming: without(f.incoming, friend.id),
        friends: [...f.friends, friend],
      };
      return json({ status: 'friends', friend });
    }
    api.friends = { ...f, outgoing: [...f.outgoing, friend] };
    return json({ status: 'requested', friend });
  }
  const accept = /^\/api\/friends\/requests\/([^/]+)\/accept$/.exec(path);
  if (method === 'POST' && accept) {
    const friend = f.incoming.find((p) => p.id === accept[1]);
    if (!friend) return json({ error: friendMessages.noRequest }, 409);
    api.friends = {
      ...f,
      incoming: without(f.incoming, friend.id),
      friends: [...f.friends, friend],
    };
    return json(api.friends);
  }
  const request = /^\/api\/friends\/requests\/([^/]+)$/.exec(path);
  if (method === 'DELETE' && request) {
    const id = request[1];
    api.friends = { ...f, incoming: without(f.incoming, id), outgoing: without(f.outgoing, id) };
    return json(api.friends);
  }
  const friend = /^\/api\/friends\/([^/]+)$/.exec(path);
  if (method === 'DELETE' && friend) {
    if (!f.friends.some((p) => p.id === friend[1])) {
      return json({ error: friendMessages.notFriends }, 409);
    }
    api.friends = { ...f, friends: without(f.friends, friend[1]) };
    return json(api.friends);
  }
  return json({ error: `No stub for ${method} ${path}` }, 500);
}

/** Replaces fetch with the friends' calls, answered from `api` and checked like the server's. */
export function stubFriendsApi(api: FriendsApi) {
  const answer = (method: string, path: string, body: unknown): Answer => {
    const route = `${method} ${path}`;
    const override = api.override?.[route];
    if (override) return override();
    const user = `/api/users/${api.userId}`;
    if (route === `GET ${user}/friends`) return json(api.friends);
    if (route === `GET ${user}/friends/board`) return json(api.board);
    if (route === `GET ${user}/invite`) return json(api.invite);
    if (route === `GET ${user}/invitations`) return json(api.invitations);
    if (route === `GET ${user}/bonuses`) return json(api.bonuses);
    if (route === 'GET /api/game/config') return json(api.config);
    return act(api, method, path, body);
  };
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const method = init?.method ?? 'GET';
    const path = new URL(String(input), 'http://localhost').pathname;
    const body: unknown = init?.body === undefined ? undefined : JSON.parse(String(init.body));
    return checked(method, path, body, answer(method, path, body));
  });
  vi.stubGlobal('fetch', fetchMock);
  return callsOf(fetchMock);
}

export const GAME_CONFIG: GameConfig = {
  socialUrl: 'https://x.test',
  chartUrl: 'https://c.test',
  contractAddress: 'CA',
  countryChangeDays: 30,
};
