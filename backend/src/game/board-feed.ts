import {
  BOARD_DETAIL_ROWS,
  boardDetailSchema,
  diffBoards,
  gameEvents,
  type BoardDetail,
  type Boards,
  type BoardsDelta,
  type BoardsSnapshot,
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

/** What a detail holds of the boards. */
function view(boards: Boards, detail: BoardDetail): Boards {
  const rows = BOARD_DETAIL_ROWS[detail];
  return {
    users: boards.users.slice(0, rows.users),
    countries:
      rows.countries === null ? boards.countries : boards.countries.slice(0, rows.countries),
    milestone: boards.milestone,
  };
}

/**
 * The compact board pushes of one process to its own sockets: each detail's boards whole once
 * (on connect or `watch`), then at most once a second what changed, as a delta against the
 * version the socket holds. Each process reads the boards for its sockets (about once a second
 * while they change), so a delta is always made against what this process sent: no state is
 * shared between processes, and nothing goes through the adapter.
 */
export class BoardFeed {
  /** What each detail's sockets hold, and its version (unique across the details). */
  private readonly views = new Map<BoardDetail, { v: number; boards: Boards }>();
  private lastVersion = 0;
  /** The store's change counter at the last read, and when it was read. */
  private readVersion: number | null = null;
  private readAt = -Infinity;
  /** No socket followed the boards since the last read: what is held may be old. */
  private stale = true;
  /** Sockets waiting for their snapshot until the next read. */
  private readonly waiting = new Map<Socket, BoardDetail>();

  constructor(
    private readonly io: SocketServer,
    private readonly source: {
      /** The boards, whole (the top 100 players, every country, the milestone). */
      read: () => Promise<Boards>;
      /** A counter that moves whenever the boards may have changed. */
      version: () => Promise<number>;
    },
    private readonly onPush: () => void = () => undefined,
    private readonly now: () => number = () => performance.now(),
    private readonly socketsPerTurn = SOCKETS_PER_TURN,
  ) {}

  /** `socket` follows `detail` from now on: its snapshot at once, or after the next read. */
  watch(socket: Socket, detail: BoardDetail): void {
    void socket.join(COMPACT_ROOM);
    for (const other of DETAILS) if (other !== detail) void socket.leave(boardRoom(other));
    const held = this.views.get(detail);
    if (held && !this.stale) {
      this.send(socket, detail, held);
      this.waiting.delete(socket);
    } else {
      this.waiting.set(socket, detail);
    }
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
      const next = view(boards, detail);
      const held = this.views.get(detail);
      const delta = held ? diffBoards(held.boards, next) : null;
      if (held && !delta) continue;
      const v = ++this.lastVersion;
      this.views.set(detail, { v, boards: next });
      if (held && delta && this.followers(detail) > 0) {
        const message: BoardsDelta = { from: held.v, v, ...delta };
        await this.sendInTurns(boardRoom(detail), message);
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
  private async sendInTurns(room: string, message: BoardsDelta): Promise<void> {
    const members = this.io.of('/').adapter.rooms.get(room);
    if (!members) return;
    const ids = [...members];
    for (let i = 0; i < ids.length; i += this.socketsPerTurn) {
      if (i > 0) await new Promise((resolve) => setImmediate(resolve));
      const still = this.io.of('/').adapter.rooms.get(room);
      const lot = ids.slice(i, i + this.socketsPerTurn).filter((id) => still?.has(id));
      if (lot.length > 0) this.io.local.to(lot).emit(gameEvents.boardsDelta, message);
    }
  }

  private send(socket: Socket, detail: BoardDetail, held: { v: number; boards: Boards }) {
    void socket.join(boardRoom(detail));
    const snapshot: BoardsSnapshot = { v: held.v, ...held.boards };
    socket.emit(gameEvents.boardsSnapshot, snapshot);
  }

  private followers(detail: BoardDetail): number {
    return this.io.of('/').adapter.rooms.get(boardRoom(detail))?.size ?? 0;
  }
}
