import { STATUS_CODES } from 'node:http';
import type { ErrorRequestHandler, RequestHandler } from 'express';
import type { z } from 'zod';
import { firstIssueMessage } from '@tapgram/shared';

/** An error a service throws on purpose; the middleware turns it into `{error}` with its status. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    /** Sent as Retry-After: when the client may try again. */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
  }
}

export class ValidationError extends HttpError {
  constructor(message: string) {
    super(400, message);
  }
}
export class UnauthorizedError extends HttpError {
  constructor(message = 'Not signed in') {
    super(401, message);
  }
}
export class ForbiddenError extends HttpError {
  constructor(message = 'Not allowed') {
    super(403, message);
  }
}
export class NotFoundError extends HttpError {
  constructor(message = 'Not found') {
    super(404, message);
  }
}
/** What was asked for existed, and is no longer available for good. */
export class GoneError extends HttpError {
  constructor(message: string) {
    super(410, message);
  }
}
export class ConflictError extends HttpError {
  constructor(message: string) {
    super(409, message);
  }
}
export class TooManyRequestsError extends HttpError {
  constructor(message = 'Too many requests, slow down', retryAfterSeconds?: number) {
    super(429, message, retryAfterSeconds);
  }
}
export class ServiceUnavailableError extends HttpError {
  constructor(message: string, retryAfterSeconds?: number) {
    super(503, message, retryAfterSeconds);
  }
}
/** A service the server relies on did not answer in time: what was asked may still be done. */
export class GatewayTimeoutError extends HttpError {
  constructor(message: string, retryAfterSeconds?: number) {
    super(504, message, retryAfterSeconds);
  }
}

/** Parses input with a shared schema; a failure is a 400 with the rule's own message. */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input);
  if (!result.success) throw new ValidationError(firstIssueMessage(result.error));
  return result.data;
}

export const apiNotFound: RequestHandler = (req) => {
  throw new NotFoundError(`No such endpoint: ${req.method} ${req.baseUrl}${req.path}`);
};

interface BodyParserError {
  type?: string;
  status?: number;
  statusCode?: number;
}

function statusOf(err: unknown): number | undefined {
  if (err instanceof HttpError) return err.status;
  const e = err as BodyParserError;
  const status = e?.status ?? e?.statusCode;
  return typeof status === 'number' && status >= 400 && status < 500 ? status : undefined;
}

function clientMessage(err: unknown, status: number): string {
  if (err instanceof HttpError) return err.message;
  const type = (err as BodyParserError).type;
  if (type === 'entity.parse.failed') return 'Request body is not valid JSON';
  if (type === 'entity.too.large' || status === 413) return 'Request body is too large';
  if (type === 'encoding.unsupported' || type === 'charset.unsupported') {
    return 'Unsupported request body encoding';
  }
  // Other library errors may name files or internals: the status's own words only.
  return STATUS_CODES[status] ?? 'Bad request';
}

/** What a client is told about an error. */
export interface ErrorAnswer {
  status: number;
  error: string;
  /** Sent as Retry-After where the transport has headers. */
  retryAfterSeconds?: number;
  /** Not an answer the code chose (a bug, an outage): the caller logs it with its stack. */
  unexpected: boolean;
}

/**
 * The one mapping from an error to an answer, for every path (Express, the fast routes, socket
 * acknowledgements): an HttpError's status and words, a body parser's 4xx in plain words, and
 * for anything else a 500 that says nothing of its cause.
 */
export function errorAnswer(err: unknown): ErrorAnswer {
  const status = statusOf(err);
  if (status === undefined)
    return { status: 500, error: 'Internal server error', unexpected: true };
  return {
    status,
    error: clientMessage(err, status),
    ...(err instanceof HttpError && err.retryAfterSeconds !== undefined
      ? { retryAfterSeconds: err.retryAfterSeconds }
      : {}),
    unexpected: false,
  };
}

export const errorHandler: ErrorRequestHandler = (err, req, res, next) => {
  if (res.headersSent) {
    next(err);
    return;
  }
  const answer = errorAnswer(err);
  if (answer.unexpected) req.log.error({ err }, 'unhandled error');
  else if (answer.status >= 500) req.log.error({ err }, 'server error');
  if (answer.retryAfterSeconds !== undefined) {
    res.setHeader('Retry-After', String(answer.retryAfterSeconds));
  }
  res.status(answer.status).json({ error: answer.error });
};
