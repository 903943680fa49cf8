import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { RequestHandler } from 'express';
import { errorAnswer, HttpError } from './errors';
import type { Logger } from './logger';
import { requestId } from './request-id';
import { BAD_URL, isValidRequestUrl } from './request-url';

/** A JSON endpoint on the hottest path, served without the Express stack. */
export type FastRoute = (request: {
  body: unknown;
  query: URLSearchParams;
  headers: IncomingMessage['headers'];
}) => Promise<{ status: number; body: unknown }>;

interface Answer {
  status: number;
  body: unknown;
  retryAfterSeconds?: number;
}

/** An answer already serialized (a cached page): sent as it is. */
export class RawJson {
  constructor(readonly text: string) {}
}

const MAX_BODY_BYTES = 4 * 1024;

/** The headers helmet sets, captured once so that fast routes answer with the same ones. */
export function captureHeaders(middleware: RequestHandler): [string, string][] {
  const headers: [string, string][] = [];
  const res = {
    setHeader: (name: string, value: string | number | string[]) => {
      headers.push([name, String(value)]);
    },
    removeHeader: () => undefined,
    getHeader: () => undefined,
  };
  middleware({ headers: {} } as never, res as never, () => undefined);
  return headers;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        // Answer 413 and discard the rest, so that the client reads the answer (a reset would not).
        req.off('data', onData);
        req.resume();
        reject(new HttpError(413, 'Request body is too large'));
        return;
      }
      chunks.push(chunk);
    };
    req.on('data', onData);
    req.on('end', () =>
      resolve((chunks.length === 1 ? chunks[0] : Buffer.concat(chunks)).toString('utf8')),
    );
    req.on('error', reject);
  });
}

async function parseJson(req: IncomingMessage): Promise<unknown> {
  const type = req.headers['content-type'] ?? '';
  if (!type.startsWith('application/json')) {
    throw new HttpError(415, 'Content-Type must be application/json');
  }
  const text = await readBody(req);
  try {
    return text ? JSON.parse(text) : {};
  } catch {
    throw new HttpError(400, 'Request body is not valid JSON');
  }
}

/**
 * Serves `routes` ("METHOD /path") directly, with the same error shape, security headers, request
 * id and log line as the app, and hands every other request to `app`.
 */
export function withFastRoutes(
  app: RequestListener,
  routes: Map<string, FastRoute>,
  options: { logger: Logger; headers: [string, string][] },
): RequestListener {
  if (routes.size === 0) return app;
  const { logger } = options;
  // The headers every answer carries, flattened once: one writeHead, no setHeader per header.
  const fixed = [
    ...options.headers.flat(),
    'content-type',
    'application/json; charset=utf-8',
    'cache-control',
    'no-store',
  ];
  const send = (res: ServerResponse, id: string, answer: Answer) => {
    const json = answer.body instanceof RawJson ? answer.body.text : JSON.stringify(answer.body);
    res.writeHead(answer.status, [
      ...fixed,
      ...(answer.retryAfterSeconds === undefined
        ? []
        : ['retry-after', String(answer.retryAfterSeconds)]),
      'x-request-id',
      id,
      'content-length',
      String(Buffer.byteLength(json)),
    ]);
    res.end(json);
  };
  const answer = async (
    req: IncomingMessage,
    route: FastRoute,
    search: string,
    id: string,
  ): Promise<Answer> => {
    try {
      // The path matched a route's own text; the query is the client's.
      if (search && !isValidRequestUrl(search)) throw new HttpError(400, BAD_URL);
      const body = req.method === 'GET' || req.method === 'HEAD' ? undefined : await parseJson(req);
      return await route({ body, query: new URLSearchParams(search), headers: req.headers });
    } catch (error) {
      const { status, error: message, retryAfterSeconds, unexpected } = errorAnswer(error);
      if (unexpected) {
        logger.error(
          { err: error, req: { id, method: req.method, url: req.url } },
          'unhandled error',
        );
      }
      return { status, body: { error: message }, retryAfterSeconds };
    }
  };
  const serve = async (
    req: IncomingMessage,
    res: ServerResponse,
    route: FastRoute,
    search: string,
  ) => {
    const started = performance.now();
    const id = requestId(req);
    const reply = await answer(req, route, search, id);
    send(res, id, reply);
    const { status } = reply;
    const level = status >= 500 ? 'error' : 'info';
    if (logger.isLevelEnabled(level)) {
      logger[level](
        {
          req: { id, method: req.method, url: req.url },
          res: { status },
          responseTime: Math.round(performance.now() - started),
        },
        'request completed',
      );
    }
  };
  return (req, res) => {
    const url = req.url ?? '';
    const query = url.indexOf('?');
    const path = query === -1 ? url : url.slice(0, query);
    const route = routes.get(`${req.method} ${path}`);
    if (route) void serve(req, res, route, query === -1 ? '' : url.slice(query + 1));
    else app(req, res);
  };
}
