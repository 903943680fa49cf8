// Imported first by main.tsx, so that this runs before the other modules of the entry evaluate
// (react-dom's alone is about 100 ms on a phone): the worker loads the browser's Unicode data off
// the main thread (see intl-warm.worker.ts) while they do, and the page's first number, date or
// country name (in the render that hydrates /play, or on the boards' first answer) finds it loaded.
// Where workers are missing or forbidden, the page loads that data at its first use, as before.
if (typeof Worker === 'function') {
  try {
    new Worker(new URL('./intl-warm.worker.ts', import.meta.url));
  } catch {
    // A policy that forbids the worker: the main thread loads the data at its first use.
  }
}

export {};
