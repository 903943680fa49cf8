import type { Request } from 'express';
import { ForbiddenError } from '../core/errors';
import { siteOriginResolver } from '../core/site-origin';

/** The site a Sign-In With Solana message names: what the wallet shows and what it signs. */
export interface SignInSite {
  domain: string;
  uri: string;
}

/** What the server says at start when PUBLIC_ORIGIN is unset (in production). */
export const PUBLIC_ORIGIN_NOTICE =
  'PUBLIC_ORIGIN is not set, so wallet sign-in works only when the site is opened on localhost, ' +
  'and so do link previews. ' +
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
  const siteOrigin = siteOriginResolver(publicOrigin);
  return (req) => {
    const origin = siteOrigin(req);
    if (!origin) throw new ForbiddenError(PUBLIC_ORIGIN_REQUIRED);
    return { domain: new URL(origin).host, uri: origin };
  };
}
