import type { Request } from 'express';

const LOOPBACK_HOST = /^(localhost|127\.0\.0\.1|\[::1\])(:\d{1,5})?$/i;

/**
 * This site's origin, for what names the site to others (a wallet's sign-in message, a link
 * preview's absolute URLs): PUBLIC_ORIGIN when it is set; unset, the request's own only when its
 * Host is a loopback one (a developer's own machine), else null. Never any other Host: it is the
 * client's to choose, and a cache in front that does not key on it would hand its page to others.
 */
export function siteOriginResolver(
  publicOrigin: string | undefined,
): (req: Request) => string | null {
  if (publicOrigin) return () => publicOrigin;
  return (req) => {
    const host = req.headers.host ?? '';
    return LOOPBACK_HOST.test(host) ? `${req.protocol}://${host.toLowerCase()}` : null;
  };
}
