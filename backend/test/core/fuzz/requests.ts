import type { Endpoint, Kind } from './contract';
import { multipartBody } from './multipart';
import type { Random } from './random';
import {
  asText,
  DEEP_ARRAY,
  DEEP_OBJECT,
  HOSTILE_STRINGS,
  hostileProof,
  hostileValue,
  MEGABYTE_STRING,
  SHORT_HOSTILE_STRINGS,
  toJson,
  validValue,
  type Known,
} from './values';

export type Identity = 'anonymous' | 'user' | 'admin' | 'forged';

export interface FuzzRequest {
  method: string;
  /** As sent on the request line: already percent-encoded (or deliberately not). */
  path: string;
  headers: Record<string, string>;
  body?: Buffer;
  identity: Identity;
  /** What was done to the request, for the failure report. */
  mutation: string;
}

/** Percent-encodes every byte of the UTF-8 text (lone surrogates become U+FFFD, as Node sends). */
const encode = (text: string) =>
  [...Buffer.from(text, 'utf8')]
    .map((byte) =>
      /[A-Za-z0-9_.~-]/.test(String.fromCharCode(byte))
        ? String.fromCharCode(byte)
        : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`,
    )
    .join('');

/** Path segments and query values sent as they are: NUL, bad UTF-8, broken percent-encoding. */
const RAW_SEGMENTS = [
  '%00',
  'abc%00',
  '%FF',
  '%FF%FE',
  '%E0%A4%A',
  '%',
  '%ZZ',
  '%C0%80',
  '%C0%AF',
  '%ED%A0%80',
  '%F4%90%80%80',
  'a%2Fb',
  '..%2F..%2Fx',
  '%2e%2e',
  '%25',
  'null',
  '-1',
  '1e999',
  '%F0%9F%98%82',
  '%E2%80%AE',
  'x'.repeat(3000),
];
const HUGE_SEGMENT = 'y'.repeat(1024 * 1024);

const MALFORMED_JSON = [
  '{',
  '{"a":',
  "{'a':1}",
  '{"a":1,}',
  '[1,]',
  'nul',
  '\u0000',
  '{"a":"\u0000"}',
  '{"a":"\\ud800"}',
  '{"username":"a","username":{"x":1}}',
  '{"__proto__":{"isAdmin":true},"constructor":{"prototype":{"isAdmin":true}}}',
  '"just a string"',
  '12',
  'null',
  'true',
  '[]',
  '[{"a":1}]',
  DEEP_ARRAY.text,
  DEEP_OBJECT.text,
  `{"a":"${MEGABYTE_STRING}"}`,
];

/** {"a":"<FF FE C0 80>"}: bytes that are no UTF-8. */
const BAD_UTF8 = Buffer.from([
  0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0xc0, 0x80, 0x22, 0x7d,
]);

const CONTENT_TYPES = [
  'text/plain',
  'application/x-www-form-urlencoded',
  'application/json; charset=utf-16',
  'application/json; charset=latin1',
  'application/xml',
  'multipart/form-data',
];

function hostileSegment(random: Random): string {
  if (random.chance(0.4)) return encode(random.pick(SHORT_HOSTILE_STRINGS));
  return random.chance(0.03) ? HUGE_SEGMENT : random.pick(RAW_SEGMENTS);
}

/** An image key keeps its slashes: it is one parameter over several segments. */
const encodeValue = (kind: string, value: unknown) =>
  kind === 'imageKey' ? asText(value).split('/').map(encode).join('/') : encode(asText(value));

function fillPath(endpoint: Endpoint, random: Random, known: Known, hostile: boolean): string {
  const slots = [...endpoint.path.matchAll(/\{(\w+)\}/g)].length;
  if (hostile && slots === 0) {
    // No parameter: the bad text goes into the route's own segments.
    const segments = endpoint.path.split('/');
    const at = random.int(1, segments.length);
    segments.splice(at, at === segments.length ? 0 : 1, hostileSegment(random));
    return segments.join('/');
  }
  const target = hostile ? random.int(0, slots - 1) : -1;
  let index = 0;
  return endpoint.path.replace(/\{(\w+)\}/g, (_, kind: string) =>
    index++ === target
      ? hostileSegment(random)
      : encodeValue(kind, validValue(kind as Kind, random, known)),
  );
}

function query(endpoint: Endpoint, random: Random, known: Known, hostile: boolean): string {
  if (hostile && !endpoint.query) return `?${random.pick(RAW_SEGMENTS)}=${hostileSegment(random)}`;
  const pairs = Object.entries(endpoint.query ?? {})
    .filter(() => !hostile || random.chance(0.7))
    .map(([key, kind]) => {
      if (!hostile || random.chance(0.3))
        return `${key}=${encode(asText(validValue(kind, random, known)))}`;
      return `${key}=${random.chance(0.5) ? random.pick(RAW_SEGMENTS) : encode(asText(hostileValue(random)))}`;
    });
  if (hostile && random.chance(0.5)) {
    pairs.push(
      random.pick([
        '__proto__[isAdmin]=1',
        'constructor[prototype][x]=1',
        'limit=1&limit=2',
        'limit[]=3',
        '%FF=%FF',
        '%E0%A4%A=1',
        'limit',
        '=',
      ]),
    );
  }
  return pairs.length > 0 ? `?${pairs.join('&')}` : '';
}

function jsonFields(fields: Record<string, Kind>, random: Random, known: Known) {
  const body: Record<string, unknown> = {};
  for (const [key, kind] of Object.entries(fields)) body[key] = validValue(kind, random, known);
  return body;
}

function jsonBody(endpoint: Endpoint, random: Random, known: Known, hostile: boolean) {
  const fields = endpoint.json ?? {};
  const body = jsonFields(fields, random, known);
  const keys = Object.keys(fields);
  const roll = hostile ? random.int(1, 11) : 0;
  if (roll === 0) return { mutation: 'well-formed', text: toJson(body) };
  if (roll <= 5 && keys.length > 0) {
    const key = random.pick(keys);
    body[key] =
      fields[key] === 'proof'
        ? hostileProof(random, random.pick(known.proofs))
        : roll <= 3
          ? random.pick(HOSTILE_STRINGS)
          : hostileValue(random);
    return { mutation: `hostile ${key}`, text: toJson(body) };
  }
  if (roll === 6) {
    for (const key of keys) body[key] = hostileValue(random);
    return { mutation: 'every field hostile', text: toJson(body) };
  }
  if (roll === 7) {
    const key = random.pick(['__proto__', 'constructor', 'prototype', 'isAdmin', 'role']);
    const extra = `{"${key}":{"isAdmin":true,"role":"admin","polluted":true}`;
    const rest = toJson(body).slice(1);
    return { mutation: `extra ${key} key`, text: rest === '}' ? `${extra}}` : `${extra},${rest}` };
  }
  if (roll === 8 && keys.length > 0) {
    delete body[random.pick(keys)];
    return { mutation: 'missing field', text: toJson(body) };
  }
  return { mutation: 'malformed JSON body', text: random.pick(MALFORMED_JSON) };
}

const FORGED_COOKIES = [
  'lg_session=%00',
  'lg_session=%FF%FE',
  `lg_session=${'z'.repeat(4000)}`,
  'tg_player=s%3Aabc.def',
  'tg_player=j%3A%7B%22__proto__%22%3A%7B%22x%22%3A1%7D%7D',
  'tg_player=%ED%A0%80; lg_session=j%3A%5B1%5D',
  'lg_session=a; lg_session=b; tg_player=',
];

/** One request to `endpoint`, mutated by the generator: the same seed gives the same request. */
export function buildRequest(
  endpoint: Endpoint,
  random: Random,
  known: Known,
  cookies: Record<'user' | 'admin', string>,
): FuzzRequest {
  const identities: Identity[] = endpoint.signsIn
    ? ['anonymous', 'forged']
    : ['anonymous', 'user', 'admin', 'forged'];
  const identity = random.pick(identities);
  const headers: Record<string, string> = {
    // A fresh address per request, through a trusted proxy: per-address limits do not turn the
    // run into 429s, and the handlers behind them are reached.
    'x-forwarded-for': `10.${random.int(0, 255)}.${random.int(0, 255)}.${random.int(1, 254)}`,
  };
  if (identity === 'user' || identity === 'admin') headers.cookie = cookies[identity];
  if (identity === 'forged') headers.cookie = random.pick(FORGED_COOKIES);
  if (random.chance(0.03)) headers.origin = random.pick(['null', 'https://evil.example', '%FF']);

  // One part of the request is hostile (or none): the rest is well-formed, so that the bad part
  // reaches as far into the handler as it can.
  const hasBody = Boolean(endpoint.json ?? endpoint.multipart);
  const focus = random.pick([
    'none',
    'none',
    'path',
    'path',
    'query',
    ...(hasBody ? ['body', 'body', 'body', 'body'] : ['body']),
  ] as const);
  const path =
    fillPath(endpoint, random, known, focus === 'path') +
    query(endpoint, random, known, focus === 'query');
  const request = (mutation: string, contentType?: string, body?: Buffer): FuzzRequest => ({
    method: endpoint.method,
    path,
    headers: contentType ? { ...headers, 'content-type': contentType } : headers,
    body,
    identity,
    mutation: focus === 'path' || focus === 'query' ? `hostile ${focus}` : mutation,
  });

  const hostileBody = focus === 'body';
  if (endpoint.multipart && (!hostileBody || random.chance(0.85))) {
    const { mutation, contentType, body } = multipartBody(endpoint, random, known, hostileBody);
    return request(mutation, contentType, body);
  }
  if (!endpoint.json && !hostileBody) return request('no body');
  const { mutation, text } = jsonBody(endpoint, random, known, hostileBody);
  if (!hostileBody) return request(mutation, 'application/json', Buffer.from(text, 'utf8'));
  if (random.chance(0.04)) return request('bad UTF-8 body', 'application/json', BAD_UTF8);
  const contentType = random.chance(0.9) ? 'application/json' : random.pick(CONTENT_TYPES);
  const described = contentType === 'application/json' ? mutation : `${mutation} as ${contentType}`;
  return request(described, contentType, Buffer.from(text, 'utf8'));
}
