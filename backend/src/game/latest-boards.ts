import type { LeaderboardSnapshot } from './service';

/**
 * The whole boards as this process last read them, with the change counter read just before
 * that read: while the counter has not moved they are still the boards, so asking costs a look
 * at the counter, not a read of the boards. Asks run one after another, so that everything that
 * asks in one moment (new sockets, the push, the deltas) shares one read.
 */
export class LatestBoards<T = LeaderboardSnapshot> {
  private held: { version: unknown; boards: T } | null = null;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly source: {
      read: () => Promise<T>;
      /** A value that changes whenever the boards may have changed. */
      version: () => Promise<unknown>;
    },
  ) {}

  /** The boards as they stand at some moment after this call. */
  current(): Promise<T> {
    const answer = this.queue.then(() => this.fresh());
    this.queue = answer.catch(() => undefined);
    return answer;
  }

  private async fresh(): Promise<T> {
    const version = await this.source.version();
    if (this.held && this.held.version === version) return this.held.boards;
    const boards = await this.source.read();
    this.held = { version, boards };
    return boards;
  }
}
