import type { Request } from 'express';
import { ForbiddenError } from '../core/errors';

/** The site a Sign-In With Solana message names: what the wallet shows and what it signs. */
export interface SignInSite {
  domain: string;
  uri: string;
}

const LOOPBACK_HOST = /^(localhost|127\.0\.0\.1|\[::1\])(:\d{1,5})?$/i;

/** What the server says at start when PUBLIC_ORIGIN is unset (in production). */
export const PUBLIC_ORIGIN_NOTICE =
  'PUBLIC_ORIGIN is not set, so wallet sign-in works only when the site is opened on localhost. ' +
  'For a public site, set PUBLIC_ORIGIN to the address people open, for example ' +
  'PUBLIC_ORIGIN=https://tapgram.example';

export const PUBLIC_ORIGIN_REQUIRED =
  "Wallet sign-in is unavailable: the server's PUBLIC_ORIGIN must be set to the site's public address (for example https://tapgram.example)";

/**
 * The site comes from configuration (PUBLIC_ORIGIN), never from the request: a Host header is the
 * client's to choose, and a message naming another site would let a phishing page reuse the
 * signature. Unconfigured, only a loopback Host (a developer's own machine) may sign in.
 */
export function signInSiteResolver(publicOrigin: string | undefined): (req: Request) => SignInSite {
  if (publicOrigin) {
    const site = { domain: new URL(publicOrigin).host, uri: publicOrigin };
    return () => site;
  }
  return (req) => {
    const host = req.headers.host ?? '';
    if (!LOOPBACK_HOST.test(host)) throw new ForbiddenError(PUBLIC_ORIGIN_REQUIRED);
    return { domain: host.toLowerCase(), uri: `${req.protocol}://${host.toLowerCase()}` };
  };
}
