import http from 'node:http';
import type { FuzzRequest } from './requests';

export interface FuzzAnswer {
  status: number;
  contentType: string;
  text: string;
}

/**
 * Sends a request exactly as built (no client-side encoding or validation), and reads the whole
 * answer. An answer that arrives before the server read the whole body is still an answer.
 */
export function send(base: URL, agent: http.Agent, request: FuzzRequest): Promise<FuzzAnswer> {
  return new Promise((resolve, reject) => {
    let answered = false;
    const req = http.request(
      {
        host: base.hostname,
        port: base.port,
        method: request.method,
        path: request.path,
        agent,
        headers: {
          ...request.headers,
          ...(request.body ? { 'content-length': String(request.body.length) } : {}),
        },
      },
      (res) => {
        answered = true;
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            contentType: String(res.headers['content-type'] ?? ''),
            text: Buffer.concat(chunks).toString('utf8'),
          }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', (error) => {
      // The server may answer (413, 431) and close before it read what was still being sent.
      if (!answered) reject(error);
    });
    req.end(request.body);
  });
}

/** What an answer must never show: a stack trace, a file of the server, SQL or its errors. */
const LEAKS: [string, RegExp][] = [
  ['a stack trace', /\bat \S+ \(|(\n|\\n)\s+at \S/],
  ['a file path', /\/work\/|node_modules|\.ts:\d|\.js:\d|\/src\//],
  [
    'SQL',
    /\bSELECT\b|\bINSERT\b|\bUPDATE \w+ SET\b|syntax error at|violates|duplicate key|\bpg_|relation "/,
  ],
];

/** Why an answer to `request` is wrong, or null. */
export function problemWith(request: FuzzRequest, answer: FuzzAnswer): string | null {
  if (answer.status >= 500) return `answered ${answer.status}`;
  if (answer.contentType.startsWith('image/')) return null;
  for (const [what, pattern] of LEAKS) {
    if (pattern.test(answer.text)) return `answer shows ${what}`;
  }
  // A page path (a hostile one that lost its /api prefix): the app's own Page Not Found, a 404.
  const page = request.method === 'GET' && !request.path.startsWith('/api/');
  if (page && answer.status === 404 && answer.contentType.startsWith('text/html')) return null;
  // Node's own HTTP parser answers 431 (headers too large) with an empty body, before the app.
  if (answer.status >= 400 && answer.status !== 431) {
    let body: unknown;
    try {
      body = JSON.parse(answer.text);
    } catch {
      return `answered ${answer.status} without a JSON body`;
    }
    if (typeof (body as { error?: unknown })?.error !== 'string')
      return `answered ${answer.status} without {error}`;
  }
  return null;
}

const preview = (text: string, max = 300) => {
  const shown = JSON.stringify(text.length > max ? `${text.slice(0, max)}…` : text);
  return text.length > max ? `${shown} (${text.length} characters)` : shown;
};

/** The request as a reader needs it to reproduce the failure. */
export function describe(request: FuzzRequest, index: number, seed: number): string {
  const body = request.body ? preview(request.body.toString('latin1')) : '(none)';
  return [
    `#${index} (seed ${seed}) ${request.method} ${preview(request.path, 200)} as ${request.identity}: ${request.mutation}`,
    `  headers ${JSON.stringify(request.headers)}`,
    `  body ${body}`,
  ].join('\n');
}

export { preview };
