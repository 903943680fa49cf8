import { createStore, del, entries, set, type UseStore } from 'idb-keyval';
import { isKept, mergeKept, type KeptTaps, type KeptTapsStorage } from './kept-taps';

const PREFIX = 'taps:';
/** The copy a page writes at once as it is hidden or closed, in localStorage (synchronous). */
const NOW_PREFIX = 'tapgram.kept-taps.';

/** The name of a page's Web Lock: held while the page lives, free once it is gone. */
const lockName = (page: string) => `tapgram-kept-${page}`;
/** Held while a page adopts, so that two pages opened at once do not both take a gone page's taps. */
const ADOPTING = 'tapgram-kept-adopting';

const locks = () => (typeof navigator === 'undefined' ? undefined : navigator.locks);

/** Whether the page that wrote `page`'s entry is gone (its lock is free); true without Web Locks. */
async function pageGone(page: string): Promise<boolean> {
  const held = locks();
  if (!held) return true;
  return held.request(lockName(page), { ifAvailable: true }, (lock) => lock !== null);
}

const isEmpty = (kept: KeptTaps) =>
  kept.batches.length + kept.loose.length + kept.posts.length === 0;

function readNow(key: string): KeptTaps | null {
  try {
    const kept = JSON.parse(localStorage.getItem(key) ?? 'null') as unknown;
    return isKept(kept) ? kept : null;
  } catch {
    return null;
  }
}

/** Of a page's two copies, the newer (the higher version; the asynchronous one when even). */
function newer(stored: KeptTaps | null, now: KeptTaps | null): KeptTaps | null {
  if (!stored || !now) return stored ?? now;
  return (now.version ?? 0) > (stored.version ?? 0) ? now : stored;
}

/**
 * The browser's IndexedDB (through idb-keyval), one entry per page; and, for a page being hidden
 * or closed, a copy in localStorage written before the page goes (IndexedDB's writes finish later,
 * and a closed page's may never do). The next page takes the newer of a gone page's two copies.
 */
export function indexedDbKeptTaps(page = randomPageId()): KeptTapsStorage {
  let store: UseStore | null = null;
  const db = () => (store ??= createStore('tapgram', 'kept-taps'));
  const nowKey = NOW_PREFIX + page;
  // Held for the page's life: another page adopts this page's entry only once it is gone.
  void locks()?.request(lockName(page), () => new Promise<void>(() => undefined));

  async function adoptGone(): Promise<KeptTaps> {
    const owners = new Map<string, { stored: KeptTaps | null; now: KeptTaps | null }>();
    for (const [key, value] of await entries<string, unknown>(db())) {
      const owner = String(key).slice(PREFIX.length);
      owners.set(owner, { stored: isKept(value) ? value : null, now: null });
    }
    for (let i = 0; i < localStorage.length; i += 1) {
      const key = localStorage.key(i);
      if (!key?.startsWith(NOW_PREFIX)) continue;
      const owner = key.slice(NOW_PREFIX.length);
      const copies = owners.get(owner) ?? { stored: null, now: null };
      copies.now = readNow(key);
      owners.set(owner, copies);
    }
    const found: KeptTaps[] = [];
    for (const [owner, { stored, now }] of owners) {
      if (owner === page || !(await pageGone(owner))) continue;
      const kept = newer(stored, now);
      if (kept) found.push(kept);
      localStorage.removeItem(NOW_PREFIX + owner);
      await del(PREFIX + owner, db());
    }
    return mergeKept(found);
  }

  return {
    async adopt() {
      const held = locks();
      return held ? await held.request(ADOPTING, adoptGone) : adoptGone();
    },
    async write(kept) {
      if (isEmpty(kept)) await del(PREFIX + page, db());
      else await set(PREFIX + page, kept, db());
      // The copy written at once is older from now on: the next page must not take it.
      const now = readNow(nowKey);
      if (now && (now.version ?? 0) <= (kept.version ?? 0)) localStorage.removeItem(nowKey);
    },
    // Written even when empty: newer than an asynchronous copy still holding taps since sent.
    writeNow(kept) {
      localStorage.setItem(nowKey, JSON.stringify(kept));
    },
  };
}

function randomPageId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(8));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}
