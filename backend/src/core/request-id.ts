import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/** The caller's X-Request-Id when it is a sane token (a proxy's trace id), else a new one. */
export function requestId(req: IncomingMessage): string {
  const incoming = req.headers['x-request-id'];
  return typeof incoming === 'string' && /^[\w-]{1,64}$/.test(incoming) ? incoming : randomUUID();
}
