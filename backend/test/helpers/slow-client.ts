import net from 'node:net';
import { io, type Socket } from 'socket.io-client';

/** The start of the answer a server gives a request it stopped waiting for. */
export const TIMED_OUT = /^HTTP\/1\.1 408 /;

/**
 * Opens a connection to `url`, writes `head` at once and then one character of `drip` (over and
 * over) every 100 ms, as a client on a hopeless link or a slowloris would; resolves with what the
 * server wrote once the server has closed the connection.
 */
export function trickle(url: string, head: string, drip: string): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = net.connect(Number(port), hostname === 'localhost' ? '127.0.0.1' : hostname);
    let received = '';
    let sent = 0;
    let timer: NodeJS.Timeout | undefined;
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (received += chunk));
    // A write racing the server's close may fail: the close is what the caller waits for.
    socket.on('error', () => undefined);
    socket.once('connect', () => {
      socket.write(head);
      timer = setInterval(() => socket.write(drip[sent++ % drip.length]), 100);
    });
    socket.once('close', () => {
      clearInterval(timer);
      resolve(received);
    });
  });
}

/** A request whose headers arrive whole and whose JSON body then trickles in (use with `trickle`). */
export const slowBody = (path: string) =>
  `POST ${path} HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 4000\r\n\r\n{"x":"`;
/** The start of a request whose headers trickle in and never end (use with `trickle`). */
export const slowHeaders = (path: string) => `GET ${path} HTTP/1.1\r\nHost: localhost\r\n`;

/** A game-channel client on `transports` only, with the player's cookie. */
export async function channelOver(
  url: string,
  cookie: string,
  transports: ('websocket' | 'polling')[],
): Promise<Socket> {
  const socket = io(url, {
    transports,
    extraHeaders: { Cookie: cookie },
    reconnection: false,
    forceNew: true,
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('connect_error', reject);
  });
  return socket;
}

/**
 * The server's next heartbeat on `socket`, 25 s after the last: on long-polling, the request that
 * carries it was held open that long. Fails if the connection drops first.
 */
export const nextPing = (socket: Socket) =>
  new Promise<void>((resolve, reject) => {
    socket.io.once('ping', () => resolve());
    socket.once('disconnect', (reason) => reject(new Error(`disconnected: ${reason}`)));
  });
