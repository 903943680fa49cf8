import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import type { TLSSocket } from 'node:tls';
import type { RequestHandler } from 'express';
import { ForbiddenError } from './errors';
import type { ProxyTrust } from './proxy-trust';

const CROSS_SITE = 'Cross-site request refused';

/**
 * Whether a request was made by one of this site's pages: its Origin is the scheme and host the
 * request reached (`protocol` as Express's req.protocol gives it, behind trusted proxies too) or
 * the configured public origin. A request without an Origin is not a browser's cross-site one
 * (browsers send it on every cross-origin write and WebSocket), so tools and the bench may call.
 */
export function fromThisSite(
  headers: IncomingHttpHeaders,
  protocol: string,
  publicOrigin: string | undefined,
): boolean {
  if (headers['sec-fetch-site'] === 'cross-site') return false;
  const { origin, host } = headers;
  if (origin === undefined) return true;
  try {
    const from = new URL(origin).origin;
    return from === publicOrigin || from === new URL(`${protocol}://${host}`).origin;
  } catch {
    // "null" (a sandboxed page, a file) or something that is not an origin at all.
    return false;
  }
}

/** The scheme a raw request came in with, by Express's rule for req.protocol. */
export function requestProtocol(req: IncomingMessage, trust: ProxyTrust): string {
  const own = (req.socket as TLSSocket).encrypted ? 'https' : 'http';
  if (!trust(req.socket.remoteAddress ?? '', 0)) return own;
  const forwarded = req.headers['x-forwarded-proto'];
  const first = (Array.isArray(forwarded) ? forwarded[0] : forwarded)?.split(',')[0].trim();
  return first || own;
}

/**
 * Throws 403 for a write that a page on another site made the browser send (cross-site request
 * forgery); reads pass.
 */
function refuseCrossSiteWrite(
  req: IncomingMessage,
  protocol: string,
  publicOrigin: string | undefined,
): void {
  if (req.method === 'GET' || req.method === 'HEAD' || req.method === 'OPTIONS') return;
  if (!fromThisSite(req.headers, protocol, publicOrigin)) throw new ForbiddenError(CROSS_SITE);
}

/** The rule for every API write served by Express. */
export function sameOriginWrites(publicOrigin: string | undefined): RequestHandler {
  return (req, _res, next) => {
    refuseCrossSiteWrite(req, req.protocol, publicOrigin);
    next();
  };
}

/**
 * The same rule for the writes served without Express (fast routes), with the same view of the
 * scheme behind trusted proxies.
 */
export function sameOriginRawWrites(publicOrigin: string | undefined, trust: ProxyTrust) {
  return (req: IncomingMessage): void =>
    refuseCrossSiteWrite(req, requestProtocol(req, trust), publicOrigin);
}

/**
 * Socket.IO's `allowRequest`: only this site's pages open the game channel, which acts with the
 * player's cookie as HTTP writes do.
 */
export function sameOriginHandshakes(publicOrigin: string | undefined, trust: ProxyTrust) {
  return (
    req: IncomingMessage,
    callback: (error: string | null | undefined, ok: boolean) => void,
  ) => {
    const ok = fromThisSite(req.headers, requestProtocol(req, trust), publicOrigin);
    callback(ok ? null : CROSS_SITE, ok);
  };
}
