import { createHmac } from 'node:crypto';

/** The network an address stands for: an IPv4 address, or the /64 an IPv6 host gets. */
export function networkOf(ip: string): string {
  if (ip.startsWith('::ffff:') && ip.includes('.')) return ip.slice('::ffff:'.length);
  if (!ip.includes(':')) return ip;
  const [head, tail = ''] = ip.split('%')[0].split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right];
  return `${groups
    .slice(0, 4)
    .map((group) => parseInt(group, 16).toString(16))
    .join(':')}::/64`;
}

/**
 * The network of an address, hashed with a secret: it tells requests from one network apart
 * without storing any address. 22 characters (132 bits) of an HMAC-SHA-256.
 */
export function networkKey(ip: string, secret: string): string {
  return createHmac('sha256', secret).update(networkOf(ip)).digest('base64url').slice(0, 22);
}

/**
 * The client's address as Express sees it (through the trusted proxies of TRUST_PROXY), or the
 * socket's own peer; empty when neither is known (the connection is gone).
 */
export function clientAddress(req: { ip?: string; socket: { remoteAddress?: string } }): string {
  return req.ip ?? req.socket.remoteAddress ?? '';
}
