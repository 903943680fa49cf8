import type { SentTaps } from './tap-answers';

/** A numbered batch of a session's taps, from its cut until the server says it is durable. */
export interface Batch {
  userId: string;
  sessionId: string;
  count: number;
  seq: number;
  /** Only the newest emit of a batch may settle it; older ones are superseded. */
  attempt: number;
  /** Counted once already (then lost by the server, or re-sent to make sure). */
  answered: boolean;
  /** When a page first sent it (the server's figures read since may hold it). */
  sentAt?: number;
}

/**
 * The numbered batches waiting for an answer that counts them, in order of their numbers, and
 * the one batch of each session on its way (sent, not answered).
 */
export class BatchQueue {
  private waiting: Batch[] = [];
  private readonly flying = new Map<string, Batch>();

  /** Every batch waiting, oldest number first. */
  get all(): readonly Batch[] {
    return this.waiting;
  }

  get length(): number {
    return this.waiting.length;
  }

  push(batch: Batch): void {
    this.waiting.push(batch);
  }

  /** Puts `batches` in, and the queue back in the order of the numbers. */
  add(batches: Batch[]): void {
    this.waiting = [...this.waiting, ...batches].sort((a, b) => a.seq - b.seq);
  }

  remove(batch: Batch): void {
    this.waiting = this.waiting.filter((b) => b !== batch);
  }

  includes(batch: Batch): boolean {
    return this.waiting.includes(batch);
  }

  clear(): void {
    this.waiting = [];
    this.flying.clear();
  }

  /** The sessions with a batch waiting, each once. */
  sessions(): Set<string> {
    return new Set(this.waiting.map((b) => b.sessionId));
  }

  hasSession(sessionId: string): boolean {
    return this.waiting.some((b) => b.sessionId === sessionId);
  }

  /** The session's next batch to send. */
  nextOf(sessionId: string): Batch | undefined {
    return this.waiting.find((b) => b.sessionId === sessionId);
  }

  /** The first batch whose session has nothing on its way. */
  firstSendable(): Batch | undefined {
    return this.waiting.find((b) => !this.flying.has(b.sessionId));
  }

  /** Taps waiting that the server has not counted yet (of `sessionId` only, if given). */
  unanswered(sessionId?: string): number {
    let n = 0;
    for (const b of this.waiting) {
      if (!b.answered && (sessionId === undefined || b.sessionId === sessionId)) n += b.count;
    }
    return n;
  }

  /** The batches not yet counted that were sent before (the server may hold them already). */
  sent(): SentTaps[] {
    const sent: SentTaps[] = [];
    for (const { answered, sentAt, sessionId, count } of this.waiting) {
      if (!answered && sentAt !== undefined) sent.push({ sessionId, at: sentAt, count });
    }
    return sent;
  }

  isFlying(sessionId: string): boolean {
    return this.flying.has(sessionId);
  }

  flown(batch: Batch): void {
    this.flying.set(batch.sessionId, batch);
  }

  landed(sessionId: string): void {
    this.flying.delete(sessionId);
  }

  /** The connection is new: what was on its way is lost, and goes again. */
  grounded(): void {
    this.flying.clear();
  }
}
