import {
  gameEvents,
  MAX_KEPT_TAPS,
  messages,
  TapBucket,
  type CompactTapAck,
  type GameUser,
  type TapAllowance,
  type TapBatch,
  type TapSync,
  type TapSyncAck,
  type TapTotals,
} from '@tapgram/shared';
import { renderHook, type RenderHookResult } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { withDeadline, type Player } from '../../src/features/game/game-api';
import { gameStorage } from '../../src/features/game/storage';
import {
  initialTapStatus,
  tapStatusReducer,
  type TapStatus,
  type TapStatusEvent,
  type Waiting,
} from '../../src/features/game/tap-status';
import { emptyKept, type KeptTaps } from '../../src/features/game/taps/kept-taps';
import {
  TapSender,
  type TapSenderOptions,
  type TapSettled,
} from '../../src/features/game/taps/tap-sender';
import { withTotals } from '../../src/features/game/usePlayer';
import { useShownCounters } from '../../src/features/game/useShownCounters';
import { ApiError } from '../../src/lib/api';
import { checkedSocketAnswer } from '../socket-answers';
import { makeGameSession, makeGameUser } from './builders';

/*
 * A randomized, model-based test of the game screen's Total Taps tile (useShownCounters): the
 * real TapSender against the model of the server's tap rules (Postgres mode) and of socket.io
 * copied from tap-sender-model.test.ts, and the figures the page hands the tile: each answer's
 * totals applied as usePlayer.ts's applyTotals does, GETs of the player applied as its `answered`
 * does (asOf: when the answer arrived), and the taps waiting, either read from the sender after
 * every step ('fresh') or as the page holds them, in the tap status reducer, fed by the events
 * useTapSender.ts and useGame.ts dispatch ('page'). Each seed taps through the screen's own
 * bucket, loses the network or only HTTP, drops the connection, makes the server unavailable or
 * slow, loses answers, reloads the page (the 'seen' counters in localStorage); the tile is
 * rendered with renderHook after every step. At every step the tile may not show more than the
 * server holds plus what the sender holds unconfirmed; at the end, everything healed and a last
 * GET applied, it shows what the server holds.
 *
 * usePlayer.ts exports `withTotals`, used here as it is; `merged`, `applyTotals`, `answered`,
 * `openFromDevice` and the asking effect are not exported, and are copied below line for line.
 *
 * The 'page' feed failed until a batch or post leaving for the first time was reported to the
 * page (the hand-written test at the end is the shrunk scenario): the reducer's copy of the sent
 * taps was not refreshed then, so figures answered while a batch was on its way counted it twice,
 * for good.
 */

/** A seeded PRNG (mulberry32): every seed is one deterministic scenario. */
function mulberry32(seed: number): () => number {
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

class ManualClock {
  now = 1_700_000_000_000;
  private readonly timers = new Map<number, Timer>();
  private nextId = 1;
  private order = 0;
  ran = 0;
  /** Called after every timer, once its microtasks have run (the page renders then). */
  onStep: (() => void) | null = null;

  install() {
    vi.stubGlobal('setTimeout', (handler: () => void, ms = 0) => this.set(handler, ms));
    vi.stubGlobal('clearTimeout', (id?: number | null) => {
      if (id != null) this.timers.delete(id);
    });
    vi.spyOn(Date, 'now').mockImplementation(() => this.now);
  }

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

// ---------------------------------------------------------------------------------------------
// The server's rules for taps, Postgres mode.
// ---------------------------------------------------------------------------------------------

const ALLOWANCE: TapAllowance = { perSecond: 20, burst: 40 };
const TOO_FAST = 'Tapping too fast: slow down a little';
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

class FakeServer {
  /** The player's allowance (TokenBuckets in postgres-store.ts, in memory: new after a restart). */
  bucket = new TapBucket(ALLOWANCE);
  /** Each session's last_seq; durableSeq is the same in Postgres mode. */
  readonly lastSeq = new Map<string, number>();
  readonly sessionTaps = new Map<string, number>();
  /** (session, key) of the keyed taps counted (game_tap_keys). */
  readonly keys = new Set<string>();
  /** (session, seq) of the batches counted: each may count once. */
  readonly countedSeqs = new Set<string>();
  readonly doubles: string[] = [];
  total = 0;
  /** Answers 503 (the game briefly unavailable, or over capacity). */
  down = false;
  /** An operator froze the player: every tap is refused (403), nothing counted. */
  frozen = false;

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

  syncAck({ sessionId }: TapSync): TapSyncAck {
    if (this.down) return { ok: false, status: 503, error: UNAVAILABLE };
    const seq = this.last(sessionId);
    return { ok: true, seq, durableSeq: seq };
  }
}

// ---------------------------------------------------------------------------------------------
// The network, the socket.io client and POST /api/tap.
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

interface Faults {
  /** Chance that a packet of a connection that died had reached the server all the same. */
  ghost: number;
  /** Chance that a post fails (TypeError) before, or after, the server counted it. */
  postFailsBefore: number;
  postFailsAfter: number;
  /** Chance that the server never answers a message (a handler stuck on the database). */
  noAnswer: number;
  /** The per-socket message limit of core/socket-limit.ts. */
  messageLimit: boolean;
}

const NO_FAULTS: Faults = {
  ghost: 0,
  postFailsBefore: 0,
  postFailsAfter: 0,
  noAnswer: 0,
  messageLimit: true,
};

const DEFAULT_FAULTS: Faults = {
  ghost: 0.2,
  postFailsBefore: 0.05,
  postFailsAfter: 0.05,
  noAnswer: 0.01,
  messageLimit: true,
};

/** The ways a message goes: on the socket to the server and back, and HTTP (either way). */
type Trip = 'toServer' | 'toClient' | 'http';

class World {
  readonly server = new FakeServer();
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
  conn: Conn | null = null;
  private connIds = 0;
  private sendBuffer: Pending[] = [];
  private readonly pending = new Set<Pending>();
  private readonly handlers = new Map<string, Set<Handler>>();
  private reconnecting = false;
  readonly trace: string[] = [];
  /** How often each path was taken (TAP_MODEL_DEBUG prints them, summed over the seeds). */
  readonly stats = new Map<string, number>();
  readonly user = makeGameUser({ id: 'u' });

  constructor(
    private readonly clock: ManualClock,
    private readonly rand: () => number,
    readonly faults: Faults,
    private readonly tracing: boolean,
  ) {
    this.connect();
  }

  count(what: string) {
    this.stats.set(what, (this.stats.get(what) ?? 0) + 1);
  }

  log(line: string) {
    if (this.tracing) this.trace.push(`${this.clock.now % 1_000_000} ${line}`);
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

  private fire(event: string, ...args: unknown[]) {
    for (const handler of [...(this.handlers.get(event) ?? [])]) handler(...args);
  }

  /** Fixed trip times, for scenarios written by hand (drawn for each trip otherwise). */
  fixed: Record<Trip, number> | null = null;

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

  // --- GET /api/users/:id and POST /api/sessions ----------------------------------------------

  private sessionCount = 0;

  /**
   * An HTTP call that is not a tap: `read` runs when the request reaches the server (what it
   * answers is what it holds then), and the answer comes back after another trip; either way may
   * fail as a post does.
   */
  private http<T>(what: string, read: () => T): Promise<T> {
    return new Promise((resolve, reject) => {
      const failed = () => reject(new TypeError('Failed to fetch'));
      const unreachable = () =>
        !this.online || !this.httpOnline || this.clock.now < this.restartUntil;
      if (unreachable()) {
        this.count(`${what} unreachable`);
        this.clock.set(failed, 1);
        return;
      }
      this.clock.set(() => {
        if (unreachable() || (this.active && this.rand() < this.faults.postFailsBefore)) {
          this.log(`${what} fails before the server`);
          failed();
          return;
        }
        const value = read();
        this.log(`${what} read by the server: total=${this.server.total}`);
        this.clock.set(() => {
          if (unreachable() || (this.active && this.rand() < this.faults.postFailsAfter)) {
            this.log(`${what} fails after the server`);
            failed();
            return;
          }
          this.count(`${what} answered`);
          resolve(value);
        }, this.delay('http'));
      }, this.delay('http'));
    });
  }

  /** fetchPlayer: the player's figures as the server reads them. */
  readonly getPlayer = (): Promise<GameUser> =>
    this.http('GET player', () => ({
      ...this.user,
      totalPoints: this.server.total,
      totalTaps: this.server.total,
    }));

  /** openSession: a new session, no taps in it yet. */
  readonly openSession = (user: GameUser): Promise<Player> =>
    this.http('POST session', () => ({
      user,
      session: makeGameSession({ id: `p${++this.sessionCount}`, userId: user.id }),
    }));

  // --- POST /api/tap --------------------------------------------------------------------------

  readonly postTap = (
    userId: string,
    sessionId: string,
    key: string,
  ): Promise<{
    user: ReturnType<typeof makeGameUser>;
    session: ReturnType<typeof makeGameSession>;
  }> =>
    new Promise((resolve, reject) => {
      const failed = () => reject(new TypeError('Failed to fetch'));
      const unreachable = () =>
        !this.online || !this.httpOnline || this.clock.now < this.restartUntil;
      if (unreachable()) {
        this.count('post unreachable');
        this.clock.set(failed, 1);
        return;
      }
      this.clock.set(() => {
        if (unreachable() || (this.active && this.rand() < this.faults.postFailsBefore)) {
          this.count('post fails before');
          this.log(`post ${key.slice(0, 4)} fails before the server`);
          failed();
          return;
        }
        const outcome = this.server.tap({ sessionId, count: 1, key });
        this.count(
          `post ${outcome.kind}${outcome.kind === 'ok' && !outcome.counted ? ' replay' : ''}`,
        );
        this.log(`post ${key.slice(0, 4)}: ${JSON.stringify(outcome)} total=${this.server.total}`);
        this.clock.set(() => {
          if (unreachable() || (this.active && this.rand() < this.faults.postFailsAfter)) {
            this.count('post fails after');
            this.log(`post ${key.slice(0, 4)} fails after the server`);
            failed();
            return;
          }
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
        }, this.delay('http'));
      }, this.delay('http'));
    });
}

function show(event: string, payload: unknown): string {
  if (event === gameEvents.tap) {
    const { sessionId, count, seq, after } = payload as TapBatch;
    return `tap ${sessionId}#${seq}(${count}) after ${after}`;
  }
  return `${event} ${JSON.stringify(payload)}`;
}

// ---------------------------------------------------------------------------------------------
// The game page, as far as the Total Taps tile goes.
// ---------------------------------------------------------------------------------------------

/** What the tile is given as the taps waiting. */
type Feed =
  /** The sender's `waiting()`, read again after every step (what the brief of this test asks). */
  | 'fresh'
  /** The tap status reducer's, changed by the events the page dispatches (what useGame passes). */
  | 'page';

interface PlayerState {
  status: 'loading' | 'ready';
  player: Player | null;
  fromDevice: boolean;
  asOf: number | null;
}

/** usePlayer.ts's Answered. */
interface Answered {
  userId: string;
  sessionId: string;
  totals: TapTotals;
}

/** usePlayer.ts `merged` (not exported): a copy, line for line. */
function merged(current: Player | null, loaded: Player): Player {
  if (!current || current.user.id !== loaded.user.id) return loaded;
  if (current.user.totalTaps <= loaded.user.totalTaps) {
    return { user: loaded.user, session: current.session };
  }
  const { totalPoints, totalTaps } = current.user;
  return { user: { ...loaded.user, totalPoints, totalTaps }, session: current.session };
}

/** usePlayer.ts's constants and `jittered` (not exported). */
const LOAD_DEADLINE_MS = 8_000;
const FIRST_RETRY_MS = 1_000;
const LONGEST_RETRY_MS = 10_000;
const jittered = (ms: number) => ms * (0.5 + Math.random() / 2);

interface HookProps {
  player: Player | null;
  asOf: number | null;
  waiting: Waiting;
  frozen: boolean;
}

interface Context {
  clock: ManualClock;
  world: World;
  feed: Feed;
  errors: string[];
  /** Taps the screen handed to a sender (it counted them on the screen). */
  handed: number;
}

/**
 * usePlayer.ts's asking effect (while the player is loading, opened from the device or the taps
 * are offline): a GET now, again after a jittered back-off, and at once on `online` or `connect`.
 */
class AskLoop {
  private cancelled = false;
  private running = false;
  private wait = FIRST_RETRY_MS;
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly page: Page,
    private readonly world: World,
  ) {
    void this.ask();
    window.addEventListener('online', this.now);
    world.socket.on('connect', this.now);
  }

  stop() {
    this.cancelled = true;
    clearTimeout(this.timer);
    window.removeEventListener('online', this.now);
    this.world.socket.off('connect', this.now);
  }

  private readonly ask = async () => {
    if (this.running || this.cancelled) return;
    this.running = true;
    clearTimeout(this.timer);
    try {
      const user = await withDeadline(this.world.getPlayer(), LOAD_DEADLINE_MS);
      // A page already playing goes on in its session; a new page opens one.
      const playing = this.page.state.player;
      const loaded =
        playing?.user.id === user.id
          ? { user, session: playing.session }
          : await withDeadline(this.world.openSession(user), LOAD_DEADLINE_MS);
      if (this.cancelled) return;
      gameStorage.save(loaded.user.id, loaded.session.id);
      this.page.answered(loaded);
    } catch {
      if (this.cancelled) return;
      this.page.openFromDevice();
      this.timer = setTimeout(() => void this.ask(), jittered(this.wait));
      this.wait = Math.min(this.wait * 2, LONGEST_RETRY_MS);
    } finally {
      this.running = false;
    }
  };

  private readonly now = () => {
    this.wait = FIRST_RETRY_MS;
    void this.ask();
  };
}

/**
 * One page of the game: its tap sender as useTapSender.ts makes it, its player as usePlayer.ts
 * keeps it, its tap status as useGame.ts reduces it, and the tile rendered with them.
 */
class Page {
  state: PlayerState = { status: 'loading', player: null, fromDevice: false, asOf: null };
  /** usePlayer.ts's `newest`. */
  private newest: Answered | null = null;
  taps: TapStatus = initialTapStatus;
  readonly sender: TapSender;
  /** useAllowance.ts's bucket. */
  private readonly screen = new TapBucket(ALLOWANCE);
  private readonly hook: RenderHookResult<ReturnType<typeof useShownCounters>, HookProps>;
  private gone = false;
  private loop: AskLoop | null = null;
  private rendered = '';
  private saved: PlayerState | null = null;

  constructor(
    private readonly ctx: Context,
    readonly name: string,
    kept: KeptTaps,
  ) {
    const { world, clock } = ctx;
    const sender: TapSender = new TapSender({
      socket: world.socket as unknown as TapSenderOptions['socket'],
      postTap: world.postTap,
      onSettled: ({ userId, sessionId, totals }: TapSettled) => {
        if (this.gone) return;
        world.log(`${name} settled ${sessionId}: totalTaps=${totals.totalTaps}`);
        this.report({ type: 'heard' });
        this.follow();
        this.applyTotals({ userId, sessionId, totals });
      },
      onError: (error, sent) => {
        if (this.gone) return;
        ctx.errors.push(`${error.message} (${sent})`);
        world.log(`${name} onError ${error.message} (${sent})`);
        if (error instanceof ApiError) this.report({ type: 'heard' });
        this.follow();
      },
      onChange: () => {
        if (!this.gone) this.follow(sender.unavailable && !sender.offline);
      },
    });
    this.sender = sender;
    // The taps earlier pages kept, adopted as soon as the device gives them.
    clock.set(() => {
      if (this.gone) return;
      sender.restore(kept);
      if (sender.unconfirmed > 0) this.report({ type: 'adopted' });
      this.follow();
    }, 0);
    this.hook = renderHook(
      (props: HookProps) => useShownCounters(props.player, props.asOf, props.waiting, props.frozen),
      { initialProps: this.props() },
    );
    this.render();
  }

  get tile(): number {
    return this.hook.result.current.totalShown;
  }

  get sessionId(): string | null {
    return this.state.player?.session.id ?? null;
  }

  close() {
    this.gone = true;
    this.loop?.stop();
    this.loop = null;
    this.sender.dispose();
    this.hook.unmount();
  }

  report(event: TapStatusEvent) {
    this.taps = tapStatusReducer(this.taps, event);
  }

  /** useTapSender.ts `follow`. */
  private follow(reconnecting?: boolean) {
    this.report({
      type: 'followed',
      ...this.sender.waiting(this.sessionId),
      offline: this.sender.offline,
      reconnecting,
    });
  }

  /** useGame.ts `tap`, for a page that found its player (early taps are not modelled). */
  tap() {
    const { player } = this.state;
    if (this.gone || !player) return;
    if (this.sender.unconfirmed >= MAX_KEPT_TAPS || !this.screen.take(1)) return;
    this.ctx.handed += 1;
    this.sender.tap(player.user.id, player.session.id);
    this.report({ type: 'tapped', ...this.sender.waiting(player.session.id) });
  }

  /** usePlayer.ts `answered`, as it is. */
  answered(loaded: Player) {
    const asOf = Date.now();
    const early = this.newest;
    let player = merged(this.state.player, loaded);
    if (early?.userId === player.user.id) {
      player = withTotals(player, early.sessionId, early.totals);
    }
    this.ctx.world.log(
      `${this.name} answered: loaded=${loaded.user.totalTaps} player=${player.user.totalTaps}`,
    );
    this.state = { status: 'ready', player, fromDevice: false, asOf };
    this.report({ type: 'heard' });
  }

  /** usePlayer.ts `applyTotals`, as it is. */
  applyTotals(answer: Answered) {
    const early = this.newest;
    if (early?.userId !== answer.userId || early.totals.totalTaps <= answer.totals.totalTaps) {
      this.newest = answer;
    }
    const asOf = Date.now();
    const s = this.state;
    if (s.player?.user.id === answer.userId) {
      this.state = {
        ...s,
        player: withTotals(s.player, answer.sessionId, answer.totals),
        fromDevice: false,
        asOf,
      };
    }
  }

  /** usePlayer.ts `openFromDevice`. */
  openFromDevice() {
    const stored = gameStorage.player();
    if (this.state.player || !stored) return;
    const { savedAt, ...player } = stored;
    this.state = { status: 'ready', player, fromDevice: true, asOf: savedAt ?? null };
    this.ctx.world.log(`${this.name} opened from the device: ${player.user.totalTaps}`);
    this.report({ type: 'opened-offline' });
  }

  /** A GET of the player the page made (answered with its session as it plays on). */
  get() {
    void withDeadline(this.ctx.world.getPlayer(), LOAD_DEADLINE_MS).then(
      (user) => {
        const playing = this.state.player;
        if (this.gone || playing?.user.id !== user.id) return;
        this.answered({ user, session: playing.session });
      },
      () => undefined,
    );
  }

  private props(): HookProps {
    const { player, asOf } = this.state;
    const waiting = this.ctx.feed === 'page' ? this.taps : this.sender.waiting(this.sessionId);
    return { player, asOf, waiting, frozen: false };
  }

  /** A render of the page: the tile with what it is given now, and usePlayer's effects. */
  render() {
    if (this.gone) return;
    const props = this.props();
    const { player, asOf, waiting } = props;
    const key = JSON.stringify([
      player?.user.totalTaps,
      player?.session,
      asOf,
      waiting.unconfirmed,
      waiting.waitingHere,
      waiting.sent,
    ]);
    if (key !== this.rendered) {
      this.rendered = key;
      this.hook.rerender(props);
    }
    // The figures the server answered are the device's from now on.
    if (this.saved !== this.state) {
      this.saved = this.state;
      if (player && !this.state.fromDevice) {
        gameStorage.savePlayer({ ...player, savedAt: asOf ?? Date.now() });
      }
    }
    const { status, fromDevice } = this.state;
    const asking =
      status === 'loading' || (status === 'ready' && (fromDevice || this.taps.offline));
    if (asking && !this.loop) this.loop = new AskLoop(this, this.ctx.world);
    if (!asking && this.loop) {
      this.loop.stop();
      this.loop = null;
    }
  }
}

// ---------------------------------------------------------------------------------------------
// One seed.
// ---------------------------------------------------------------------------------------------

interface Violation {
  at: number;
  tile: number;
  server: number;
  unconfirmed: number;
}

interface SeedResult {
  seed: number;
  feed: Feed;
  handed: number;
  counted: number;
  tile: number;
  unconfirmed: number;
  sync: string;
  errors: string[];
  /** The first step at which the tile showed more than the server and the sender held. */
  over: Violation | null;
  trace: string[];
  stats: Map<string, number>;
}

const failed = (o: SeedResult) =>
  o.over !== null || o.tile !== o.counted || o.unconfirmed !== 0 || o.counted !== o.handed;

/** Runs the page as the clock goes, the tile checked after every step. */
class Run {
  readonly ctx: Context;
  page: Page;
  private pages = 1;
  over: Violation | null = null;

  constructor(
    readonly clock: ManualClock,
    readonly world: World,
    feed: Feed,
  ) {
    this.ctx = { clock, world, feed, errors: [], handed: 0 };
    this.page = new Page(this.ctx, 'page1', emptyKept());
    clock.onStep = () => this.step();
  }

  step() {
    const { page, world } = this;
    page.render();
    const tile = page.tile;
    const bound = world.server.total + page.sender.unconfirmed;
    if (tile > bound && !this.over) {
      this.over = {
        at: this.clock.now % 1_000_000,
        tile,
        server: world.server.total,
        unconfirmed: page.sender.unconfirmed,
      };
      world.log(
        `OVER tile=${tile} server=${world.server.total} unconfirmed=${page.sender.unconfirmed}`,
      );
    }
  }

  /** Something done outside a timer (a test's own step), then the page renders. */
  now(act: () => void) {
    act();
    this.step();
  }

  /** A reload: the page's taps kept on the device (pagehide first), a new page adopts them. */
  reload() {
    const old = this.page;
    window.dispatchEvent(new Event('pagehide'));
    const kept = old.sender.snapshot();
    old.close();
    if (this.world.conn) this.world.kill(this.world.conn, 'page reload');
    this.pages += 1;
    this.world.log(`--- reload: page${this.pages} ---`);
    this.page = new Page(this.ctx, `page${this.pages}`, kept);
  }

  /** The server's figures, asked for and applied as a GET the page made (everything healed). */
  async finalGet() {
    let user: GameUser | null = null;
    void this.world.getPlayer().then((u) => (user = u));
    while (!user) await this.clock.advance(100);
    const playing = this.page.state.player;
    if (playing) this.page.answered({ user, session: playing.session });
    this.step();
  }
}

interface SeedOptions {
  feed?: Feed;
  faults?: Faults;
  tracing?: boolean;
  /** GETs of the player at random, beside those the page makes while it asks. */
  extraGets?: boolean;
}

async function runSeed(
  seed: number,
  { feed = 'fresh', faults = DEFAULT_FAULTS, tracing = false, extraGets = true }: SeedOptions = {},
): Promise<SeedResult> {
  const rand = mulberry32(seed);
  const jitter = mulberry32(seed ^ 0x9e3779b9);
  const clock = new ManualClock();
  clock.install();
  vi.spyOn(Math, 'random').mockImplementation(jitter);
  localStorage.clear();
  const world = new World(clock, rand, faults, tracing);
  const run = new Run(clock, world, feed);

  const activeMs = 10_000 + rand() * 30_000;
  // The finger: runs of taps at a rate (sometimes beyond the allowance), and pauses.
  let t = 0;
  while (t < activeMs) {
    const rate = [2, 5, 10, 15, 20, 30, 50][Math.floor(rand() * 7)];
    const length = 200 + rand() * 5000;
    for (let x = t; x < Math.min(t + length, activeMs); x += (1000 / rate) * (0.5 + rand())) {
      clock.set(() => run.page.tap(), x);
    }
    t += length + rand() * 3000;
  }
  // The world.
  const at = (ms: number, act: () => void) => clock.set(() => world.active && act(), ms);
  for (let e = rand() * 3000; e < activeMs; e += 500 + rand() * 6000) {
    const kind = rand();
    if (kind < 0.12) {
      const back = 300 + rand() * 15_000;
      at(e, () => world.httpOffline());
      clock.set(() => world.httpBack(), e + back);
    } else if (kind < 0.32) {
      const withEvent = rand() < 0.8;
      const backEvent = rand() < 0.8;
      const back = 300 + rand() * 15_000;
      at(e, () => world.goOffline(withEvent));
      clock.set(() => world.goOnline(backEvent), e + back);
    } else if (kind < 0.42) {
      at(e, () => world.restart(rand() * 3000));
    } else if (kind < 0.55) {
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
    } else if (kind < 0.7) {
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
    } else if (kind < 0.78) {
      at(e, () => window.dispatchEvent(new Event('pagehide')));
    } else if (kind < 0.86) {
      at(e, () => run.reload());
    } else if (kind < 0.93) {
      // The browser says the network is back while it is not (or says so twice).
      at(e, () => window.dispatchEvent(new Event('online')));
    } else {
      at(e, () => window.dispatchEvent(new Event('offline')));
    }
  }
  if (extraGets) {
    for (let g = rand() * 3000; g < activeMs; g += 300 + rand() * 5000) at(g, () => run.page.get());
  }

  await clock.advance(activeMs);
  // Quiet: everything heals, nothing fails any more, and the sender has time to send it all.
  world.active = false;
  world.slow = false;
  world.server.down = false;
  world.restartUntil = 0;
  world.log('--- quiet ---');
  world.goOnline(true);
  world.httpBack();
  await clock.advance(120_000);
  await run.finalGet();
  world.stats.set('timers run', clock.ran);

  const { page } = run;
  const outcome: SeedResult = {
    seed,
    feed,
    handed: run.ctx.handed,
    counted: world.server.total,
    tile: page.tile,
    unconfirmed: page.sender.unconfirmed,
    sync: page.taps.sync,
    errors: run.ctx.errors,
    over: run.over,
    trace: world.trace,
    stats: world.stats,
  };
  clock.onStep = null;
  page.close();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
  return outcome;
}

const summary = ({ trace: _trace, stats: _stats, ...o }: SeedResult) => JSON.stringify(o);

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
  localStorage.clear();
});

describe('the Total Taps tile against the model (randomized)', () => {
  // More, or others: SHOWN_MODEL_SEEDS=2000 SHOWN_MODEL_FIRST_SEED=1000 (SHOWN_MODEL_TRACE=1
  // prints the first failing seed's events, SHOWN_MODEL_DEBUG=1 how often each path was taken).
  const SEEDS = Number(process.env.SHOWN_MODEL_SEEDS ?? 150);
  const FIRST = Number(process.env.SHOWN_MODEL_FIRST_SEED ?? 1);

  it.each<Feed>(['fresh', 'page'])(
    `never shows more than the server and the sender hold, and ends on the server's total (${SEEDS} seeds, %s waiting)`,
    async (feed) => {
      const failures: SeedResult[] = [];
      const stats = new Map<string, number>();
      // SHOWN_MODEL_EXTRA_GETS=0: only the GETs the page makes itself (while it asks).
      const extraGets = process.env.SHOWN_MODEL_EXTRA_GETS !== '0';
      for (let seed = FIRST; seed < FIRST + SEEDS && failures.length < 5; seed += 1) {
        const outcome = await runSeed(seed, { feed, extraGets });
        if (failed(outcome)) failures.push(outcome);
        for (const [what, n] of outcome.stats) stats.set(what, (stats.get(what) ?? 0) + n);
      }
      if (process.env.SHOWN_MODEL_DEBUG) console.log([...stats].sort().join('\n'));
      if (failures.length > 0 && process.env.SHOWN_MODEL_TRACE) {
        const traced = await runSeed(failures[0].seed, { feed, extraGets, tracing: true });
        console.log(traced.trace.join('\n'));
      }
      expect(failures.map(summary)).toEqual([]);
    },
    Math.max(60_000, SEEDS * 400),
  );
});

/** A page that has loaded its player, in a world with fixed trip times and no faults. */
async function handWritten(feed: Feed, fixed: Record<Trip, number>) {
  const clock = new ManualClock();
  clock.install();
  vi.spyOn(Math, 'random').mockImplementation(mulberry32(1 ^ 0x9e3779b9));
  localStorage.clear();
  const world = new World(clock, mulberry32(1), NO_FAULTS, true);
  world.fixed = fixed;
  const run = new Run(clock, world, feed);
  await clock.advance(1000);
  expect(run.page.state.status).toBe('ready');
  return { clock, world, run };
}

describe('the Total Taps tile against the model, by hand', () => {
  /*
   * The browser test's failure (CI, kept-taps.e2e: the tile at 123, the server at 99), shrunk:
   * HTTP goes (the browser says offline; the socket stays),
   * the player taps, HTTP is back (the browser says online) before the sender's next retry. On
   * `online` the sender sends the taps it kept over the socket (TapSender.onOnline -> retry ->
   * NumberedBatches.probe -> send, numbered-batches.ts:158 `batch.sentAt ??= Date.now()`), and
   * the page, asking since it went offline, GETs the player (usePlayer.ts `now`). The batch is
   * counted, the GET is read after it and answered before the batch's (slow) ack: its figures
   * hold the 9 taps, asOf is after the batch left (usePlayer.ts:153).
   *
   * With the sender's waiting read afresh ('fresh') the tile does not add the batch again: it
   * was sent before asOf (useShownCounters.ts:38). The page hands the tile the tap status
   * reducer's copy instead (useGame.ts), changed only by 'tapped' and 'followed' (useTapSender.ts,
   * on an answer, an error or onChange). Sending a batch (or posting a paced tap) dispatched
   * neither: the copy still said the 9 taps were never sent, so notIn (useShownCounters.ts) added
   * them to figures that held them. The tile showed 18 until the ack came, and then still 18, for
   * good (it never goes down), while the status line said "synced" and the server held 9. Now a
   * batch or post leaving for the first time calls onChange.
   */
  it.each<Feed>(['fresh', 'page'])(
    'does not count twice the taps sent on `online` that a GET answered before their ack holds (%s waiting)',
    async (feed) => {
      const { clock, world, run } = await handWritten(feed, {
        toServer: 10,
        toClient: 300,
        http: 50,
      });
      run.now(() => world.httpOffline());
      await clock.advance(100);
      for (let i = 0; i < 9; i += 1) run.now(() => run.page.tap());
      // Before the sender's retry (1 to 2 s after it went offline).
      await clock.advance(300);
      run.now(() => world.httpBack());
      await clock.advance(10_000);
      await run.finalGet();
      expect({
        server: world.server.total,
        tile: run.page.tile,
        unconfirmed: run.page.sender.unconfirmed,
        sync: run.page.taps.sync,
        over: run.over,
      }).toEqual({ server: 9, tile: 9, unconfirmed: 0, sync: 'synced', over: null });
      run.page.close();
    },
  );
});
