import {
  applyBoardsDelta,
  gameEvents,
  type BoardDetail,
  type Boards,
  type BoardsDelta,
  type BoardsPush,
  type BoardsSnapshot,
} from '@tapgram/shared';
import type { GameSocket } from './lazy-socket';

/** Which boards an update changed: the screens store only those, so the others keep their rows. */
export interface BoardsChanged {
  users: boolean;
  countries: boolean;
  milestone: boolean;
}

const ALL_CHANGED: BoardsChanged = { users: true, countries: true, milestone: true };

/**
 * The boards as the game channel's compact protocol sends them to this page: a snapshot of the
 * followed detail, then deltas against it. A delta made against other boards than those held (a
 * lost message, a switch of detail) is dropped and the snapshot asked for again; after a
 * reconnect the handshake brings a new snapshot.
 */
export class BoardFollower {
  private held: { v: number; boards: Boards } | null = null;

  /**
   * `askedAtConnect` tells which detail the channel's last handshake asked for: when it is this
   * one, the snapshot comes with the connection.
   */
  constructor(
    private readonly socket: Pick<GameSocket, 'connected' | 'on' | 'off' | 'emit'>,
    private readonly detail: BoardDetail,
    private readonly onBoards: (boards: Boards, changed: BoardsChanged) => void,
    private readonly askedAtConnect: () => BoardDetail | undefined,
  ) {
    socket.on(gameEvents.boards, this.onWhole);
    socket.on(gameEvents.boardsSnapshot, this.onSnapshot);
    socket.on(gameEvents.boardsDelta, this.onDelta);
    socket.on('connect', this.onConnect);
    socket.on('disconnect', this.onDisconnect);
    // Connected already (another screen opened the channel): its snapshot went to that screen.
    if (socket.connected) this.askSnapshot();
  }

  dispose(): void {
    this.socket.off(gameEvents.boards, this.onWhole);
    this.socket.off(gameEvents.boardsSnapshot, this.onSnapshot);
    this.socket.off(gameEvents.boardsDelta, this.onDelta);
    this.socket.off('connect', this.onConnect);
    this.socket.off('disconnect', this.onDisconnect);
  }

  private askSnapshot() {
    this.held = null;
    this.socket.emit(gameEvents.watch, { boards: this.detail });
  }

  /** The full pushes of a channel opened before the page asked for a detail. */
  private readonly onWhole = (push: BoardsPush) => {
    const boards: Boards = {
      users: push.users ?? this.held?.boards.users ?? [],
      countries: push.countries ?? this.held?.boards.countries ?? [],
      milestone: push.milestone ?? this.held?.boards.milestone ?? { usersOver100k: 0 },
    };
    this.onBoards(boards, {
      users: push.users !== undefined,
      countries: push.countries !== undefined,
      milestone: push.milestone !== undefined,
    });
  };

  private readonly onSnapshot = ({ v, ...boards }: BoardsSnapshot) => {
    this.held = { v, boards };
    this.onBoards(boards, ALL_CHANGED);
  };

  private readonly onDelta = (delta: BoardsDelta) => {
    // Waiting for a snapshot: it comes after this delta and holds it.
    if (!this.held) return;
    let boards: Boards;
    try {
      if (delta.from !== this.held.v) throw new Error('a delta against other boards');
      boards = applyBoardsDelta(this.held.boards, delta);
    } catch {
      this.askSnapshot();
      return;
    }
    this.held = { v: delta.v, boards };
    this.onBoards(boards, {
      users: delta.users !== undefined,
      countries: delta.countries !== undefined,
      milestone: delta.milestone !== undefined,
    });
  };

  private readonly onConnect = () => {
    if (this.askedAtConnect() !== this.detail) this.askSnapshot();
  };

  private readonly onDisconnect = () => {
    this.held = null;
  };
}
