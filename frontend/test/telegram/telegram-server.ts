import {
  errorBodySchema,
  telegramLinkCodeSchema,
  telegramLinkStatusSchema,
  telegramSessionAnswerSchema,
  telegramSessionBodySchema,
} from '@tapgram/shared';
import { vi } from 'vitest';
import { mismatch, reportDrift } from '../api-answers';

type Schema = Parameters<typeof mismatch>[0];

export type TelegramRoute =
  'POST /api/telegram/session' | 'POST /api/telegram/link-codes' | 'GET /api/telegram/link';

/** An answer of the stub; one that throws is a network failure (fetch rejects). */
export type Reply = () => Response | Promise<Response>;

/**
 * The Telegram endpoints' bodies and answers, by the shared schemas: test/api-answers.ts does not
 * list them, so they are checked here the same way (a mismatch fails the test).
 */
const SCHEMAS: Record<TelegramRoute, { answer: Schema; body?: Schema }> = {
  'POST /api/telegram/session': {
    answer: telegramSessionAnswerSchema,
    body: telegramSessionBodySchema,
  },
  'POST /api/telegram/link-codes': { answer: telegramLinkCodeSchema },
  'GET /api/telegram/link': { answer: telegramLinkStatusSchema },
};

export const json = (body: unknown, status = 200): Response =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

/** What the client sent, as the server would read it. */
export interface SentRequest {
  route: string;
  body: unknown;
  contentType: string | null;
  credentials: RequestCredentials | undefined;
}

const isTelegramRoute = (route: string): route is TelegramRoute => route in SCHEMAS;

function drift(message: string): never {
  reportDrift(message);
  throw new Error(message);
}

/**
 * Replaces fetch with the Telegram part of the backend: each route answers with its reply (set
 * or changed by the test), checked against the shared schemas; what the client sent is recorded.
 */
export function stubTelegramServer(replies: Partial<Record<TelegramRoute, Reply>> = {}) {
  const sent: SentRequest[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
      const route = `${init.method ?? 'GET'} ${new URL(String(input), 'http://localhost').pathname}`;
      const body: unknown = init.body === undefined ? undefined : JSON.parse(String(init.body));
      const headers = new Headers(init.headers);
      sent.push({
        route,
        body,
        contentType: headers.get('Content-Type'),
        credentials: init.credentials,
      });
      const reply = isTelegramRoute(route) ? replies[route] : undefined;
      if (!isTelegramRoute(route) || !reply) return json({ error: `No stub for ${route}` }, 500);
      const schemas = SCHEMAS[route];
      if (schemas.body) {
        const wrong = mismatch(schemas.body, body);
        if (wrong) drift(`${route} sends what the server refuses: ${wrong}`);
      }
      const response = await reply();
      const wrong = mismatch(
        response.ok ? schemas.answer : errorBodySchema,
        await response.clone().json(),
      );
      if (wrong) drift(`The stub of ${route} answers what the server never does: ${wrong}`);
      return response;
    }),
  );
  return {
    sent,
    /** Changes what `route` answers from now on. */
    answer(route: TelegramRoute, reply: Reply) {
      replies[route] = reply;
    },
  };
}

/** fetch's rejection when the server cannot be reached. */
export const offline: Reply = () => {
  throw new TypeError('Failed to fetch');
};
