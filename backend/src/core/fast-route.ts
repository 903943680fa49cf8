import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import zlib from 'node:zlib';
import type { RequestHandler } from 'express';
import Negotiator from 'negotiator';
import { errorAnswer, HttpError } from './errors';
import type { Logger } from './logger';
import type { Metrics } from './metrics';
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

/** Answers at least this large are compressed for clients that accept it (as Express's are). */
export const COMPRESS_THRESHOLD_BYTES = 1024;
const ENCODINGS = ['br', 'gzip'] as const;
type Encoding = (typeof ENCODINGS)[number];

function encode(text: string, encoding: Encoding): Buffer {
  // Brotli's quality 4, like the compression middleware's: most of the gain, little of the CPU.
  return encoding === 'br'
    ? zlib.brotliCompressSync(text, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } })
    : zlib.gzipSync(text);
}

/**
 * An answer already serialized (a shared page): sent as it is, and compressed at most once per
 * encoding however many readers get it.
 */
export class RawJson {
  private readonly encoded = new Map<Encoding, Buffer>();

  constructor(readonly text: string) {}

  encodedAs(encoding: Encoding): Buffer {
    let bytes = this.encoded.get(encoding);
    if (!bytes) {
      bytes = encode(this.text, encoding);
      this.encoded.set(encoding, bytes);
    }
    return bytes;
  }
}

/** The encoding a GET's answer goes out in: br or gzip when the client takes it and it pays. */
function encodingFor(req: IncomingMessage, bytes: number): Encoding | null {
  if (req.method !== 'GET' || bytes < COMPRESS_THRESHOLD_BYTES) return null;
  const chosen = new Negotiator(req).encoding([...ENCODINGS, 'identity']);
  return chosen === 'br' || chosen === 'gzip' ? chosen : null;
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
  options: {
    logger: Logger;
    headers: [string, string][];
    metrics: Metrics;
    /** Throws an HttpError for a write from another site (origin.ts), before its body is read. */
    sameOrigin: (req: IncomingMessage) => void;
  },
): RequestListener {
  if (routes.size === 0) return app;
  const { logger, metrics, sameOrigin } = options;
  // The headers every answer carries, flattened once: one writeHead, no setHeader per header.
  const fixed = [
    ...options.headers.flat(),
    'content-type',
    'application/json; charset=utf-8',
    'cache-control',
    'no-store',
  ];
  const send = (req: IncomingMessage, res: ServerResponse, id: string, answer: Answer) => {
    const { body } = answer;
    const json = body instanceof RawJson ? body.text : JSON.stringify(body);
    const encoding = encodingFor(req, json.length);
    const bytes =
      encoding === null
        ? json
        : body instanceof RawJson
          ? body.encodedAs(encoding)
          : encode(json, encoding);
    res.writeHead(answer.status, [
      ...fixed,
      ...(answer.retryAfterSeconds === undefined
        ? []
        : ['retry-after', String(answer.retryAfterSeconds)]),
      ...(req.method === 'GET' ? ['vary', 'Accept-Encoding'] : []),
      ...(encoding === null ? [] : ['content-encoding', encoding]),
      'x-request-id',
      id,
      'content-length',
      String(Buffer.byteLength(bytes)),
    ]);
    res.end(bytes);
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
      sameOrigin(req);
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
    { route, path, search }: { route: FastRoute; path: string; search: string },
  ) => {
    const started = performance.now();
    const id = requestId(req);
    const reply = await answer(req, route, search, id);
    send(req, res, id, reply);
    const { status } = reply;
    // The path is the route's own text (a fast route has no parameters): a bounded label.
    metrics.httpRequest(req.method ?? '', path, status, (performance.now() - started) / 1000);
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
    if (route)
      void serve(req, res, { route, path, search: query === -1 ? '' : url.slice(query + 1) });
    else app(req, res);
  };
}
