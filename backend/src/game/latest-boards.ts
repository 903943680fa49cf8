import type { LeaderboardSnapshot } from './service';

/**
 * The whole boards as this process last read them, with the change counter read just before
 * that read: while the counter has not moved they are still the boards, so asking costs a look
 * at the counter, not a read of the boards. Asks run one after another, so that everything that
 * asks in one moment (new sockets, the push, the deltas) shares one read.
 */
export class LatestBoards {
  private held: { version: number; boards: LeaderboardSnapshot } | null = null;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly source: {
      read: () => Promise<LeaderboardSnapshot>;
      /** A counter that moves whenever the boards may have changed. */
      version: () => Promise<number>;
    },
  ) {}

  /** The boards as they stand at some moment after this call. */
  current(): Promise<LeaderboardSnapshot> {
    const answer = this.queue.then(() => this.fresh());
    this.queue = answer.catch(() => undefined);
    return answer;
  }

  private async fresh(): Promise<LeaderboardSnapshot> {
    const version = await this.source.version();
    if (this.held?.version === version) return this.held.boards;
    const boards = await this.source.read();
    this.held = { version, boards };
    return boards;
  }
}
