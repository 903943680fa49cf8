import type { Endpoint } from './contract';
import type { Random } from './random';
import {
  asText,
  DEEP_OBJECT,
  HOSTILE_STRINGS,
  MEGABYTE_STRING,
  validValue,
  type Known,
} from './values';

const CRLF = '\r\n';

function part(boundary: string, name: string, value: string | Buffer, file?: string): Buffer {
  const disposition = file
    ? `form-data; name="${name}"; filename="${file}"${CRLF}Content-Type: image/jpeg`
    : `form-data; name="${name}"`;
  return Buffer.concat([
    Buffer.from(`--${boundary}${CRLF}Content-Disposition: ${disposition}${CRLF}${CRLF}`),
    Buffer.isBuffer(value) ? value : Buffer.from(value, 'utf8'),
    Buffer.from(CRLF),
  ]);
}

/** A multipart upload for `endpoint`, well-formed or broken in one way. */
export function multipartBody(endpoint: Endpoint, random: Random, known: Known, hostile: boolean) {
  const { file, fields } = endpoint.multipart!;
  const boundary = `----fuzz${random.word(16)}`;
  const values: Record<string, string> = {};
  for (const [key, kind] of Object.entries(fields)) {
    const value = validValue(kind, random, known);
    values[key] = asText(value);
  }
  let image: Buffer = known.jpeg;
  let fileName = 'post.jpg';
  let fileField = file;
  let contentType = `multipart/form-data; boundary=${boundary}`;
  let mutation = 'well-formed';
  const extra: Buffer[] = [];
  const roll = hostile ? random.int(1, 11) : 0;
  const keys = Object.keys(values);
  if (roll === 1 && keys.length > 0) {
    const key = random.pick(keys);
    values[key] = random.pick(HOSTILE_STRINGS);
    mutation = `hostile ${key}`;
  } else if (roll === 2 && 'location' in values) {
    values.location = random.pick([
      '{"name":"\\u0000","lat":1,"lng":2}',
      '{"name":"\\ud800","lat":1,"lng":2}',
      '{"__proto__":{"x":1},"name":"n","lat":1,"lng":2}',
      DEEP_OBJECT.text.slice(0, 15_000),
      '{"name":"n","lat":"1","lng":null}',
      '[1,2]',
      '{',
    ]);
    mutation = 'hostile location';
  } else if (roll === 3) {
    image = Buffer.from(random.pick(['hello', '', '<svg onload=alert(1)>', '\u0000'.repeat(64)]));
    mutation = 'not an image';
  } else if (roll === 4) {
    fileField = random.pick(['other', file === 'image' ? 'avatar' : 'image', '\u0000', '']);
    mutation = 'file in another field';
  } else if (roll === 5) {
    extra.push(part(boundary, file, known.jpeg, 'second.jpg'));
    mutation = 'two files';
  } else if (roll === 6) {
    for (let i = 0; i < 20; i += 1) extra.push(part(boundary, `f${i}`, 'x'));
    mutation = 'too many fields';
  } else if (roll === 7) {
    fileName = random.pick(['../../etc/passwd', 'a\u0000.jpg', '\uD800.jpg', '']);
    mutation = 'hostile file name';
  } else if (roll === 8) {
    contentType = random.pick([
      'multipart/form-data',
      'multipart/form-data; boundary=',
      `multipart/form-data; boundary=${'b'.repeat(200)}`,
      'multipart/form-data; boundary=other',
      'multipart/mixed; boundary=x',
    ]);
    mutation = 'bad boundary';
  } else if (roll === 9 && keys.length > 0) {
    values[random.pick(keys)] = MEGABYTE_STRING;
    mutation = '1 MB field';
  }
  const body = Buffer.concat([
    ...Object.entries(values).map(([key, value]) => part(boundary, key, value)),
    ...extra,
    part(boundary, fileField, image, fileName),
    Buffer.from(`--${boundary}--${CRLF}`),
  ]);
  if (roll === 10) {
    return {
      mutation: 'truncated multipart',
      contentType,
      body: body.subarray(0, random.int(1, body.length - 1)),
    };
  }
  if (roll === 11) {
    return { mutation: 'empty multipart', contentType, body: Buffer.alloc(0) };
  }
  return { mutation, contentType, body };
}
