import { gameEvents, type BoardsPush, type TapBatch, type TapBatchAck } from '@tapgram/shared';
import { io, type Socket } from 'socket.io-client';
import { LightSocket } from './light-socket';
import { summarize } from './stats';

export interface BenchPlayer {
  userId: string;
  sessionId: string;
  cookie: string;
}

async function json<T>(res: Response): Promise<T> {
  if (!res.ok) throw new Error(`${res.status}: ${await res.text()}`);
  return (await res.json()) as T;
}

export async function createPlayer(url: string, name: string): Promise<BenchPlayer> {
  const res = await fetch(`${url}/api/users`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      username: name,
      country: ['GB', 'US', 'DE', 'JP', 'BR'][name.length % 5],
    }),
  });
  const cookie = (res.headers.get('set-cookie') ?? '').split(';')[0];
  const user = await json<{ id: string }>(res);
  const session = await json<{ id: string }>(
    await fetch(`${url}/api/sessions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie },
      body: JSON.stringify({ userId: user.id }),
    }),
  );
  return { userId: user.id, sessionId: session.id, cookie };
}

export async function createPlayers(
  url: string,
  count: number,
  prefix: string,
): Promise<BenchPlayer[]> {
  const players: BenchPlayer[] = [];
  for (let i = 0; i < count; i += 50) {
    const chunk = Array.from({ length: Math.min(50, count - i) }, (_, j) =>
      createPlayer(url, `${prefix}_player_${i + j}`),
    );
    players.push(...(await Promise.all(chunk)));
  }
  return players;
}

export function connect(url: string, cookie?: string): Promise<Socket> {
  const socket = io(url, {
    transports: ['websocket'],
    extraHeaders: cookie ? { cookie } : {},
    reconnection: false,
    forceNew: true,
  });
  return new Promise((resolve, reject) => {
    socket.once('connect', () => resolve(socket));
    socket.once('connect_error', reject);
  });
}

/** The simulated players' connections (the light client; see light-socket.ts). */
export async function connectAll(url: string, players: BenchPlayer[]): Promise<LightSocket[]> {
  const sockets: LightSocket[] = [];
  for (let i = 0; i < players.length; i += 100) {
    sockets.push(
      ...(await Promise.all(
        players.slice(i, i + 100).map((p) => LightSocket.connect(url, p.cookie)),
      )),
    );
  }
  return sockets;
}

// Batches are numbered per session, counting up from 1, as the game screen numbers them.
const lastSeq = new Map<string, number>();

function nextBatch(sessionId: string, count: number): TapBatch {
  const seq = (lastSeq.get(sessionId) ?? 0) + 1;
  lastSeq.set(sessionId, seq);
  return { sessionId, count, seq };
}

function sendTaps(socket: Socket | LightSocket, sessionId: string, count: number) {
  const batch = nextBatch(sessionId, count);
  return (
    socket instanceof LightSocket
      ? socket.emitWithAck(gameEvents.tap, batch)
      : socket.timeout(30_000).emitWithAck(gameEvents.tap, batch)
  ) as Promise<TapBatchAck>;
}

/**
 * Every player taps `tapsPerSecond` in batches every `batchMs`, for `seconds`; a probe player's
 * taps are timed until the leaderboard push that shows them reaches a watching client.
 */
export async function runSocketLoad(options: {
  url: string;
  players: BenchPlayer[];
  sockets: LightSocket[];
  probe: BenchPlayer;
  tapsPerSecond: number;
  batchMs: number;
  seconds: number;
}) {
  const { players, sockets, probe, batchMs, seconds } = options;
  const tapsPerBatch = (options.tapsPerSecond * batchMs) / 1000;
  const ackLatencies: number[] = [];
  let accepted = 0;
  let refused = 0;
  const deadline = Date.now() + seconds * 1000;

  // As the game screen does: a batch every window whether or not the last one was answered, with
  // the window's taps (2.5 a window at 10 a second in 250 ms is 2, 3, 2, 3, ...).
  const loops = players.map(async (player, i) => {
    const inFlight: Promise<void>[] = [];
    let owed = 0;
    let next = performance.now() + Math.random() * batchMs;
    while (Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, Math.max(0, next - performance.now())));
      next += batchMs;
      owed += tapsPerBatch;
      const count = Math.floor(owed);
      if (count === 0) continue;
      owed -= count;
      const started = performance.now();
      inFlight.push(
        sendTaps(sockets[i], player.sessionId, count).then(
          (ack) => {
            ackLatencies.push(performance.now() - started);
            if (ack.ok) accepted += ack.accepted;
            else refused += count;
          },
          () => {
            refused += count;
          },
        ),
      );
    }
    await Promise.all(inFlight);
  });

  // The probe: one tap every 500 ms; the watcher times the push that shows each one.
  const probeSocket = await connect(options.url, probe.cookie);
  const watcher = await connect(options.url);
  const pending = new Map<number, number>();
  const pushLatencies: number[] = [];
  watcher.on(gameEvents.boards, ({ users }: BoardsPush) => {
    const points = users?.find((u) => u.id === probe.userId)?.totalPoints;
    if (points === undefined) return;
    for (const [expected, sentAt] of pending) {
      if (expected <= points) {
        pushLatencies.push(performance.now() - sentAt);
        pending.delete(expected);
      }
    }
  });
  const probeLoop = (async () => {
    while (Date.now() < deadline) {
      const sentAt = performance.now();
      const ack = await sendTaps(probeSocket, probe.sessionId, 1);
      if (ack.ok) {
        accepted += 1;
        pending.set(ack.user.totalPoints, sentAt);
      }
      await new Promise((r) => setTimeout(r, 500));
    }
  })();

  await Promise.all([...loops, probeLoop]);
  await new Promise((r) => setTimeout(r, 2500));
  probeSocket.disconnect();
  watcher.disconnect();
  return {
    accepted,
    refused,
    tapsPerSecond: accepted / seconds,
    ack: summarize(ackLatencies),
    push: summarize(pushLatencies),
    pushesMissed: pending.size,
  };
}

/** Puts the probe at the top of the board, so that every push lists it. */
export async function boost(url: string, probe: BenchPlayer, taps: number): Promise<number> {
  const socket = await connect(url, probe.cookie);
  let accepted = 0;
  for (let sent = 0; sent < taps; sent += 100) {
    const ack = await sendTaps(socket, probe.sessionId, 100);
    if (ack.ok) accepted += ack.accepted;
  }
  socket.disconnect();
  return accepted;
}
