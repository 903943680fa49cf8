// One process of the load generator (forked by socket-run.ts): connects its share of the players
// over the lean client and taps for them, then hands back what was acknowledged and how fast.
import { gameEvents, type TapBatch, type TapBatchAck } from '@tapgram/shared';
import { LightSocket } from './light-socket';
import type { LoadProtocol } from './load-protocols';
import { record, type Histogram } from './stats';

export interface WorkerPlayer {
  cookie: string;
  sessionId: string;
  /** The last batch number sent in the session. */
  seq: number;
}

export type ToWorker =
  | { kind: 'connect'; url: string; players: WorkerPlayer[]; protocol: LoadProtocol }
  | { kind: 'run'; startAt: number; seconds: number; tapsPerSecond: number }
  | { kind: 'close' };

export type FromWorker =
  | { kind: 'connected' }
  | {
      kind: 'done';
      accepted: number;
      refused: number;
      /**
       * Taps of batches left unanswered (30 s) or answered 503 or 504 (a Redis call that timed out):
       * the server may have counted them, and the game screen would send them again.
       */
      unknown: number;
      acks: [number, number][];
      /** Each player's last batch number, in the order given. */
      seqs: number[];
    }
  | { kind: 'failed'; error: string };

const send = (message: FromWorker) => process.send?.(message);

let sockets: LightSocket[] = [];
let players: WorkerPlayer[] = [];
let protocol: LoadProtocol;

async function connect(url: string) {
  sockets = [];
  for (let i = 0; i < players.length; i += 100) {
    sockets.push(
      ...(await Promise.all(
        players.slice(i, i + 100).map((p) => LightSocket.connect(url, p.cookie, protocol.auth)),
      )),
    );
  }
}

/**
 * As the game screen does: a batch every window whether or not the last one was answered, with
 * the window's taps (2.5 a window at 10 a second in 250 ms is 2, 3, 2, 3, ...).
 */
async function run(startAt: number, seconds: number, tapsPerSecond: number) {
  const windowMs = protocol.windowMs;
  const windows = Math.round((seconds * 1000) / windowMs);
  const tapsPerBatch = (tapsPerSecond * windowMs) / 1000;
  const acks: Histogram = new Map();
  let accepted = 0;
  let refused = 0;
  let unknown = 0;
  await Promise.all(
    players.map(async (player, i) => {
      const inFlight: Promise<void>[] = [];
      let owed = 0;
      let next = performance.now() + Math.max(0, startAt - Date.now()) + Math.random() * windowMs;
      for (let w = 0; w < windows; w += 1) {
        await new Promise((r) => setTimeout(r, Math.max(0, next - performance.now())));
        next += windowMs;
        owed += tapsPerBatch;
        const count = Math.floor(owed);
        if (count === 0) continue;
        owed -= count;
        player.seq += 1;
        const batch: TapBatch = { sessionId: player.sessionId, count, seq: player.seq };
        const started = performance.now();
        inFlight.push(
          (sockets[i].emitWithAck(gameEvents.tap, batch) as Promise<TapBatchAck>).then(
            (ack) => {
              record(acks, performance.now() - started);
              if (ack.ok) accepted += ack.accepted;
              else if (ack.status === 503 || ack.status === 504) unknown += count;
              else refused += count;
            },
            () => {
              unknown += count;
            },
          ),
        );
      }
      await Promise.all(inFlight);
    }),
  );
  const seqs = players.map((p) => p.seq);
  send({ kind: 'done', accepted, refused, unknown, acks: [...acks], seqs });
}

process.on('message', (message: ToWorker) => {
  const fail = (error: unknown) => send({ kind: 'failed', error: String(error) });
  if (message.kind === 'connect') {
    players = message.players;
    protocol = message.protocol;
    connect(message.url).then(() => send({ kind: 'connected' }), fail);
  } else if (message.kind === 'run') {
    run(message.startAt, message.seconds, message.tapsPerSecond).catch(fail);
  } else {
    for (const socket of sockets) socket.close();
    process.disconnect?.();
  }
});
