/** A numbered batch of a session, not yet durable on the server. */
export interface KeptBatch {
  userId: string;
  sessionId: string;
  seq: number;
  count: number;
  /** The server counted it once (it may yet lose it): not shown again as waiting. */
  answered: boolean;
  /** When a page first sent it, if one did. */
  sentAt?: number;
}

/** Taps counted on the screen and not yet numbered into a batch. */
export interface KeptLoose {
  userId: string;
  sessionId: string;
  count: number;
}

/** A tap posted one by one (the socket down), with the key that makes it count once. */
export interface KeptPost {
  userId: string;
  sessionId: string;
  key: string;
  /** When a page first posted it, if one did. */
  sentAt?: number;
}

/**
 * What a page keeps on the device of the taps the server has not made durable: enough to send
 * each of them once, by its number or key, from another page (a reload, the next visit).
 */
export interface KeptTaps {
  batches: KeptBatch[];
  loose: KeptLoose[];
  posts: KeptPost[];
  /** The last batch number each session used: taps numbered later go above it. */
  last: Record<string, number>;
  /**
   * Which of a page's writes this is, counted up: of two copies of one page's taps (its
   * asynchronous one and the one written at once as it goes), the higher is the newer.
   */
  version?: number;
}

export const emptyKept = (): KeptTaps => ({ batches: [], loose: [], posts: [], last: {} });

/** Taps of `kept` the server has not counted yet (what the screen shows as waiting). */
export function waitingIn(kept: KeptTaps): number {
  let n = kept.posts.length;
  for (const batch of kept.batches) if (!batch.answered) n += batch.count;
  for (const loose of kept.loose) n += loose.count;
  return n;
}

/** Whether `value` has the shape of KeptTaps (what the device holds may be of another version). */
export function isKept(value: unknown): value is KeptTaps {
  const kept = value as Partial<KeptTaps> | null;
  return (
    !!kept &&
    Array.isArray(kept.batches) &&
    Array.isArray(kept.loose) &&
    Array.isArray(kept.posts) &&
    typeof kept.last === 'object' &&
    kept.last !== null
  );
}

/** All of several pages' kept taps, as one page sends them. */
export function mergeKept(all: KeptTaps[]): KeptTaps {
  const merged = emptyKept();
  for (const kept of all) {
    merged.batches.push(...kept.batches);
    merged.loose.push(...kept.loose);
    merged.posts.push(...kept.posts);
    for (const [sessionId, last] of Object.entries(kept.last)) {
      merged.last[sessionId] = Math.max(merged.last[sessionId] ?? 0, last);
    }
  }
  return merged;
}

/**
 * Where a page keeps its taps: its own entry, so that two open pages do not overwrite each
 * other's. `adopt` takes the entries of pages that are gone (closed, reloaded, killed) and
 * removes them: the adopting page keeps them from then on. `write` is the page's copy as it goes;
 * `writeNow` a copy written before it returns, for a page being hidden or closed, which may not
 * live to finish the other.
 */
export interface KeptTapsStorage {
  adopt(): Promise<KeptTaps>;
  write(kept: KeptTaps): Promise<void>;
  writeNow(kept: KeptTaps): void;
}

/**
 * Writes a page's kept taps as they change: one write at a time, each of the newest state (read
 * when the write starts), none before the page has adopted what earlier pages kept, so that an
 * empty start never overwrites what they left.
 */
export class KeptTapsWriter {
  private version = 0;
  private loaded = false;
  private writing = false;
  private dirty = false;
  private idle: Promise<void> = Promise.resolve();
  private resolveIdle: (() => void) | null = null;

  constructor(
    private readonly storage: KeptTapsStorage,
    private readonly read: () => KeptTaps,
    private readonly onError: (error: unknown) => void = () => undefined,
  ) {}

  /** Takes what earlier pages kept; writes start after it. */
  async adopt(): Promise<KeptTaps> {
    try {
      return await this.storage.adopt();
    } catch (error) {
      this.onError(error);
      return emptyKept();
    } finally {
      this.loaded = true;
      if (this.dirty) this.changed();
    }
  }

  /** The page's taps changed: written soon, of the newest state. */
  changed(): void {
    this.dirty = true;
    if (!this.loaded || this.writing) return;
    this.writing = true;
    this.idle = new Promise((resolve) => {
      this.resolveIdle = resolve;
    });
    void this.writeLoop();
  }

  /**
   * The page is being hidden or closed: its newest state is written before this returns (the
   * asynchronous write of the last tap may never finish).
   */
  writeNow(): void {
    try {
      this.storage.writeNow(this.newest());
    } catch (error) {
      this.onError(error);
    }
  }

  /** Resolves once what changed so far is written (tests). */
  settled(): Promise<void> {
    return this.idle;
  }

  private newest(): KeptTaps {
    this.version += 1;
    return { ...this.read(), version: this.version };
  }

  private async writeLoop() {
    while (this.dirty) {
      this.dirty = false;
      try {
        await this.storage.write(this.newest());
      } catch (error) {
        this.onError(error);
      }
    }
    this.writing = false;
    this.resolveIdle?.();
    this.resolveIdle = null;
  }
}
