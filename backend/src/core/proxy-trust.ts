import proxyAddr from 'proxy-addr';
import type { Config } from './config';

/** Whether the hop at `address`, `hop` steps from this server, may name the hop before it. */
export type ProxyTrust = (address: string, hop: number) => boolean;

/**
 * TRUST_PROXY compiled once into Express's `trust proxy` setting. Everything that reads a client
 * address or scheme uses this one rule: `req.ip` and `req.protocol` in Express, and
 * `app.get('trust proxy fn')` (this very function) with `proxy-addr` where Express is not in the
 * path. The address is the nearest X-Forwarded-For entry that a trusted hop added, so entries a
 * client prepends are never reached.
 */
export function proxyTrust(setting: Config['TRUST_PROXY']): ProxyTrust {
  if (setting === false) return () => false;
  if (typeof setting === 'number') return (_address, hop) => hop < setting;
  return proxyAddr.compile(setting);
}
