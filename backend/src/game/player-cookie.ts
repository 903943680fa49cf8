import type { CookieOptions, Request, Response } from 'express';
import cookieParser from 'cookie-parser';
import { parse } from 'cookie';

/** Binds a browser to the game player it created: a signed, httpOnly cookie holding the id. */
export const PLAYER_COOKIE = 'tg_player';
const ONE_YEAR_MS = 365 * 24 * 60 * 60 * 1000;

/**
 * `embedded`: the page may run inside another site's frame (Telegram's web client shows a Mini App
 * in an iframe of web.telegram.org), where a Lax cookie is neither set nor sent. Over https the
 * cookie is then SameSite=None and partitioned: kept apart for that embedding only.
 */
export function setPlayerCookie(
  res: Response,
  userId: string,
  secure: boolean,
  { embedded = false }: { embedded?: boolean } = {},
): void {
  const crossSite = embedded && secure;
  const options: CookieOptions = {
    httpOnly: true,
    sameSite: crossSite ? 'none' : 'lax',
    ...(crossSite ? { partitioned: true } : {}),
    secure,
    signed: true,
    maxAge: ONE_YEAR_MS,
    path: '/',
  };
  res.cookie(PLAYER_COOKIE, userId, options);
}

/** The player an Express request's cookie names, by the same check as every other path. */
export function playerFromRequest(req: Request): string | null {
  return req.secret ? playerFromCookieHeader(req.headers.cookie, req.secret) : null;
}

// Signed values already checked, and whose they are: a tapping player sends the same cookie many
// times a second, and the check (an HMAC and two hashes) is the costliest part of a tap. Bounded;
// the oldest entries go first.
const VERIFIED_LIMIT = 50_000;
const verifiedBySecret = new Map<string, Map<string, string>>();

function verifiedPlayer(raw: string, secret: string): string | null {
  let verified = verifiedBySecret.get(secret);
  if (!verified) verifiedBySecret.set(secret, (verified = new Map()));
  const known = verified.get(raw);
  if (known !== undefined) return known;
  // signedCookie hands an unsigned value back unchanged: only an "s:" value carries a signature.
  if (!raw.startsWith('s:')) return null;
  const value = cookieParser.signedCookie(raw, secret);
  if (typeof value !== 'string') return null;
  if (verified.size >= VERIFIED_LIMIT) verified.delete(verified.keys().next().value as string);
  verified.set(raw, value);
  return value;
}

/**
 * The only way a request names its player (Express, fast route, socket handshake): the id from a
 * cookie value the server signed, or null.
 */
export function playerFromCookieHeader(header: string | undefined, secret: string): string | null {
  if (!header) return null;
  const raw = parse(header)[PLAYER_COOKIE];
  return raw ? verifiedPlayer(raw, secret) : null;
}
