import { REPORT_REASONS, type SignInProof } from '@tapgram/shared';
import type { Kind } from './contract';
import type { Random } from './random';

/** What the server already holds, so that well-formed requests reach past the lookups. */
export interface Known {
  playerId: string;
  sessionId: string;
  userIds: string[];
  usernames: string[];
  postIds: string[];
  commentIds: string[];
  /** A thread page's `nextCursor`. */
  commentCursor: string;
  queueId: string;
  imageKey: string;
  cursor: string;
  wallet: string;
  /** Proofs for nonces the server issued: one each may succeed. */
  proofs: SignInProof[];
  jpeg: Buffer;
  /** Init data of Telegram launches signed with the server's bot token (some carry a code). */
  initData: string[];
}

/** JSON text placed as it is (deep nesting, numbers JSON.parse turns into Infinity). */
export class Raw {
  constructor(readonly text: string) {}
}

export const MEGABYTE_STRING = 'a'.repeat(1024 * 1024);
const DEPTH = 10_000;
export const DEEP_ARRAY = new Raw(`${'['.repeat(DEPTH)}${']'.repeat(DEPTH)}`);
export const DEEP_OBJECT = new Raw(`${'{"a":'.repeat(DEPTH)}1${'}'.repeat(DEPTH)}`);

/** Strings Postgres cannot store, or that tend to break parsers, encoders and logs. */
export const SHORT_HOSTILE_STRINGS: readonly string[] = [
  '\u0000',
  'abc\u0000def',
  '\u0000'.repeat(40),
  '\uD800',
  'a\uDFFFb',
  '\uDBFF\uDBFF',
  '\uDC00\uD800',
  'ok\uD83D',
  '\uFFFE\uFFFF',
  '\u202Eevil',
  'zero\u200Bwidth',
  'e\u0301\u0301\u0301',
  '😂🔥',
  '\u0085\u2028\u2029',
  '\r\n\r\nx: y',
  '\u001b[31mred',
  '',
  ' ',
  '   padded   ',
  "' or '1'='1",
  '"; drop table lolgram_users; --',
  '<script>alert(1)</script>',
  '{{7*7}}${7*7}',
  '%00%FF',
  '\\u0000',
  '../../../etc/passwd',
];

/** The short ones, and long ones: below and above the body limits. */
export const HOSTILE_STRINGS: readonly string[] = [
  ...SHORT_HOSTILE_STRINGS,
  'x'.repeat(5_000),
  'x'.repeat(90_000),
  MEGABYTE_STRING,
];

/** Values of every JSON type, and shapes that hurt naive code. */
export const HOSTILE_VALUES: readonly unknown[] = [
  0,
  -1,
  1.5,
  1e308,
  -1e308,
  new Raw('1e400'),
  new Raw('9007199254740993'),
  true,
  false,
  null,
  [],
  ['a', 'b'],
  {},
  { a: 1 },
  JSON.parse('{"__proto__": {"polluted": true}}') as unknown,
  { constructor: { prototype: { polluted: true } } },
  { toString: 'x', valueOf: 1 },
  DEEP_ARRAY,
  DEEP_OBJECT,
  Array.from({ length: 10_000 }, (_, i) => i),
];

export function hostileValue(random: Random): unknown {
  return random.chance(0.6) ? random.pick(HOSTILE_STRINGS) : random.pick(HOSTILE_VALUES);
}

/** A value that passes validation (or comes close), so that requests reach the services. */
export function validValue(kind: Kind, random: Random, known: Known): unknown {
  switch (kind) {
    case 'username':
      return random.chance(0.5) ? random.pick(known.usernames) : `f_${random.word(8)}`;
    case 'password':
      return random.chance(0.5) ? 'correct horse battery' : random.word(12);
    case 'text':
    case 'caption':
      return `${random.word()} ${random.word()}`;
    case 'country':
      return random.pick(['US', 'DE', 'FR', 'JP', 'BR', 'zz']);
    case 'playerId':
      return random.chance(0.7) ? known.playerId : random.uuid();
    case 'sessionId':
      return random.chance(0.7) ? known.sessionId : random.uuid();
    case 'userId':
      return random.chance(0.8) ? random.pick(known.userIds) : random.uuid();
    case 'postId':
      return random.chance(0.8) ? random.pick(known.postIds) : random.uuid();
    case 'commentId':
      return random.chance(0.8) ? random.pick(known.commentIds) : random.uuid();
    case 'commentCursor':
      return known.commentCursor;
    case 'queueId':
      return random.chance(0.7) ? known.queueId : random.uuid();
    case 'imageKey':
      return random.chance(0.7) ? known.imageKey : `posts/${random.uuid()}/full.jpg`;
    case 'wallet':
      return known.wallet;
    case 'proof':
      return random.pick(known.proofs);
    case 'count':
      return random.int(0, 1000);
    case 'one':
      return 1;
    case 'postIds':
      return [...known.postIds, random.uuid()];
    case 'decision':
      return random.pick(['approved', 'rejected']);
    case 'reason':
      return random.pick(REPORT_REASONS);
    case 'location':
      return { name: random.word(), lat: random.int(-90, 90), lng: random.int(-180, 180) };
    case 'limit':
      return String(random.int(1, 50));
    case 'timeframe':
      return random.pick(['day', 'week', 'month']);
    case 'cursor':
      return known.cursor;
    case 'initData':
      return random.pick(known.initData);
  }
}

/** A value as the text a path, a query or a form field carries. */
export const asText = (value: unknown) => (typeof value === 'string' ? value : toJson(value));

/** JSON text of a value, with Raw parts placed as they are. */
export function toJson(value: unknown): string {
  if (value instanceof Raw) return value.text;
  if (Array.isArray(value)) return `[${value.map(toJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value).map(([k, v]) => `${JSON.stringify(k)}:${toJson(v)}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** Hostile variants of a wallet proof: the shape right, the bytes wrong. */
export function hostileProof(random: Random, proof: SignInProof): unknown {
  const b64 = (length: number) => Buffer.alloc(length, 7).toString('base64');
  const output = random.pick([
    { signature: '' },
    { signature: b64(1) },
    { signature: b64(63) },
    { signature: b64(65) },
    { signature: '!!!not base64!!!' },
    { publicKey: b64(31) },
    { publicKey: '' },
    { signedMessage: '' },
    { signedMessage: b64(3000) },
    { signature: hostileValue(random) },
  ]);
  const input = random.chance(0.3)
    ? { ...proof.input, nonce: random.pick(SHORT_HOSTILE_STRINGS) }
    : proof.input;
  return { input, output: { ...proof.output, ...output } };
}
