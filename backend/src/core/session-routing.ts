import { randomBytes } from 'node:crypto';
import type { EventEmitter } from 'node:events';
import fs from 'node:fs/promises';
import http from 'node:http';
import net from 'node:net';
import type { Duplex } from 'node:stream';
import type { Server as SocketServer } from 'socket.io';

/** engine.io's path, where every Socket.IO request arrives. */
const SOCKET_PATH = '/socket.io/';
/** A session id names the worker that opened it: `<worker>.<20 base64url characters>`. */
const SESSION_ID = /^(\d{1,9})\.[\w-]{20}$/;
/**
 * Forwarded requests whose body is on its way through this worker at once. Each holds a few
 * stream buffers of 16 KB at most (the body flows as the owner reads it), so this bounds what
 * forwarding holds in the process to a few tens of megabytes.
 */
const MAX_FORWARDED_BODIES = 1_000;
const BUSY = 'Too many requests under way, try again shortly';

export interface SessionOwners {
  /** This worker's number. */
  id: number;
  /** Where a worker takes the requests of its sessions that reached another worker. */
  socketPath(workerId: number): string;
}

/**
 * Socket.IO's long-polling fallback carries one session over many HTTP requests, which the
 * cluster's round-robin hands to any worker, while only the worker that opened the session holds
 * it. So each session id names its worker, and a worker passes a request for another worker's
 * session, unchanged, to that worker over a private unix socket, its body streamed as the owner
 * reads it. A session id of another form, or of a worker that has gone, gets engine.io's own
 * answer to an unknown session before any of its body is read, and the client opens a new one.
 * WebSocket sessions, the client's first choice, are one connection and never take this path.
 * Resolves with a function that closes this worker's private socket.
 */
export async function routeSessionsToOwners(
  io: SocketServer,
  server: http.Server,
  owners: SessionOwners,
): Promise<() => Promise<void>> {
  io.engine.generateId = () => `${owners.id}.${randomBytes(15).toString('base64url')}`;
  /** Whose session a request is for: this worker's (or none yet), another's, or nobody's. */
  const ownerOf = (req: http.IncomingMessage): number | 'here' | 'nobody' => {
    const url = req.url ?? '';
    if (!url.startsWith(SOCKET_PATH)) return 'here';
    // As engine.io reads it: the last sid of the query counts.
    const sid = new URL(url, 'http://localhost').searchParams.getAll('sid').pop();
    if (sid === undefined) return 'here';
    const owner = SESSION_ID.exec(sid)?.[1];
    if (owner === undefined) return 'nobody';
    return Number(owner) === owners.id ? 'here' : Number(owner);
  };
  const forwarding = new Forwarding(io.engine.opts.maxHttpBufferSize ?? 1e6);
  takeFirst(server, 'request', (req: http.IncomingMessage, res: http.ServerResponse) => {
    const owner = ownerOf(req);
    if (owner === 'here') return false;
    // Answered before a byte of its body is read; the connection closes with the answer.
    if (owner === 'nobody') unknownSession(res);
    else forwarding.forward(req, res, owners.socketPath(owner));
    return true;
  });
  takeFirst(server, 'upgrade', (req: http.IncomingMessage, socket: Duplex, head: Buffer) => {
    const owner = ownerOf(req);
    // engine.io refuses an upgrade of a session it does not hold by itself, reading nothing.
    if (typeof owner !== 'number') return false;
    forwardUpgrade(req, socket, head, owners.socketPath(owner));
    return true;
  });

  // What another worker forwards arrives as a connection of this worker's own HTTP server.
  const inbox = net.createServer((connection) => server.emit('connection', connection));
  const inboxPath = owners.socketPath(owners.id);
  await fs.rm(inboxPath, { force: true });
  await new Promise<void>((resolve, reject) => {
    inbox.once('error', reject);
    // Exclusive: this worker's own socket, not one the cluster's primary shares out.
    inbox.listen({ path: inboxPath, exclusive: true }, () => {
      inbox.off('error', reject);
      resolve();
    });
  });
  return async () => {
    await new Promise<void>((resolve) => inbox.close(() => resolve()));
    await fs.rm(inboxPath, { force: true });
  };
}

/**
 * Puts `take` before the listeners `event` already has (engine.io's, the app's); they run only
 * for what `take` leaves.
 */
function takeFirst<Args extends unknown[]>(
  server: EventEmitter,
  event: string,
  take: (...args: Args) => boolean,
): void {
  const listeners = server.listeners(event) as ((...args: Args) => void)[];
  server.removeAllListeners(event);
  server.on(event, (...args: Args) => {
    if (take(...args)) return;
    for (const listener of listeners) listener.apply(server, args);
  });
}

/** engine.io's answer to a request for a session it does not hold. */
function unknownSession(res: http.ServerResponse) {
  refuse(res, 400, { code: 1, message: 'Session ID unknown' });
}

/**
 * Answers at once, the connection closing with the answer: a body the client is still sending is
 * never read.
 */
function refuse(res: http.ServerResponse, status: number, body?: object) {
  res.writeHead(status, {
    ...(body ? { 'content-type': 'application/json' } : {}),
    connection: 'close',
  });
  res.end(body ? JSON.stringify(body) : undefined);
}

/** Headers of one hop, which each side of the forwarding sets for its own connection. */
const HOP_HEADERS = ['connection', 'keep-alive', 'transfer-encoding'];

function withoutHopHeaders(headers: http.IncomingHttpHeaders): http.OutgoingHttpHeaders {
  const kept: http.OutgoingHttpHeaders = { ...headers };
  for (const name of HOP_HEADERS) delete kept[name];
  return kept;
}

/**
 * Passes requests to the worker that owns their session, streaming a body as the owner reads it
 * (with the length the client gave) instead of holding it. Nothing of it is read before the
 * owner's socket takes the connection (a worker that has gone is answered at once), no more than
 * engine.io's own limit is passed on (then its 413), and at most MAX_FORWARDED_BODIES bodies are
 * under way at once (503 beyond).
 */
class Forwarding {
  private bodies = 0;

  constructor(private readonly maxBody: number) {}

  forward(req: http.IncomingMessage, res: http.ServerResponse, socketPath: string): void {
    const hasBody =
      Number(req.headers['content-length'] ?? 0) > 0 ||
      req.headers['transfer-encoding'] !== undefined;
    if (hasBody) {
      if (this.bodies >= MAX_FORWARDED_BODIES) return refuse(res, 503, { error: BUSY });
      this.bodies += 1;
      res.once('close', () => (this.bodies -= 1));
    }

    // Kept alive: the owner answers as soon as it has read what it needs, before the end of a
    // body for a session it does not hold, and closing then would fail the rest of the body's
    // writes and could lose the answer. This side ends the connection once it is done with it.
    const upstream = http.request({
      socketPath,
      agent: false,
      method: req.method,
      path: req.url,
      headers: { ...withoutHopHeaders(req.headers), connection: 'keep-alive' },
    });
    let answered = false;
    upstream.on('response', (answer) => {
      answered = true;
      // An answer before the whole body: nobody reads the rest, and the client's connection ends.
      const early = !req.complete;
      res.writeHead(answer.statusCode ?? 502, {
        ...withoutHopHeaders(answer.headers),
        ...(early ? { connection: 'close' } : {}),
      });
      answer.on('error', () => res.destroy());
      answer.pipe(res);
      if (early) {
        req.unpipe(upstream);
        res.once('finish', () => upstream.destroy());
      }
    });
    upstream.on('error', () => {
      if (answered) return;
      answered = true;
      // The owner has gone, and its sessions with it: engine.io's answer to an unknown one.
      if (!res.headersSent) unknownSession(res);
      else res.destroy();
    });
    // A client that leaves a long poll leaves it on the owner too, as if it had come straight there.
    res.on('close', () => {
      if (!res.writableFinished) upstream.destroy();
    });

    const send = () => {
      let size = 0;
      const count = (chunk: Buffer) => {
        size += chunk.length;
        if (size <= this.maxBody) return;
        // Past engine.io's own limit: its answer (which the owner may have given already), and
        // none of the rest is read.
        req.off('data', count);
        req.unpipe(upstream);
        if (!answered) refuse(res, 413);
        answered = true;
        upstream.destroy();
      };
      if (hasBody) req.on('data', count);
      req.pipe(upstream);
    };
    upstream.on('socket', (socket) => {
      if (socket.connecting) socket.once('connect', send);
      else send();
    });
  }
}

function forwardUpgrade(
  req: http.IncomingMessage,
  socket: Duplex,
  head: Buffer,
  socketPath: string,
) {
  const upstream = net.connect(socketPath);
  const close = () => {
    socket.destroy();
    upstream.destroy();
  };
  upstream.on('error', close);
  socket.on('error', close);
  upstream.on('close', close);
  socket.on('close', close);
  const lines = [`${req.method} ${req.url} HTTP/${req.httpVersion}`];
  for (let i = 0; i < req.rawHeaders.length; i += 2) {
    lines.push(`${req.rawHeaders[i]}: ${req.rawHeaders[i + 1]}`);
  }
  upstream.write(`${lines.join('\r\n')}\r\n\r\n`);
  if (head.length > 0) upstream.write(head);
  upstream.pipe(socket);
  socket.pipe(upstream);
}
