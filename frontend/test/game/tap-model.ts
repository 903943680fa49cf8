import {
  gameEvents,
  messages,
  TapBucket,
  type CompactTapAck,
  type GameUser,
  type TapAllowance,
  type TapBatch,
  type TapSync,
  type TapSyncAck,
} from '@tapgram/shared';
import { vi } from 'vitest';
import type { Player } from '../../src/features/game/game-api';
import type { TapSenderOptions } from '../../src/features/game/taps/tap-sender';
import { ApiError } from '../../src/lib/api';
import { checkedSocketAnswer } from '../socket-answers';
import { makeGameSession, makeGameUser } from './builders';

/*
 * The model the randomized tests of the game screen's taps run against (tap-sender-model.test.ts,
 * shown-counters-model.test.tsx): a fake of the server's tap rules (Postgres mode:
 * backend/src/game/postgres-store.ts, repository.ts `addTaps`, service.ts, tap-handlers.ts,
 * core/socket-limit.ts) and of socket.io's client (acks with a timeout, rejected on disconnect;
 * emits buffered while the ping has expired and sent on the next connection; packets sent into a
 * connection whose network is gone stall, and arrive if the network comes back before the ping
 * times out), of HTTP (POST /api/tap, GET of the player, POST of a session), a manual clock, and
 * the scenario every seed plays: a finger tapping at random rates while the network, HTTP or the
 * server fail in turn, then a quiet phase in which everything heals.
 */

/** A seeded PRNG (mulberry32): every seed is one deterministic scenario. */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// ---------------------------------------------------------------------------------------------
// A manual clock: one timer at a time, every microtask run between two timers (as in a browser).
// Vitest's fake timers either run timers due at the same millisecond back to back without the
// promises between them (advanceTimersToNextTimer) or wait a real millisecond per timer (the
// async forms), too slow for hundreds of seeds.
// ---------------------------------------------------------------------------------------------

const realSetImmediate = globalThis.setImmediate;
/** Runs every microtask queued (a macrotask comes after all of them). */
const drain = () => new Promise<void>((resolve) => realSetImmediate(resolve));

interface Timer {
  id: number;
  at: number;
  order: number;
  run: () => void;
}

/** The page's time: setTimeout, clearTimeout and Date.now, once installed. */
export class ManualClock {
  now = 1_700_000_000_000;
  private readonly timers = new Map<number, Timer>();
  private nextId = 1;
  private order = 0;
  /** How many timers have run. */
  ran = 0;
  /** Called after every timer, once its microtasks have run (the page renders then). */
  onStep: (() => void) | null = null;

  /** Stands in for setTimeout, clearTimeout and Date.now (undone by restoreGlobals). */
  install() {
    vi.stubGlobal('setTimeout', (handler: () => void, ms = 0) => this.set(handler, ms));
    vi.stubGlobal('clearTimeout', (id?: number | null) => {
      if (id != null) this.timers.delete(id);
    });
    vi.spyOn(Date, 'now').mockImplementation(() => this.now);
  }

  /** A timer: `run` in `ms` (after the timers due before it, or at the same time and set first). */
  set(run: () => void, ms: number): number {
    const id = this.nextId++;
    const delay = Math.max(0, Math.round(Number(ms) || 0));
    this.timers.set(id, { id, at: this.now + delay, order: this.order++, run });
    return id;
  }

  /** Runs the timers due up to `ms` from now, one by one, draining the microtasks after each. */
  async advance(ms: number): Promise<void> {
    const end = this.now + Math.round(ms);
    await drain();
    for (;;) {
      let next: Timer | undefined;
      for (const timer of this.timers.values()) {
        if (!next || timer.at < next.at || (timer.at === next.at && timer.order < next.order)) {
          next = timer;
        }
      }
      if (!next || next.at > end) break;
      this.timers.delete(next.id);
      this.ran += 1;
      this.now = next.at;
      next.run();
      await drain();
      this.onStep?.();
    }
    this.now = end;
  }
}

/** Undoes what a seed installed: the clock's stubs and the seeded Math.random. */
export function restoreGlobals() {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
}

// ---------------------------------------------------------------------------------------------
// The server's rules for taps, Postgres mode.
// ---------------------------------------------------------------------------------------------

/** The player's tap allowance, as the server announces it. */
export const ALLOWANCE: TapAllowance = { perSecond: 20, burst: 40 };
/** The server's 429 for taps beyond the allowance. */
export const TOO_FAST = 'Tapping too fast: slow down a little';
const UNAVAILABLE = 'The game is briefly unavailable, try again in a moment';
const TOO_MANY_MESSAGES = 'Too many messages, slow down';
const LOST = 'Some acknowledged taps were lost by the server: send them again';

type TapOutcome =
  | { kind: 'ok'; counted: boolean; sessionId: string }
  | { kind: 'frozen' }
  | { kind: 'lost'; seq: number }
  | { kind: 'rate'; retryAfterMs: number | null }
  | { kind: 'unavailable' };

interface SentTaps {
  sessionId: string;
  count: number;
  seq?: number;
  after?: number;
  key?: string;
}

/** The server's store of taps and its answers to them. */
export class FakeServer {
  /** The player's allowance (TokenBuckets in postgres-store.ts, in memory: new after a restart). */
  bucket = new TapBucket(ALLOWANCE);
  /** Each session's last_seq; durableSeq is the same in Postgres mode. */
  readonly lastSeq = new Map<string, number>();
  /** Each session's taps counted. */
  readonly sessionTaps = new Map<string, number>();
  /** (session, key) of the keyed taps counted (game_tap_keys). */
  readonly keys = new Set<string>();
  /** (session, seq) of the batches counted: each may count once. */
  readonly countedSeqs = new Set<string>();
  /** The batches counted a second time (never, if the sender is right). */
  readonly doubles: string[] = [];
  /** The player's taps counted. */
  total = 0;
  /** Answers 503 (the game briefly unavailable, or over capacity). */
  down = false;
  /** An operator froze the player: every tap is refused (403), nothing counted. */
  frozen = false;

  /** The session's last_seq (0 before its first batch). */
  last(sessionId: string): number {
    return this.lastSeq.get(sessionId) ?? 0;
  }

  /** PostgresGameStore.tap and notCounted, with GameRepository.addTaps's condition. */
  tap({ sessionId, count, seq = 0, after = 0, key }: SentTaps): TapOutcome {
    if (this.down) return { kind: 'unavailable' };
    if (this.frozen) return { kind: 'frozen' };
    const last = this.last(sessionId);
    const keyName = key === undefined ? undefined : `${sessionId}@${key}`;
    const taken = this.bucket.take(count);
    if (taken) {
      const counts =
        seq === 0 ? keyName === undefined || !this.keys.has(keyName) : last < seq && last >= after;
      if (counts) {
        if (seq > 0) {
          const name = `${sessionId}#${seq}`;
          if (this.countedSeqs.has(name)) this.doubles.push(name);
          this.countedSeqs.add(name);
          this.lastSeq.set(sessionId, Math.max(last, seq));
        }
        if (keyName !== undefined) this.keys.add(keyName);
        this.total += count;
        this.sessionTaps.set(sessionId, (this.sessionTaps.get(sessionId) ?? 0) + count);
        return { kind: 'ok', counted: true, sessionId };
      }
      this.bucket.refund(count);
    }
    if (keyName !== undefined && this.keys.has(keyName)) {
      return { kind: 'ok', counted: false, sessionId };
    }
    if (seq > 0 && after > last) return { kind: 'lost', seq: last };
    if (seq > 0 && seq <= last) return { kind: 'ok', counted: false, sessionId };
    if (taken) return { kind: 'ok', counted: false, sessionId };
    const wait = this.bucket.msUntil(count);
    return { kind: 'rate', retryAfterMs: Number.isFinite(wait) ? wait : null };
  }

  /** The socket's answer to a batch (tap-handlers.ts, compact acks). */
  batchAck(batch: TapBatch): CompactTapAck {
    const outcome = this.tap(batch);
    switch (outcome.kind) {
      case 'ok': {
        const seq = this.last(batch.sessionId);
        const sessionTaps = this.sessionTaps.get(batch.sessionId) ?? 0;
        return {
          ok: true,
          accepted: batch.count,
          totalPoints: this.total,
          totalTaps: this.total,
          sessionPoints: sessionTaps,
          sessionTaps,
          seq,
          durableSeq: seq,
        };
      }
      case 'lost':
        return { ok: false, status: 409, error: LOST, seq: outcome.seq, durableSeq: outcome.seq };
      case 'rate':
        return outcome.retryAfterMs === null
          ? { ok: false, status: 429, error: TOO_FAST }
          : { ok: false, status: 429, error: TOO_FAST, retryAfterMs: outcome.retryAfterMs };
      case 'unavailable':
        return { ok: false, status: 503, error: UNAVAILABLE };
      case 'frozen':
        return { ok: false, status: 403, error: messages.playerFrozen };
    }
  }

  /** The socket's answer to a sync: the session's last batch number. */
  syncAck({ sessionId }: TapSync): TapSyncAck {
    if (this.down) return { ok: false, status: 503, error: UNAVAILABLE };
    const seq = this.last(sessionId);
    return { ok: true, seq, durableSeq: seq };
  }
}

// ---------------------------------------------------------------------------------------------
// The network, the socket.io client and HTTP (POST /api/tap, GET /api/users/:id, POST
// /api/sessions).
// ---------------------------------------------------------------------------------------------

type Handler = (...args: unknown[]) => void;

interface Pending {
  event: string;
  payload: unknown;
  done: boolean;
  /** In socket.io's sendBuffer: sent on the next connection, not rejected on disconnect. */
  buffered: boolean;
  timer: number;
  resolve: (answer: unknown) => void;
  reject: (error: Error) => void;
}

interface Conn {
  id: number;
  alive: boolean;
  /** The network went while it was open: the ping times out then, unless the network is back. */
  expiresAt: number | null;
  expiry: number | null;
  /** Per-direction FIFO: a packet never overtakes the one sent before it on the connection. */
  toServerAt: number;
  toClientAt: number;
  /** Sent while the network was gone: delivered (TCP) if it comes back before the ping expires. */
  stalled: (() => void)[];
  /** core/socket-limit.ts: 10 messages a second, 20 at once, per socket. */
  messages: TapBucket;
}

/** What may go wrong, beside what a seed's scenario does to the world. */
export interface Faults {
  /** Chance that a packet of a connection that died had reached the server all the same. */
  ghost: number;
  /** Chance that a post, or another HTTP call, fails (TypeError) before, or after, the server. */
  postFailsBefore: number;
  postFailsAfter: number;
  /** Chance that the server never answers a message (a handler stuck on the database). */
  noAnswer: number;
  /** The per-socket message limit of core/socket-limit.ts. */
  messageLimit: boolean;
}

/** Nothing fails by chance (scenarios written by hand). */
export const NO_FAULTS: Faults = {
  ghost: 0,
  postFailsBefore: 0,
  postFailsAfter: 0,
  noAnswer: 0,
  messageLimit: true,
};

/** The randomized tests' faults. */
export const DEFAULT_FAULTS: Faults = {
  ghost: 0.2,
  postFailsBefore: 0.05,
  postFailsAfter: 0.05,
  noAnswer: 0.01,
  messageLimit: true,
};

/** The ways a message goes: on the socket to the server and back, and HTTP (either way). */
export type Trip = 'toServer' | 'toClient' | 'http';

/**
 * The server, the network between it and the page, and the page's socket.io client and HTTP
 * calls, on the manual clock; its random draws (trip times, faults) come from `rand`.
 */
export class World {
  readonly server = new FakeServer();
  /** The network is there (for the socket and HTTP alike). */
  online = true;
  /**
   * HTTP reaches the server. The browser may say it is offline, and fail every request, while the
   * socket goes on (Chromium's offline emulation and a socket routed by Playwright, as in the
   * browser tests; a captive network that keeps established connections).
   */
  httpOnline = true;
  /** Faults happen (the active phase); none in the quiet phase. */
  active = true;
  /** The server answers slowly (a loaded CI machine): often beyond the sender's ack timeout. */
  slow = false;
  /** The server restarts: no connection and no post until then. */
  restartUntil = 0;
  /** The socket's connection, while it is connected. */
  conn: Conn | null = null;
  private connIds = 0;
  private sendBuffer: Pending[] = [];
  private readonly pending = new Set<Pending>();
  private readonly handlers = new Map<string, Set<Handler>>();
  private reconnecting = false;
  readonly trace: string[] = [];
  /** How often each path was taken (the tests' *_DEBUG prints them, summed over the seeds). */
  readonly stats = new Map<string, number>();
  readonly user = makeGameUser({ id: 'u' });
  /** Fixed trip times, for scenarios written by hand (drawn for each trip otherwise). */
  fixed: Record<Trip, number> | null = null;

  constructor(
    private readonly clock: ManualClock,
    private readonly rand: () => number,
    readonly faults: Faults,
    private readonly tracing: boolean,
  ) {
    this.connect();
  }

  /** Counts a path taken (the stats). */
  count(what: string) {
    this.stats.set(what, (this.stats.get(what) ?? 0) + 1);
  }

  /** A line of the trace (kept only when tracing). */
  log(line: string) {
    if (this.tracing) this.trace.push(`${this.clock.now % 1_000_000} ${line}`);
  }

  /** Runs `act` in `ms`, if the active phase still goes on then. */
  whenActive(ms: number, act: () => void): number {
    return this.clock.set(() => this.active && act(), ms);
  }

  /** The socket as TapChannel uses it. */
  readonly socket = (() => {
    // eslint-disable-next-line @typescript-eslint/no-this-alias -- the socket object reads the world
    const world = this;
    const socket = {
      get connected() {
        return world.conn !== null;
      },
      on(event: string, handler: Handler) {
        if (!world.handlers.has(event)) world.handlers.set(event, new Set());
        world.handlers.get(event)?.add(handler);
        return socket;
      },
      off(event: string, handler: Handler) {
        world.handlers.get(event)?.delete(handler);
        return socket;
      },
      timeout: (ms: number) => ({
        emitWithAck: (event: string, payload: unknown) => world.emit(event, payload, ms),
      }),
    };
    return socket;
  })();

  /** What a TapSender sends with: this socket and this POST /api/tap. */
  get transport(): Pick<TapSenderOptions, 'socket' | 'postTap'> {
    return { socket: this.socket as unknown as TapSenderOptions['socket'], postTap: this.postTap };
  }

  private fire(event: string, ...args: unknown[]) {
    for (const handler of [...(this.handlers.get(event) ?? [])]) handler(...args);
  }

  /** A one-way trip's time. */
  delay(trip: Trip): number {
    if (this.fixed) return this.fixed[trip];
    const r = this.rand();
    if (this.slow) return 200 + r * 6000;
    return 5 + r * r * 250;
  }

  // --- socket.io client -----------------------------------------------------------------------

  private emit(event: string, payload: unknown, timeoutMs: number): Promise<unknown> {
    const answer = new Promise<unknown>((resolve, reject) => {
      const p: Pending = {
        event,
        payload,
        done: false,
        buffered: false,
        timer: 0,
        resolve,
        reject,
      };
      p.timer = this.clock.set(() => {
        if (p.done) return;
        p.done = true;
        this.pending.delete(p);
        this.sendBuffer = this.sendBuffer.filter((b) => b !== p);
        this.count('ack timeout');
        this.log(`ack timeout ${show(event, payload)}`);
        reject(new Error('operation has timed out'));
      }, timeoutMs);
      this.pending.add(p);
      const c = this.conn;
      if (c && !(c.expiresAt !== null && this.clock.now >= c.expiresAt)) {
        this.count(`emit ${event}`);
        this.log(`emit c${c.id} ${show(event, payload)}${this.online ? '' : ' (stalls)'}`);
        this.transmit(p, c);
      } else {
        // Not connected, or the ping expired (engine.io's _hasPingExpired): buffered, and the
        // connection closes at the next tick.
        this.count('emit buffered');
        this.log(`emit buffered ${show(event, payload)}`);
        p.buffered = true;
        this.sendBuffer.push(p);
        if (c) this.clock.set(() => this.kill(c, 'ping timeout'), 0);
      }
    });
    return answer.then((reply) => checkedSocketAnswer(event, reply));
  }

  private transmit(p: Pending, c: Conn) {
    p.buffered = false;
    const go = () => {
      const at = Math.max(c.toServerAt, this.clock.now + this.delay('toServer'));
      c.toServerAt = at;
      this.clock.set(() => this.arrive(p, c), at - this.clock.now);
    };
    if (this.online) go();
    else c.stalled.push(go);
  }

  private arrive(p: Pending, c: Conn) {
    if (!c.alive) {
      // It may have reached the server just before the connection died: counted, unanswered.
      if (this.rand() < this.faults.ghost) {
        this.count('ghost arrives');
        this.log(`ghost arrives c${c.id} ${show(p.event, p.payload)}`);
        this.answer(p, c);
      }
      return;
    }
    if (!this.online) {
      c.stalled.push(() => this.arrive(p, c));
      return;
    }
    this.log(`arrives c${c.id} ${show(p.event, p.payload)}`);
    const reply = this.answer(p, c);
    if (this.active && this.rand() < this.faults.noAnswer) {
      this.count('no answer');
      return;
    }
    const at = Math.max(c.toClientAt, this.clock.now + this.delay('toClient'));
    c.toClientAt = at;
    this.clock.set(() => this.answerArrives(p, c, reply), at - this.clock.now);
  }

  /** The server handles a message. */
  private answer(p: Pending, c: Conn): unknown {
    let reply: unknown;
    if (this.faults.messageLimit && !c.messages.take(1)) {
      reply = { ok: false, status: 429, error: TOO_MANY_MESSAGES };
    } else if (p.event === gameEvents.tap) {
      reply = this.server.batchAck(p.payload as TapBatch);
    } else if (p.event === gameEvents.sync) {
      reply = this.server.syncAck(p.payload as TapSync);
    } else {
      throw new Error(`unexpected event ${p.event}`);
    }
    const r = reply as { ok: boolean; status?: number; error?: string };
    this.count(r.ok ? `${p.event} ok` : `${p.event} ${r.status} ${r.error}`);
    this.log(`  server: ${JSON.stringify(reply)} total=${this.server.total}`);
    return reply;
  }

  private answerArrives(p: Pending, c: Conn, reply: unknown) {
    if (!c.alive) return;
    if (!this.online) {
      c.stalled.push(() => this.answerArrives(p, c, reply));
      return;
    }
    if (p.done) {
      this.count('late answer ignored');
      this.log(`late answer ignored ${show(p.event, p.payload)}`);
      return;
    }
    p.done = true;
    this.pending.delete(p);
    clearTimeout(p.timer);
    this.log(`answer ${show(p.event, p.payload)}`);
    p.resolve(reply);
  }

  /** The connection closes (socket.io's onclose): acks not buffered are rejected. */
  kill(c: Conn, why: string) {
    if (!c.alive) return;
    c.alive = false;
    if (c.expiry !== null) clearTimeout(c.expiry);
    if (this.conn === c) this.conn = null;
    this.log(`disconnect c${c.id} (${why})`);
    this.fire('disconnect');
    for (const p of [...this.pending]) {
      if (p.buffered || p.done) continue;
      p.done = true;
      this.pending.delete(p);
      clearTimeout(p.timer);
      this.count('rejected on disconnect');
      p.reject(new Error('socket has been disconnected'));
    }
    this.scheduleReconnect();
  }

  private scheduleReconnect() {
    if (this.reconnecting) return;
    this.reconnecting = true;
    this.clock.set(
      () => {
        this.reconnecting = false;
        if (this.conn) return;
        if (!this.online || this.clock.now < this.restartUntil) this.scheduleReconnect();
        else this.connect();
      },
      300 + this.rand() * 4000,
    );
  }

  /** socket.io's onconnect: the buffered emits go first, then `connect`; the server announces. */
  private connect() {
    const c: Conn = {
      id: ++this.connIds,
      alive: true,
      expiresAt: null,
      expiry: null,
      toServerAt: 0,
      toClientAt: 0,
      stalled: [],
      messages: new TapBucket({ perSecond: 10, burst: 20 }),
    };
    this.conn = c;
    this.log(`connect c${c.id}`);
    const buffered = this.sendBuffer;
    this.sendBuffer = [];
    for (const p of buffered) if (!p.done) this.transmit(p, c);
    this.fire('connect');
    // The screen's own messages on a new connection (watch, season:watch) spend the limit too.
    c.messages.take(2);
    const at = Math.max(c.toClientAt, this.clock.now + this.delay('toClient'));
    c.toClientAt = at;
    this.clock.set(() => {
      if (c.alive && this.online) this.fire(gameEvents.allowance, ALLOWANCE);
    }, at - this.clock.now);
  }

  // --- the network ----------------------------------------------------------------------------

  /** The network goes (`event`: and the browser says so). */
  goOffline(event: boolean) {
    if (!this.online) return;
    this.online = false;
    this.log(`offline${event ? ' (event)' : ''}`);
    const c = this.conn;
    if (c) {
      c.expiresAt = this.clock.now + 500 + this.rand() * 15_000;
      // engine.io's ping timer, late on a busy page: an emit after the ping expired is buffered
      // (and closes the connection), to go on the next one.
      const late = this.rand() < 0.5 ? this.rand() * 3000 : 0;
      c.expiry = this.clock.set(
        () => this.kill(c, 'ping timeout'),
        c.expiresAt + late - this.clock.now,
      );
    }
    if (event) window.dispatchEvent(new Event('offline'));
  }

  /** The network comes back (`event`: and the browser says so, even if it never went). */
  goOnline(event: boolean) {
    if (!this.online) {
      this.online = true;
      this.log(`online${event ? ' (event)' : ''}`);
      const c = this.conn;
      if (c) {
        if (c.expiry !== null) clearTimeout(c.expiry);
        c.expiry = null;
        c.expiresAt = null;
        for (const go of c.stalled.splice(0)) go();
      }
    }
    if (event) window.dispatchEvent(new Event('online'));
  }

  /** The browser says it is offline, and HTTP fails, while the socket goes on. */
  httpOffline() {
    if (!this.httpOnline) return;
    this.httpOnline = false;
    this.log('http offline (event)');
    window.dispatchEvent(new Event('offline'));
  }

  /** HTTP comes back, and the browser says it is online. */
  httpBack() {
    if (this.httpOnline) return;
    this.httpOnline = true;
    this.log('http online (event)');
    window.dispatchEvent(new Event('online'));
  }

  /** The server restarts (a deploy): the connection drops, and comes back when it is up. */
  restart(ms: number) {
    this.restartUntil = this.clock.now + ms;
    this.server.bucket = new TapBucket(ALLOWANCE);
    if (this.conn) this.kill(this.conn, 'server restart');
  }

  /** The quiet phase begins: everything heals, and nothing fails any more. */
  heal() {
    this.active = false;
    this.slow = false;
    this.server.down = false;
    this.restartUntil = 0;
    this.log('--- quiet ---');
    this.goOnline(true);
    this.httpBack();
  }

  // --- HTTP -----------------------------------------------------------------------------------

  /**
   * An HTTP call: `atServer` runs when the request reaches the server (what it answers is what it
   * holds then), and `answer` settles the call when the answer is back, after another trip;
   * either way may fail (a TypeError, as fetch's), by chance or for the network or the server
   * gone. `what` names it in the stats, `label` in the trace.
   */
  private http<R, T>(
    what: string,
    atServer: () => R,
    answer: (read: R, resolve: (value: T) => void, reject: (error: Error) => void) => void,
    label = what,
  ): Promise<T> {
    return new Promise((resolve, reject) => {
      const failed = () => reject(new TypeError('Failed to fetch'));
      const unreachable = () =>
        !this.online || !this.httpOnline || this.clock.now < this.restartUntil;
      if (unreachable()) {
        this.count(`${what} unreachable`);
        this.clock.set(failed, 1);
        return;
      }
      /** Fails the call, before or after the server, if it cannot get there, or by chance. */
      const fails = (when: 'before' | 'after', chance: number) => {
        if (!unreachable() && !(this.active && this.rand() < chance)) return false;
        this.count(`${what} fails ${when}`);
        this.log(`${label} fails ${when} the server`);
        failed();
        return true;
      };
      this.clock.set(() => {
        if (fails('before', this.faults.postFailsBefore)) return;
        const read = atServer();
        this.clock.set(() => {
          if (fails('after', this.faults.postFailsAfter)) return;
          this.count(`${what} answered`);
          answer(read, resolve, reject);
        }, this.delay('http'));
      }, this.delay('http'));
    });
  }

  /** An HTTP call that only reads: answered with what `read` gives when it reaches the server. */
  private httpRead<T>(what: string, read: () => T): Promise<T> {
    return this.http(
      what,
      () => {
        const value = read();
        this.log(`${what} read by the server: total=${this.server.total}`);
        return value;
      },
      (value: T, resolve: (value: T) => void) => resolve(value),
    );
  }

  private sessionCount = 0;

  /** fetchPlayer (GET /api/users/:id): the player's figures as the server reads them. */
  readonly getPlayer = (): Promise<GameUser> =>
    this.httpRead('GET player', () => ({
      ...this.user,
      totalPoints: this.server.total,
      totalTaps: this.server.total,
    }));

  /** openSession (POST /api/sessions): a new session, no taps in it yet. */
  readonly openSession = (user: GameUser): Promise<Player> =>
    this.httpRead('POST session', () => ({
      user,
      session: makeGameSession({ id: `p${++this.sessionCount}`, userId: user.id }),
    }));

  /** POST /api/tap: one keyed tap; the answer holds the figures as they are when it arrives. */
  readonly postTap = (userId: string, sessionId: string, key: string): Promise<Player> =>
    this.http(
      'post',
      () => {
        const outcome = this.server.tap({ sessionId, count: 1, key });
        this.count(
          `post ${outcome.kind}${outcome.kind === 'ok' && !outcome.counted ? ' replay' : ''}`,
        );
        this.log(`post ${key.slice(0, 4)}: ${JSON.stringify(outcome)} total=${this.server.total}`);
        return outcome;
      },
      (outcome: TapOutcome, resolve: (value: Player) => void, reject) => {
        switch (outcome.kind) {
          case 'ok': {
            const taps = this.server.sessionTaps.get(sessionId) ?? 0;
            resolve({
              user: {
                ...this.user,
                id: userId,
                totalPoints: this.server.total,
                totalTaps: this.server.total,
              },
              session: makeGameSession({
                id: sessionId,
                userId,
                sessionPoints: taps,
                sessionTaps: taps,
              }),
            });
            return;
          }
          case 'rate': {
            const seconds =
              outcome.retryAfterMs === null ? undefined : Math.ceil(outcome.retryAfterMs / 1000);
            reject(
              new ApiError(
                429,
                { error: TOO_FAST },
                TOO_FAST,
                seconds === undefined ? undefined : seconds * 1000,
              ),
            );
            return;
          }
          case 'unavailable':
            reject(new ApiError(503, { error: UNAVAILABLE }, UNAVAILABLE));
            return;
          case 'frozen':
            reject(new ApiError(403, { error: messages.playerFrozen }, messages.playerFrozen));
            return;
          case 'lost':
            throw new Error('a keyed tap is never lost');
        }
      },
      `post ${key.slice(0, 4)}`,
    );
}

function show(event: string, payload: unknown): string {
  if (event === gameEvents.tap) {
    const { sessionId, count, seq, after } = payload as TapBatch;
    return `tap ${sessionId}#${seq}(${count}) after ${after}`;
  }
  return `${event} ${JSON.stringify(payload)}`;
}

// ---------------------------------------------------------------------------------------------
// A seed: its model and its scenario.
// ---------------------------------------------------------------------------------------------

/** How a seed's model is made. */
export interface ModelOptions {
  /** What fails by chance (DEFAULT_FAULTS unless said). */
  faults?: Faults;
  /** The world keeps the trace of its events. */
  tracing?: boolean;
}

/** What the page does in the active phase. */
export interface Activity {
  /** The finger's tap (the screen decides whether it counts). */
  tap: () => void;
  /** At the start of each run of taps, at `at` (once its rate and length are drawn). */
  onRun?: (at: number) => void;
  /** A reload of the page: one of the troubles when given (the others' chances are less then). */
  reload?: () => void;
  /** More of the active phase, `activeMs` long, scheduled after the finger and the troubles. */
  also?: (activeMs: number) => void;
}

type Trouble =
  | 'http offline'
  | 'offline'
  | 'restart'
  | 'down'
  | 'slow'
  | 'pagehide'
  | 'reload'
  | 'false online'
  | 'false offline';

/**
 * The troubles of the active phase, each chosen when a draw is below its bound (and not below an
 * earlier one's): without page reloads (the first bound; reload's is pagehide's, so never), and
 * with them (the second).
 */
const TROUBLES: readonly (readonly [Trouble, number, number])[] = [
  ['http offline', 0.12, 0.12],
  ['offline', 0.35, 0.32],
  ['restart', 0.45, 0.42],
  ['down', 0.6, 0.55],
  ['slow', 0.75, 0.7],
  ['pagehide', 0.85, 0.78],
  ['reload', 0.85, 0.86],
  ['false online', 0.92, 0.93],
  ['false offline', 1, 1],
];

/**
 * One seed's model: the manual clock installed, Math.random (the sender's jitter) seeded by the
 * seed (restoreGlobals undoes both), and the world, whose draws are the scenario's too.
 */
export class Model {
  readonly clock = new ManualClock();
  /** The scenario's draws (the world draws from them too). */
  readonly rand: () => number;
  readonly world: World;

  constructor(seed: number, { faults = DEFAULT_FAULTS, tracing = false }: ModelOptions = {}) {
    this.rand = mulberry32(seed);
    this.clock.install();
    vi.spyOn(Math, 'random').mockImplementation(mulberry32(seed ^ 0x9e3779b9));
    this.world = new World(this.clock, this.rand, faults, tracing);
  }

  /**
   * The seed's scenario: the active phase, in which the page does `activity` while the world's
   * troubles come and go, then the quiet phase, in which everything heals, nothing fails any
   * more, and the sender has two minutes to send it all.
   */
  async play(activity: Activity): Promise<void> {
    const activeMs = this.scheduleActivePhase(activity);
    activity.also?.(activeMs);
    await this.clock.advance(activeMs);
    this.world.heal();
    await this.clock.advance(120_000);
    this.world.stats.set('timers run', this.clock.ran);
  }

  /**
   * Schedules the finger's runs of taps at a rate (sometimes beyond the allowance) and its pauses,
   * and the world's troubles, every few seconds, each undone by the quiet phase if not before.
   * Returns how long the active phase lasts.
   */
  private scheduleActivePhase({ tap, onRun, reload }: Activity): number {
    const { clock, world, rand } = this;
    const activeMs = 10_000 + rand() * 30_000;
    // The finger.
    let t = 0;
    while (t < activeMs) {
      const rate = [2, 5, 10, 15, 20, 30, 50][Math.floor(rand() * 7)];
      const length = 200 + rand() * 5000;
      onRun?.(t);
      for (let x = t; x < Math.min(t + length, activeMs); x += (1000 / rate) * (0.5 + rand())) {
        clock.set(tap, x);
      }
      t += length + rand() * 3000;
    }
    // The world.
    const at = (ms: number, act: () => void) => world.whenActive(ms, act);
    for (let e = rand() * 3000; e < activeMs; e += 500 + rand() * 6000) {
      const kind = rand();
      const [trouble] =
        TROUBLES.find(([, without, withReload]) => kind < (reload ? withReload : without)) ?? [];
      switch (trouble) {
        case 'http offline': {
          const back = 300 + rand() * 15_000;
          at(e, () => world.httpOffline());
          clock.set(() => world.httpBack(), e + back);
          break;
        }
        case 'offline': {
          const withEvent = rand() < 0.8;
          const backEvent = rand() < 0.8;
          const back = 300 + rand() * 15_000;
          at(e, () => world.goOffline(withEvent));
          clock.set(() => world.goOnline(backEvent), e + back);
          break;
        }
        case 'restart':
          at(e, () => world.restart(rand() * 3000));
          break;
        case 'down':
          at(e, () => {
            world.server.down = true;
            world.log('server down');
          });
          clock.set(
            () => {
              world.server.down = false;
              world.log('server up');
            },
            e + 300 + rand() * 6000,
          );
          break;
        case 'slow':
          at(e, () => {
            world.slow = true;
            world.log('slow');
          });
          clock.set(
            () => {
              world.slow = false;
              world.log('fast');
            },
            e + 1000 + rand() * 12_000,
          );
          break;
        case 'pagehide':
          at(e, () => window.dispatchEvent(new Event('pagehide')));
          break;
        case 'reload':
          if (reload) at(e, reload);
          break;
        case 'false online':
          // The browser says the network is back while it is not (or says so twice).
          at(e, () => window.dispatchEvent(new Event('online')));
          break;
        default:
          at(e, () => window.dispatchEvent(new Event('offline')));
      }
    }
    return activeMs;
  }
}

// ---------------------------------------------------------------------------------------------
// Many seeds.
// ---------------------------------------------------------------------------------------------

/** What every seed's run gives back, beside its own figures. */
export interface SeedOutcome {
  seed: number;
  /** The seed's events, when traced. */
  trace: string[];
  stats: Map<string, number>;
}

/**
 * The seeds a randomized test runs: `${env}_SEEDS` of them (or `count`), from
 * `${env}_FIRST_SEED` (or 1).
 */
export class Seeds {
  readonly count: number;
  readonly first: number;

  constructor(
    private readonly env: string,
    count: number,
  ) {
    this.count = Number(process.env[`${env}_SEEDS`] ?? count);
    this.first = Number(process.env[`${env}_FIRST_SEED`] ?? 1);
  }

  /**
   * Runs the seeds (up to the fifth failure) and returns the failures' figures, without their
   * trace and stats. `${env}_DEBUG` prints how often each path was taken, summed over the seeds;
   * `${env}_TRACE` runs the first failing seed again, traced, and prints its events.
   */
  async explore<R extends SeedOutcome>(
    runSeed: (seed: number, tracing: boolean) => Promise<R>,
    failed: (outcome: R) => boolean,
  ): Promise<string[]> {
    const { env, first, count } = this;
    const failures: R[] = [];
    const stats = new Map<string, number>();
    for (let seed = first; seed < first + count && failures.length < 5; seed += 1) {
      const outcome = await runSeed(seed, false);
      if (failed(outcome)) failures.push(outcome);
      for (const [what, n] of outcome.stats) stats.set(what, (stats.get(what) ?? 0) + n);
    }
    if (process.env[`${env}_DEBUG`]) console.log([...stats].sort().join('\n'));
    if (failures.length > 0 && process.env[`${env}_TRACE`]) {
      const traced = await runSeed(failures[0].seed, true);
      console.log(traced.trace.join('\n'));
    }
    return failures.map(({ trace: _trace, stats: _stats, ...o }) => JSON.stringify(o));
  }
}
