// One process of the reconnect-storm load generator (forked by reconnect-storm.bench.ts): its
// share of the players, each on a lean game-channel socket that taps as the game screen does (one
// numbered batch a second), keeps every batch until it is acknowledged, and when its connection
// drops comes back as the game screen's socket.io-client does: jittered exponential backoff (1 s,
// doubling to 5 s, ±50 %), a handshake refused 503 counted and retried, the boards' snapshot of
// the new handshake awaited (resynced), then every batch not acknowledged sent again under its
// number (the server counts each number once).
import { gameEvents, type GameHandshake, type TapBatch } from '@tapgram/shared';
import WebSocket from 'ws';
import { record, type Histogram } from './stats';

export interface StormPlayer {
  cookie: string;
  sessionId: string;
}

export type ToStorm =
  | { kind: 'connect'; url: string; players: StormPlayer[]; auth: GameHandshake }
  | { kind: 'run'; seconds: number }
  /** The cut happened at `at` (Date.now()): a restart of the server. */
  | { kind: 'cut'; at: number }
  /** Every socket of this process dropped at once, the server staying up. */
  | { kind: 'drop'; at: number }
  | { kind: 'close' };

export type FromStorm =
  | { kind: 'connected' }
  | {
      kind: 'done';
      /** Taps of batches acknowledged as counted (each batch once). */
      accepted: number;
      /** Batches never acknowledged by the end (their taps may or may not be counted). */
      unacknowledgedTaps: number;
      acks: [number, number][];
      /** Acknowledgements that arrived after the cut. */
      stormAcks: [number, number][];
      /** Per player: ms from the cut until reconnected and resynced (-1: never). */
      resyncedAfterMs: number[];
      handshakes503: number;
      handshakesFailed: number;
      taps503: number;
    }
  | { kind: 'failed'; error: string };

const send = (message: FromStorm) => process.send?.(message);
const FIRST_MS = 1000;
const LONGEST_MS = 5000;
const TAP_RETRY_MS = 2000;

const totals = { handshakes503: 0, handshakesFailed: 0, taps503: 0 };
let cutAt = Infinity;
const acks: Histogram = new Map();
const stormAcks: Histogram = new Map();

interface Batch {
  seq: number;
  count: number;
  sentAt: number;
  acknowledged: boolean;
}

class StormSocket {
  private ws: WebSocket | null = null;
  connected = false;
  private attempt = 0;
  private nextAck = 0;
  private readonly inFlight = new Map<number, Batch>();
  /** The batch on its way (sent, not yet acknowledged): the next waits for it, as on the game screen. */
  private current: Batch | null = null;
  /** Taps not yet in a batch. */
  private owed = 0;
  private seq = 0;
  accepted = 0;
  resyncedAt = -1;
  /** Cut, and not yet connected again. */
  private cutPending = false;
  /** Connected again after the cut, the boards' snapshot not yet in. */
  private awaitingResync = false;
  private closing = false;
  private onConnected: (() => void) | null = null;

  constructor(
    private readonly url: string,
    private readonly player: StormPlayer,
    private readonly auth: GameHandshake,
  ) {}

  open(): Promise<void> {
    return new Promise((resolve) => {
      this.onConnected = resolve;
      this.connect();
    });
  }

  private connect() {
    if (this.closing) return;
    const ws = new WebSocket(
      `${this.url.replace(/^http/, 'ws')}/socket.io/?EIO=4&transport=websocket`,
      {
        headers: { cookie: this.player.cookie },
        perMessageDeflate: false,
      },
    );
    this.ws = ws;
    ws.on('unexpected-response', (_req, res) => {
      if (res.statusCode === 503) totals.handshakes503 += 1;
      else totals.handshakesFailed += 1;
      res.resume();
      ws.terminate();
    });
    ws.on('error', () => undefined);
    ws.on('close', () => {
      if (this.ws !== ws) return;
      this.ws = null;
      this.connected = false;
      this.inFlight.clear();
      this.retryLater();
    });
    ws.on('message', (data: Buffer) => this.receive(ws, data));
  }

  /** socket.io-client's backoff: 1 s × 2^attempt, at most 5 s, each ±50 % at random. */
  private retryLater() {
    if (this.closing) return;
    const base = Math.min(LONGEST_MS, FIRST_MS * 2 ** this.attempt);
    this.attempt += 1;
    setTimeout(() => this.connect(), base * (0.5 + Math.random()));
  }

  private receive(ws: WebSocket, data: Buffer) {
    if (data[0] === 0x30) {
      ws.send(`40${JSON.stringify(this.auth)}`);
    } else if (data[0] === 0x34 && data[1] === 0x30) {
      this.connected = true;
      this.attempt = 0;
      if (this.cutPending) {
        this.cutPending = false;
        this.awaitingResync = true;
      }
      this.onConnected?.();
      this.onConnected = null;
      // The batch not acknowledged goes again under its number, or the taps owed in a new one.
      if (this.current) this.send(this.current);
      else this.next();
    } else if (data[0] === 0x34 && data[1] === 0x34) {
      // Refused by a middleware: a failed attempt, retried.
      totals.handshakesFailed += 1;
      ws.terminate();
    } else if (data.length === 1 && data[0] === 0x32) {
      ws.send('3');
    } else if (data[0] === 0x34 && data[1] === 0x33) {
      const text = data.toString();
      const start = text.indexOf('[');
      const id = Number(text.slice(2, start));
      const [ack] = JSON.parse(text.slice(start)) as [{ ok: boolean; status?: number }];
      const batch = this.inFlight.get(id);
      this.inFlight.delete(id);
      if (batch) this.settle(batch, ack);
    } else if (data[0] === 0x34 && data[1] === 0x32 && this.awaitingResync) {
      // The boards' snapshot of the new handshake: the screen shows the boards again.
      this.awaitingResync = false;
      this.resyncedAt = Date.now();
    }
  }

  private settle(batch: Batch, ack: { ok: boolean; status?: number }) {
    const now = performance.now();
    record(acks, now - batch.sentAt);
    if (Date.now() >= cutAt) record(stormAcks, now - batch.sentAt);
    if (ack.ok) {
      if (!batch.acknowledged) this.accepted += batch.count;
      batch.acknowledged = true;
      if (this.current === batch) this.current = null;
      this.next();
      return;
    }
    if (ack.status === 503) totals.taps503 += 1;
    // Kept, and sent again after a jittered wait (the game screen's 503 and 504 answer).
    setTimeout(
      () => {
        if (!batch.acknowledged && this.connected) this.send(batch);
      },
      TAP_RETRY_MS * (0.5 + Math.random() / 2),
    );
  }

  private send(batch: Batch) {
    if (!this.ws || !this.connected) return;
    const id = this.nextAck++;
    this.inFlight.set(id, batch);
    batch.sentAt = performance.now();
    const payload: TapBatch = {
      sessionId: this.player.sessionId,
      count: batch.count,
      seq: batch.seq,
    };
    this.ws.send(`42${id}${JSON.stringify([gameEvents.tap, payload])}`);
  }

  tap(count: number) {
    this.owed += count;
    this.next();
  }

  /** The taps owed go as the session's next batch, once the one before is acknowledged. */
  private next() {
    if (this.current || this.owed === 0 || !this.connected) return;
    this.seq += 1;
    this.current = { seq: this.seq, count: this.owed, sentAt: 0, acknowledged: false };
    this.owed = 0;
    this.send(this.current);
  }

  /** The connection is cut (by the server or by `drop`): resynced once a snapshot comes. */
  cut() {
    this.cutPending = true;
  }

  drop() {
    this.cut();
    this.ws?.terminate();
  }

  get unacknowledgedTaps() {
    return (this.current?.count ?? 0) + this.owed;
  }

  close() {
    this.closing = true;
    this.ws?.terminate();
  }
}

let sockets: StormSocket[] = [];

async function run(seconds: number) {
  const windows = seconds;
  await Promise.all(
    sockets.map(async (socket) => {
      let next = performance.now() + Math.random() * 1000;
      for (let w = 0; w < windows; w += 1) {
        await new Promise((r) => setTimeout(r, Math.max(0, next - performance.now())));
        next += 1000;
        socket.tap(10);
      }
    }),
  );
  // What is still unacknowledged gets until every player has resynced and 30 s more.
  const deadline = performance.now() + 30_000;
  while (
    performance.now() < deadline &&
    sockets.some((s) => s.unacknowledgedTaps > 0 || (cutAt < Infinity && s.resyncedAt < 0))
  ) {
    await new Promise((r) => setTimeout(r, 200));
  }
  send({
    kind: 'done',
    accepted: sockets.reduce((n, s) => n + s.accepted, 0),
    unacknowledgedTaps: sockets.reduce((n, s) => n + s.unacknowledgedTaps, 0),
    acks: [...acks],
    stormAcks: [...stormAcks],
    resyncedAfterMs: sockets.map((s) => (s.resyncedAt < 0 ? -1 : s.resyncedAt - cutAt)),
    ...totals,
  });
}

process.on('message', (message: ToStorm) => {
  const fail = (error: unknown) => send({ kind: 'failed', error: String(error) });
  if (message.kind === 'connect') {
    sockets = message.players.map((p) => new StormSocket(message.url, p, message.auth));
    (async () => {
      for (let i = 0; i < sockets.length; i += 100) {
        await Promise.all(sockets.slice(i, i + 100).map((s) => s.open()));
      }
    })().then(() => send({ kind: 'connected' }), fail);
  } else if (message.kind === 'run') {
    run(message.seconds).catch(fail);
  } else if (message.kind === 'cut') {
    cutAt = message.at;
    for (const socket of sockets) socket.cut();
  } else if (message.kind === 'drop') {
    cutAt = message.at;
    for (const socket of sockets) socket.drop();
  } else {
    for (const socket of sockets) socket.close();
    process.disconnect?.();
  }
});
