import { createStore, del, entries, set, type UseStore } from 'idb-keyval';
import { isKept, mergeKept, type KeptTaps, type KeptTapsStorage } from './kept-taps';

const PREFIX = 'taps:';

/** The name of a page's Web Lock: held while the page lives, free once it is gone. */
const lockName = (page: string) => `tapgram-kept-${page}`;

/** Whether the page that wrote `page`'s entry is gone (its lock is free); true without Web Locks. */
async function pageGone(page: string): Promise<boolean> {
  const locks = typeof navigator === 'undefined' ? undefined : navigator.locks;
  if (!locks) return true;
  return locks.request(lockName(page), { ifAvailable: true }, (lock) => lock !== null);
}

/** The browser's IndexedDB (through idb-keyval), one entry per page. */
export function indexedDbKeptTaps(page = randomPageId()): KeptTapsStorage {
  let store: UseStore | null = null;
  const db = () => (store ??= createStore('tapgram', 'kept-taps'));
  // Held for the page's life: another page adopts this page's entry only once it is gone.
  void navigator.locks?.request(lockName(page), () => new Promise<void>(() => undefined));
  return {
    async adopt() {
      const found: KeptTaps[] = [];
      for (const [key, value] of await entries<string, unknown>(db())) {
        const owner = String(key).slice(PREFIX.length);
        if (owner === page || !(await pageGone(owner))) continue;
        if (isKept(value)) found.push(value);
        await del(key, db());
      }
      return mergeKept(found);
    },
    async write(kept) {
      if (kept.batches.length + kept.loose.length + kept.posts.length === 0) {
        await del(PREFIX + page, db());
      } else {
        await set(PREFIX + page, kept, db());
      }
    },
  };
}

function randomPageId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(8));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}
