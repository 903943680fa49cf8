import type { Batch, BatchQueue } from './batch-queue';
import type { KeptPost, KeptTaps } from './kept-taps';
import type { SessionLedger } from './session-ledger';
import type { LooseTaps } from './tap-window';

/** The parts of the tap protocol that hold taps the server has not made durable. */
export interface HeldTaps {
  queue: BatchQueue;
  ledger: SessionLedger;
  loose: LooseTaps | null;
  posts: KeptPost[];
  /** The session tapped last: its numbers are kept even when nothing of it waits. */
  lastSession: string | null;
}

const keptOf = ({ userId, sessionId, seq, count, sentAt }: Batch) => ({
  userId,
  sessionId,
  seq,
  count,
  ...(sentAt === undefined ? {} : { sentAt }),
});

/** What the device keeps: every tap the server has not made durable, with its numbers. */
export function keptFrom({ queue, ledger, loose, posts, lastSession }: HeldTaps): KeptTaps {
  const kept: KeptTaps = { batches: [], loose: [], posts, last: {} };
  const named = new Set<string>(lastSession ? [lastSession] : []);
  for (const b of queue.all) {
    kept.batches.push({ ...keptOf(b), answered: b.answered });
    named.add(b.sessionId);
  }
  for (const b of ledger.held()) {
    kept.batches.push({ ...keptOf(b), answered: true });
    named.add(b.sessionId);
  }
  if (loose) {
    kept.loose.push({ ...loose });
    named.add(loose.sessionId);
  }
  for (const sessionId of named) {
    const last = ledger.lastOf(sessionId);
    if (last) kept.last[sessionId] = last;
  }
  return kept;
}

/**
 * The batches to send of what an earlier page kept: its batches with their numbers (unless
 * `queue` has them already), and its taps not yet numbered in batches of at most `most`, numbered
 * above the last their session used.
 */
export function batchesOf(
  kept: KeptTaps,
  ledger: SessionLedger,
  queue: BatchQueue,
  most: number,
): Batch[] {
  for (const [sessionId, last] of Object.entries(kept.last)) ledger.raise(sessionId, last);
  const batches: Batch[] = [];
  const seen = new Set(queue.all.map((b) => `${b.sessionId}#${b.seq}`));
  for (const b of kept.batches) {
    const name = `${b.sessionId}#${b.seq}`;
    if (seen.has(name)) continue;
    seen.add(name);
    ledger.raise(b.sessionId, b.seq);
    batches.push({ ...b, attempt: 0 });
  }
  for (const loose of kept.loose) {
    for (let left = loose.count; left > 0;) {
      const count = Math.min(left, most);
      left -= count;
      batches.push({
        ...loose,
        count,
        seq: ledger.next(loose.sessionId),
        attempt: 0,
        answered: false,
      });
    }
  }
  return batches;
}
