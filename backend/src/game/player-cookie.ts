import type { CookieOptions, Request, Response } from 'express';
import cookieParser from 'cookie-parser';
import { parse } from 'cookie';

/** Binds a browser to the game player it created: a signed, httpOnly cookie holding the id. */
export const PLAYER_COOKIE = 'tg_player';
const ONE_YEAR_MS = 365 * 24 * 60 * 60 * 1000;

export function setPlayerCookie(res: Response, userId: string, secure: boolean): void {
  const options: CookieOptions = {
    httpOnly: true,
    sameSite: 'lax',
    secure,
    signed: true,
    maxAge: ONE_YEAR_MS,
    path: '/',
  };
  res.cookie(PLAYER_COOKIE, userId, options);
}

export function playerFromRequest(req: Request): string | null {
  const value: unknown = req.signedCookies?.[PLAYER_COOKIE];
  return typeof value === 'string' ? value : null;
}

/** The same check for a socket handshake, which carries the raw Cookie header. */
export function playerFromCookieHeader(header: string | undefined, secret: string): string | null {
  if (!header) return null;
  const raw = parse(header)[PLAYER_COOKIE];
  if (!raw) return null;
  const value = cookieParser.signedCookie(raw, secret);
  return typeof value === 'string' ? value : null;
}
