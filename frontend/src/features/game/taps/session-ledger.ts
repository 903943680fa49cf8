import type { Batch } from './batch-queue';

interface SessionNumbers {
  last: number;
  /** The server said batches up to this number are in Postgres. */
  durable: number;
  /** Answered and counted, not yet durable: sent again if the server loses them. */
  held: Batch[];
}

/**
 * Each session's batch numbers: the last one used, how far the server has made them durable, and
 * the answered batches it has not (kept until it has, and sent again if it loses them).
 */
export class SessionLedger {
  private readonly sessions = new Map<string, SessionNumbers>();

  /** The session's next batch number. */
  next(sessionId: string): number {
    const numbers = this.numbers(sessionId);
    numbers.last += 1;
    return numbers.last;
  }

  /** Numbers an earlier page used go no lower: later batches are numbered above them. */
  raise(sessionId: string, last: number): void {
    const numbers = this.numbers(sessionId);
    numbers.last = Math.max(numbers.last, last);
  }

  /** The last number the session used, if it used any. */
  lastOf(sessionId: string): number | undefined {
    return this.sessions.get(sessionId)?.last;
  }

  /** The highest number below the batch's that the server answered: it must still hold it. */
  after(batch: Batch): number {
    const numbers = this.numbers(batch.sessionId);
    let after = numbers.durable < batch.seq ? numbers.durable : 0;
    for (const held of numbers.held) if (held.seq < batch.seq) after = Math.max(after, held.seq);
    return after;
  }

  /** The server counted `batch`; it is held until the server says it is durable. */
  hold(batch: Batch): void {
    this.numbers(batch.sessionId).held.push(batch);
  }

  /**
   * The server says the session's batches up to `durable` are in Postgres: they are let go.
   * Answers whether any was, and whether the session still holds some.
   */
  setDurable(sessionId: string, durable: number): { dropped: boolean; holding: boolean } {
    const numbers = this.numbers(sessionId);
    numbers.durable = Math.max(numbers.durable, durable);
    const before = numbers.held.length;
    numbers.held = numbers.held
      .filter((b) => b.seq > numbers.durable)
      .sort((a, b) => a.seq - b.seq);
    return { dropped: numbers.held.length !== before, holding: numbers.held.length > 0 };
  }

  /** The server's session stands at `seq`: the held batches above it, taken back to send again. */
  takeAbove(sessionId: string, seq: number): Batch[] {
    const numbers = this.numbers(sessionId);
    const again = numbers.held.filter((b) => b.seq > seq);
    numbers.held = numbers.held.filter((b) => b.seq <= seq);
    return again;
  }

  /** Every session's held batches, taken back to send again (after a reconnect). */
  takeAll(): [sessionId: string, batches: Batch[]][] {
    return [...this.sessions].map(([sessionId, numbers]) => {
      const again = numbers.held;
      numbers.held = [];
      return [sessionId, again];
    });
  }

  /** The sessions holding answered batches. */
  holding(): string[] {
    return [...this.sessions].filter(([, n]) => n.held.length > 0).map(([sessionId]) => sessionId);
  }

  /** The session's highest held number (0 when it holds none). */
  highestHeld(sessionId: string): number {
    return this.sessions.get(sessionId)?.held.at(-1)?.seq ?? 0;
  }

  /** Every held batch, session by session. */
  held(): Batch[] {
    return [...this.sessions.values()].flatMap((n) => n.held);
  }

  /** Answered batches the server has not yet said are durable. */
  get notDurable(): number {
    let n = 0;
    for (const numbers of this.sessions.values()) n += numbers.held.length;
    return n;
  }

  /**
   * Lets every held batch go (a frozen player's), keeping the numbers the sessions used: a batch
   * numbered again at or below them would be taken by the server for a re-send, and not counted.
   */
  dropHeld(): void {
    for (const numbers of this.sessions.values()) numbers.held = [];
  }

  private numbers(sessionId: string): SessionNumbers {
    let numbers = this.sessions.get(sessionId);
    if (!numbers) {
      numbers = { last: 0, durable: 0, held: [] };
      this.sessions.set(sessionId, numbers);
    }
    return numbers;
  }
}
