import {
  BOARD_DETAIL_ROWS,
  boardDetailSchema,
  diffBoards,
  diffSeasonBoards,
  gameEvents,
  type BoardDetail,
  type Boards,
  type SeasonBoards,
} from '@tapgram/shared';
import type { Server as SocketServer, Socket } from 'socket.io';
import { PUSH_INTERVAL_MS } from './push-claims';

const DETAILS = boardDetailSchema.options;
/** The sockets a delta goes to in one turn of the event loop. */
const SOCKETS_PER_TURN = 100;

/** The room of the sockets that follow a detail. */
export const boardRoom = (detail: BoardDetail) => `boards:${detail}`;
/** Every socket that speaks the compact protocol, so that full pushes leave it out. */
export const COMPACT_ROOM = 'boards:compact';

/** The players and countries a detail holds. */
function lists<B extends { users: unknown[]; countries: unknown[] }>(
  boards: B,
  detail: BoardDetail,
): B {
  const rows = BOARD_DETAIL_ROWS[detail];
  return {
    ...boards,
    users: boards.users.slice(0, rows.users),
    countries:
      rows.countries === null ? boards.countries : boards.countries.slice(0, rows.countries),
  };
}

/** A kind of boards a feed sends: its rooms, what a detail holds, its deltas, its events. */
interface FeedKind<B> {
  room: (detail: BoardDetail) => string;
  diff: (previous: B, next: B) => object | null;
  snapshotEvent: string;
  deltaEvent: string;
}

/** The all-time boards (`boards:snapshot`, `boards:delta`). */
const ALL_TIME: FeedKind<Boards> = {
  room: boardRoom,
  diff: diffBoards,
  snapshotEvent: gameEvents.boardsSnapshot,
  deltaEvent: gameEvents.boardsDelta,
};

/** The running season's boards (`season:snapshot`, `season:delta`). */
const SEASON: FeedKind<SeasonBoards> = {
  room: (detail) => `season:${detail}`,
  diff: diffSeasonBoards,
  snapshotEvent: gameEvents.seasonSnapshot,
  deltaEvent: gameEvents.seasonDelta,
};

interface FeedSource<B> {
  /** The boards, whole (the top 100 players, every country...). */
  read: () => Promise<B>;
  /** A value that changes whenever the boards may have changed. */
  version: () => Promise<unknown>;
}

/** What a feed reads and where it pushes. */
export interface FeedDeps<B> {
  io: SocketServer;
  source: FeedSource<B>;
  /** Called after each push (a metric). */
  onPush?: () => void;
  /** The clock of the pacing (a test sets it). */
  now?: () => number;
  /** Sockets sent their snapshot per turn of the event loop. */
  socketsPerTurn?: number;
}

/**
 * The compact board pushes of one process to its own sockets: each detail's boards whole once
 * (on connect or `watch`), then at most once a second what changed, as a delta against the
 * version the socket holds. Each process reads the boards for its sockets (about once a second
 * while they change), so a delta is always made against what this process sent: no state is
 * shared between processes, and nothing goes through the adapter. A feed that nobody follows
 * reads nothing.
 */
class Feed<B extends { users: unknown[]; countries: unknown[] }> {
  /** What each detail's sockets hold, and its version (unique across the details). */
  private readonly views = new Map<BoardDetail, { v: number; boards: B }>();
  private lastVersion = 0;
  /** The source's version at the last read, and when it was read. */
  private readVersion: unknown = null;
  private readAt = -Infinity;
  /** No socket followed the boards since the last read: what is held may be old. */
  private stale = true;
  /** Sockets waiting for their snapshot until the next read. */
  private readonly waiting = new Map<Socket, BoardDetail>();

  private readonly io: SocketServer;
  private readonly kind: FeedKind<B>;
  private readonly source: FeedSource<B>;
  private readonly onPush: () => void;
  private readonly now: () => number;
  private readonly socketsPerTurn: number;

  constructor(kind: FeedKind<B>, deps: FeedDeps<B>) {
    this.kind = kind;
    this.io = deps.io;
    this.source = deps.source;
    this.onPush = deps.onPush ?? (() => undefined);
    this.now = deps.now ?? (() => performance.now());
    this.socketsPerTurn = deps.socketsPerTurn ?? SOCKETS_PER_TURN;
  }

  /** `socket` follows `detail` from now on: its snapshot at once, or after the next read. */
  watch(socket: Socket, detail: BoardDetail): void {
    for (const other of DETAILS) if (other !== detail) void socket.leave(this.kind.room(other));
    const held = this.views.get(detail);
    if (held && !this.stale) {
      this.send(socket, detail, held);
      this.waiting.delete(socket);
    } else {
      this.waiting.set(socket, detail);
    }
  }

  /** `socket` no longer follows these boards. */
  unwatch(socket: Socket): void {
    for (const detail of DETAILS) void socket.leave(this.kind.room(detail));
    this.waiting.delete(socket);
  }

  forget(socket: Socket): void {
    this.waiting.delete(socket);
  }

  /**
   * One check: when a socket waits for its snapshot, or a push interval has passed and the boards
   * may have changed, reads them and sends each detail's delta to its room. Throws what the read
   * threw (nothing was sent; the next check tries again).
   */
  async check(): Promise<void> {
    if (this.waiting.size === 0) {
      if (!DETAILS.some((detail) => this.followers(detail) > 0)) {
        this.stale = true;
        return;
      }
      if (this.now() - this.readAt < PUSH_INTERVAL_MS) return;
    }
    const version = await this.source.version();
    if (this.waiting.size === 0 && version === this.readVersion && !this.stale) return;
    const boards = await this.source.read();
    this.readAt = this.now();
    this.readVersion = version;
    this.stale = false;
    let pushed = false;
    for (const detail of DETAILS) {
      const next = lists(boards, detail);
      const held = this.views.get(detail);
      const delta = held ? this.kind.diff(held.boards, next) : null;
      if (held && !delta) continue;
      const v = ++this.lastVersion;
      this.views.set(detail, { v, boards: next });
      if (held && delta && this.followers(detail) > 0) {
        await this.sendInTurns(this.kind.room(detail), { from: held.v, v, ...delta });
        pushed = true;
      }
    }
    if (pushed) this.onPush();
    for (const [socket, detail] of this.waiting) {
      const held = this.views.get(detail);
      if (socket.connected && held) this.send(socket, detail, held);
    }
    this.waiting.clear();
  }

  /**
   * Sends a delta to a room's sockets `socketsPerTurn` at a time, each lot in its own turn of the
   * event loop: the acknowledgements of taps that came in meanwhile go out between the lots
   * instead of after ten thousand frames. A socket that left the room before its lot (it follows
   * another detail now, or is gone) is skipped; one that joined after the first lot holds this
   * version already (its snapshot).
   */
  private async sendInTurns(room: string, message: object): Promise<void> {
    const members = this.io.of('/').adapter.rooms.get(room);
    if (!members) return;
    const ids = [...members];
    for (let i = 0; i < ids.length; i += this.socketsPerTurn) {
      if (i > 0) await new Promise((resolve) => setImmediate(resolve));
      const still = this.io.of('/').adapter.rooms.get(room);
      const lot = ids.slice(i, i + this.socketsPerTurn).filter((id) => still?.has(id));
      if (lot.length > 0) this.io.local.to(lot).emit(this.kind.deltaEvent, message);
    }
  }

  private send(socket: Socket, detail: BoardDetail, held: { v: number; boards: B }) {
    void socket.join(this.kind.room(detail));
    socket.emit(this.kind.snapshotEvent, { v: held.v, ...held.boards });
  }

  private followers(detail: BoardDetail): number {
    return this.io.of('/').adapter.rooms.get(this.kind.room(detail))?.size ?? 0;
  }
}

/**
 * The all-time boards' feed (`boards:snapshot`, `boards:delta`). Its followers speak the compact
 * protocol: the full pushes leave them out.
 */
export class BoardFeed extends Feed<Boards> {
  constructor(deps: FeedDeps<Boards>) {
    super(ALL_TIME, deps);
  }

  override watch(socket: Socket, detail: BoardDetail): void {
    void socket.join(COMPACT_ROOM);
    super.watch(socket, detail);
  }
}

/** The running season's feed (`season:snapshot`, `season:delta`), beside the all-time one. */
export class SeasonFeed extends Feed<SeasonBoards> {
  constructor(deps: FeedDeps<SeasonBoards>) {
    super(SEASON, deps);
  }
}
