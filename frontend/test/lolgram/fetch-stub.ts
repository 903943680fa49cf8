import { cleanup } from '@testing-library/react';
import { afterEach, beforeEach, vi } from 'vitest';
import { checkedAnswer } from '../api-answers';

type Reply = Response | Promise<Response>;

interface Route {
  method: string;
  path: string | RegExp;
  reply: (request: Request) => Reply;
}

export interface FetchStub {
  on: (method: string, path: string | RegExp, reply: (request: Request) => Reply) => FetchStub;
  calls: (method: string, path: string | RegExp) => Request[];
  /** The bodies as the app handed them to fetch (a FormData keeps its file names). */
  bodies: (method: string, path: string | RegExp) => unknown[];
}

export function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json' },
  });
}

export function noContent(): Response {
  return new Response(null, { status: 204 });
}

/** A reply the test settles later, to look at the screen while a call is in flight. */
export function deferred() {
  let settle: (response: Response) => void = () => {};
  const promise = new Promise<Response>((resolve) => {
    settle = resolve;
  });
  return { promise, settle };
}

function matches(route: Route, method: string, path: string): boolean {
  if (route.method !== method) return false;
  return typeof route.path === 'string' ? route.path === path : route.path.test(path);
}

/**
 * Replaces global fetch with a table of routes; the newest matching route answers, checked against
 * the shared schema of its endpoint.
 */
export function stubFetch(): FetchStub {
  const routes: Route[] = [];
  const seen: Request[] = [];
  const rawBodies = new WeakMap<Request, unknown>();
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const request = new Request(new URL(String(input), 'http://localhost'), init);
      seen.push(request);
      rawBodies.set(request, init?.body);
      const url = new URL(request.url);
      const path = url.pathname + url.search;
      const route = [...routes].reverse().find((r) => matches(r, request.method, path));
      if (!route) return json({ error: `No stub for ${request.method} ${path}` }, 500);
      return checkedAnswer(request.method, request.url, await route.reply(request));
    }),
  );
  const stub: FetchStub = {
    on(method, path, reply) {
      routes.push({ method, path, reply });
      return stub;
    },
    calls(method, path) {
      return seen.filter((request) => {
        const url = new URL(request.url);
        return matches(
          { method, path, reply: () => json(null) },
          request.method,
          url.pathname + url.search,
        );
      });
    },
    bodies(method, path) {
      return stub.calls(method, path).map((request) => rawBodies.get(request));
    },
  };
  return stub;
}

/**
 * For a whole test file: empty storage and a fresh stub before each test, the page and the stub
 * cleared after it. The answer always speaks for the current test's stub.
 */
export function stubFetchForEachTest(): FetchStub {
  let current: FetchStub | undefined;
  const stub = () => {
    if (!current) throw new Error('The fetch stub is used outside a test');
    return current;
  };
  beforeEach(() => {
    localStorage.clear();
    current = stubFetch();
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });
  return {
    on(method, path, reply) {
      stub().on(method, path, reply);
      return this;
    },
    calls: (method, path) => stub().calls(method, path),
    bodies: (method, path) => stub().bodies(method, path),
  };
}
