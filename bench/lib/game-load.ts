import {
  applyBoardsDelta,
  gameEvents,
  type Boards,
  type BoardsDelta,
  type BoardsPush,
  type BoardsSnapshot,
  type CompactTapAck,
  type GameHandshake,
  type TapBatch,
  type TapBatchAck,
} from '@tapgram/shared';
import { io, type Socket } from 'socket.io-client';
import type { LoadProtocol } from './load-protocols';
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

/** A player and their session; a 503 (the game briefly unavailable on a busy box) is retried. */
export async function createPlayer(url: string, name: string): Promise<BenchPlayer> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await createPlayerOnce(url, `${name}${attempt > 1 ? `_${attempt}` : ''}`);
    } catch (error) {
      if (attempt >= 5 || !String(error).includes('503')) throw error;
      await new Promise((r) => setTimeout(r, 1000));
    }
  }
}

async function createPlayerOnce(url: string, name: string): Promise<BenchPlayer> {
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

/** A socket.io-client connection; `listen` adds listeners before it connects (a snapshot comes at once). */
export function connect(
  url: string,
  cookie?: string,
  auth?: GameHandshake,
  listen: (socket: Socket) => void = () => undefined,
): Promise<Socket> {
  const socket = io(url, {
    transports: ['websocket'],
    extraHeaders: cookie ? { cookie } : {},
    reconnection: false,
    forceNew: true,
    ...(auth ? { auth } : {}),
  });
  listen(socket);
  return new Promise((resolve, reject) => {
    socket.once('connect', () => resolve(socket));
    socket.once('connect_error', reject);
  });
}

// Batches are numbered per session, counting up from 1, as the game screen numbers them; the
// load-generator processes hand their last numbers back (see socket-run.ts).
export const lastSeq = new Map<string, number>();

function nextBatch(sessionId: string, count: number): TapBatch {
  const seq = (lastSeq.get(sessionId) ?? 0) + 1;
  lastSeq.set(sessionId, seq);
  return { sessionId, count, seq };
}

function sendTaps(socket: Socket, sessionId: string, count: number) {
  return socket.timeout(30_000).emitWithAck(gameEvents.tap, nextBatch(sessionId, count)) as Promise<
    TapBatchAck | CompactTapAck
  >;
}

/** The player's total points after a counted batch, from a full or a compact acknowledgement. */
function totalPoints(ack: TapBatchAck | CompactTapAck): number | undefined {
  if (!ack.ok) return undefined;
  return 'user' in ack ? ack.user.totalPoints : ack.totalPoints;
}

/** The players' board as a client of `protocol` holds it, from the pushes it is sent. */
function followBoard(
  socket: Socket,
  protocol: LoadProtocol,
  onUsers: (b: Boards) => void,
  onMessage: (payload: unknown) => void,
) {
  if (!protocol.auth?.boards) {
    socket.on(gameEvents.boards, (push: BoardsPush) => {
      onMessage(push);
      const { users, countries, milestone } = push;
      if (users)
        onUsers({
          users,
          countries: countries ?? [],
          milestone: milestone ?? { usersOver100k: 0 },
        });
    });
    return;
  }
  let held: { v: number; boards: Boards } | null = null;
  socket.on(gameEvents.boardsSnapshot, ({ v, ...boards }: BoardsSnapshot) => {
    onMessage({ v, ...boards });
    held = { v, boards };
    onUsers(boards);
  });
  socket.on(gameEvents.boardsDelta, (delta: BoardsDelta) => {
    onMessage(delta);
    if (!held) return;
    if (held.v !== delta.from) {
      held = null;
      socket.emit(gameEvents.watch, { boards: protocol.auth?.boards });
      return;
    }
    held = { v: delta.v, boards: applyBoardsDelta(held.boards, delta) };
    if (delta.users) onUsers(held.boards);
  });
}

/**
 * Push latency, beside the load: a probe player taps once every 500 ms; a watching client of the
 * same protocol times the first push that shows each tap on the board.
 */
export async function measurePushes(options: {
  url: string;
  probe: BenchPlayer;
  protocol: LoadProtocol;
  deadline: number;
}) {
  const { url, probe, protocol, deadline } = options;
  const probeSocket = await connect(url, probe.cookie, protocol.auth);
  const pending = new Map<number, number>();
  const latencies: number[] = [];
  const pushBytes: number[] = [];
  const ackBytes: number[] = [];
  let accepted = 0;
  let unknown = 0;
  const onBoards = ({ users }: Boards) => {
    const points = users.find((u) => u.id === probe.userId)?.totalPoints;
    if (points === undefined) return;
    for (const [expected, sentAt] of pending) {
      if (expected <= points) {
        latencies.push(performance.now() - sentAt);
        pending.delete(expected);
      }
    }
  };
  // The size of each board message, as JSON (what the frame carries, near enough).
  const onMessage = (payload: unknown) => pushBytes.push(JSON.stringify(payload).length);
  const watcher = await connect(
    url,
    undefined,
    protocol.auth?.boards ? { boards: protocol.auth.boards } : undefined,
    (socket) => followBoard(socket, protocol, onBoards, onMessage),
  );
  while (Date.now() < deadline) {
    const sentAt = performance.now();
    const ack = await sendTaps(probeSocket, probe.sessionId, 1).catch(() => null);
    if (ack) ackBytes.push(JSON.stringify(ack).length);
    const points = ack && totalPoints(ack);
    if (points !== undefined && points !== null) {
      accepted += 1;
      pending.set(points, sentAt);
    } else if (!ack || (!ack.ok && (ack.status === 503 || ack.status === 504))) {
      unknown += 1;
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  // The last taps' pushes.
  await new Promise((r) => setTimeout(r, 2500));
  probeSocket.disconnect();
  watcher.disconnect();
  const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / (values.length || 1);
  return {
    accepted,
    unknown,
    push: summarize(latencies),
    missed: pending.size,
    // The first message is the snapshot (or whole boards): the later ones are the steady state.
    pushBytes: Math.round(mean(pushBytes.slice(1))),
    ackBytes: Math.round(mean(ackBytes)),
  };
}

/**
 * Puts the probe at the top of the board, so that every push lists it: unnumbered batches of 100
 * from a few sockets, each within the channel's message rate (10 a second).
 */
export async function boost(url: string, probe: BenchPlayer, taps: number): Promise<number> {
  const SOCKETS = 5;
  let accepted = 0;
  await Promise.all(
    Array.from({ length: SOCKETS }, async (_, k) => {
      const socket = await connect(url, probe.cookie);
      for (let sent = k * 100; sent < taps; sent += SOCKETS * 100) {
        const batch: TapBatch = { sessionId: probe.sessionId, count: 100 };
        const [ack] = await Promise.all([
          socket.timeout(30_000).emitWithAck(gameEvents.tap, batch) as Promise<TapBatchAck>,
          new Promise((r) => setTimeout(r, 110)),
        ]);
        if (ack.ok) accepted += ack.accepted;
      }
      socket.disconnect();
    }),
  );
  return accepted;
}
