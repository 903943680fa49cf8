import {
  applySeasonBoardsDelta,
  gameEvents,
  type BoardDetail,
  type SeasonBoards,
  type SeasonBoardsDelta,
  type SeasonBoardsSnapshot,
  type WatchSeason,
} from '@tapgram/shared';
import type { GameSocket } from '../lazy-socket';

/**
 * The running season's boards as the game channel sends them to this page: it asks for them
 * (`season:watch`) on every connection, takes the snapshot, then the deltas against it; a delta
 * made against other boards than those held (a lost message) asks for the snapshot again.
 */
export class SeasonFollower {
  private held: { v: number; boards: SeasonBoards } | null = null;

  constructor(
    private readonly socket: Pick<GameSocket, 'connected' | 'on' | 'off' | 'emit'>,
    private readonly detail: BoardDetail,
    private readonly onBoards: (boards: SeasonBoards) => void,
  ) {
    socket.on(gameEvents.seasonSnapshot, this.onSnapshot);
    socket.on(gameEvents.seasonDelta, this.onDelta);
    socket.on('connect', this.watch);
    socket.on('disconnect', this.onDisconnect);
    if (socket.connected) this.watch();
  }

  dispose(): void {
    this.socket.off(gameEvents.seasonSnapshot, this.onSnapshot);
    this.socket.off(gameEvents.seasonDelta, this.onDelta);
    this.socket.off('connect', this.watch);
    this.socket.off('disconnect', this.onDisconnect);
    const stop: WatchSeason = { boards: null };
    if (this.socket.connected) this.socket.emit(gameEvents.watchSeason, stop);
  }

  private readonly watch = () => {
    this.held = null;
    const watch: WatchSeason = { boards: this.detail };
    this.socket.emit(gameEvents.watchSeason, watch);
  };

  private readonly onSnapshot = ({ v, ...boards }: SeasonBoardsSnapshot) => {
    this.held = { v, boards };
    this.onBoards(boards);
  };

  private readonly onDelta = (delta: SeasonBoardsDelta) => {
    if (!this.held) return;
    let boards: SeasonBoards;
    try {
      if (delta.from !== this.held.v) throw new Error('a delta against other boards');
      boards = applySeasonBoardsDelta(this.held.boards, delta);
    } catch {
      this.watch();
      return;
    }
    this.held = { v: delta.v, boards };
    this.onBoards(boards);
  };

  private readonly onDisconnect = () => {
    this.held = null;
  };
}
