import { randomBytes } from 'node:crypto';
import type { EventEmitter } from 'node:events';
import fs from 'node:fs/promises';
import http from 'node:http';
import net from 'node:net';
import type { Duplex } from 'node:stream';
import type { Server as SocketServer } from 'socket.io';

/** engine.io's path, where every Socket.IO request arrives. */
const SOCKET_PATH = '/socket.io/';
/** A session id names the worker that opened it: `sid=<worker>.<random>`. */
const SESSION_OWNER = /[?&]sid=(\d{1,9})\./;

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
 * session, unchanged, to that worker over a private unix socket (a session of a worker that has
 * gone gets engine.io's own answer to an unknown session, and the client opens a new one).
 * WebSocket sessions, the client's first choice, are one connection and never take this path.
 * Resolves with a function that closes this worker's private socket.
 */
export async function routeSessionsToOwners(
  io: SocketServer,
  server: http.Server,
  owners: SessionOwners,
): Promise<() => Promise<void>> {
  io.engine.generateId = () => `${owners.id}.${randomBytes(15).toString('base64url')}`;
  const ownerOf = (req: http.IncomingMessage): number | null => {
    const url = req.url ?? '';
    if (!url.startsWith(SOCKET_PATH)) return null;
    const owner = SESSION_OWNER.exec(url)?.[1];
    return owner === undefined || Number(owner) === owners.id ? null : Number(owner);
  };
  takeFirst(server, 'request', (req: http.IncomingMessage, res: http.ServerResponse) => {
    const owner = ownerOf(req);
    if (owner === null) return false;
    forwardRequest(req, res, owners.socketPath(owner));
    return true;
  });
  takeFirst(server, 'upgrade', (req: http.IncomingMessage, socket: Duplex, head: Buffer) => {
    const owner = ownerOf(req);
    if (owner === null) return false;
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
  res.writeHead(400, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ code: 1, message: 'Session ID unknown' }));
}

/** Headers of one hop, which each side of the forwarding sets for its own connection. */
const HOP_HEADERS = ['connection', 'keep-alive', 'transfer-encoding'];

function withoutHopHeaders(headers: http.IncomingHttpHeaders): http.OutgoingHttpHeaders {
  const kept: http.OutgoingHttpHeaders = { ...headers };
  for (const name of HOP_HEADERS) delete kept[name];
  return kept;
}

/** Above engine.io's own limit of a polling request (1 MB), which the owner then answers. */
const MAX_FORWARDED_BODY = 2 * 1024 * 1024;

function forwardRequest(req: http.IncomingMessage, res: http.ServerResponse, socketPath: string) {
  const chunks: Buffer[] = [];
  let size = 0;
  req.on('data', (chunk: Buffer) => {
    size += chunk.length;
    if (size > MAX_FORWARDED_BODY) req.destroy();
    else chunks.push(chunk);
  });
  // The whole request goes in one write: the owner answers and closes its end as soon as it has
  // read it, and a write after that (a streamed body's end) would fail the answer it gave.
  req.on('end', () => {
    const body = Buffer.concat(chunks);
    const upstream = http.request(
      {
        socketPath,
        agent: false,
        method: req.method,
        path: req.url,
        headers: {
          ...withoutHopHeaders(req.headers),
          ...(body.length > 0 ? { 'content-length': body.length } : {}),
          connection: 'close',
        },
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, withoutHopHeaders(answer.headers));
        answer.pipe(res);
      },
    );
    upstream.on('error', () => {
      if (res.headersSent) res.destroy();
      else unknownSession(res);
    });
    // A client that leaves a long poll leaves it on the owner too, as if it had come straight there.
    res.on('close', () => {
      if (!res.writableFinished) upstream.destroy();
    });
    upstream.end(body);
  });
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
