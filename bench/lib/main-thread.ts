// Reads a Chromium performance trace of one page load: what its main thread did, in tasks and in
// the kinds of work Lighthouse names (mainthread-work-breakdown), and its long tasks. Durations are
// the thread's CPU time (the trace's `tdur`), not the wall clock's: on a machine shared with other
// work a task's wall time grows with the load, its CPU time hardly does.

export interface TraceEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  /** CPU time of the thread during the event, in µs. */
  tdur?: number;
  args?: { data?: { url?: string }; beginData?: { url?: string }; name?: string };
}

/** The kinds of work, as Lighthouse groups the trace's events; a nested event of no kind is its parent's. */
export const WORK_KINDS = {
  script: [
    'EvaluateScript',
    'v8.evaluateModule',
    'FunctionCall',
    'v8.callFunction',
    'TimerFire',
    'EventDispatch',
    'FireIdleCallback',
    'FireAnimationFrame',
    'RunMicrotasks',
    'V8.Execute',
  ],
  'parse and compile': [
    'v8.compile',
    'v8.compileModule',
    'v8.parseOnBackground',
    'v8.produceCache',
  ],
  'style and layout': [
    'ScheduleStyleRecalculation',
    'UpdateLayoutTree',
    'InvalidateLayout',
    'Layout',
  ],
  rendering: [
    'Animation',
    'HitTest',
    'PaintSetup',
    'Paint',
    'PaintImage',
    'PrePaint',
    'Layerize',
    'UpdateLayer',
    'UpdateLayerTree',
    'CompositeLayers',
    'Commit',
  ],
  'HTML and CSS parsing': ['ParseHTML', 'ParseAuthorStyleSheet'],
  'garbage collection': ['MinorGC', 'MajorGC', 'GCEvent', 'BlinkGC.AtomicPhase'],
} as const;
export type WorkKind = keyof typeof WORK_KINDS | 'other';

const KIND_OF = new Map<string, WorkKind>(
  Object.entries(WORK_KINDS).flatMap(([kind, names]) =>
    names.map((name) => [name, kind as WorkKind] as const),
  ),
);

/** A task the main thread ran: its start (ms after the navigation) and its CPU time (ms). */
export interface Task {
  start: number;
  cpu: number;
}

export interface MainThread {
  /** When the page first painted content, in ms after the navigation started. */
  firstContentfulPaint: number;
  tasks: Task[];
  /** Self CPU time of the main thread's work by kind, in ms. */
  work: Record<WorkKind, number>;
}

/** Lighthouse's long task: longer than 50 ms; what is above 50 ms blocks input (TBT). */
export const LONG_TASK_MS = 50;

/**
 * The main thread of the renderer that parsed `url`'s HTML, from the navigation's start (the
 * first `navigationStart` mark of that page) to the end of the trace.
 */
export function readMainThread(events: TraceEvent[], url: string): MainThread {
  const parse = events.find((e) => e.name === 'ParseHTML' && e.args?.beginData?.url === url);
  if (!parse) throw new Error(`The trace holds no parsing of ${url}`);
  const onThread = events.filter((e) => e.pid === parse.pid && e.tid === parse.tid);
  const navigation = onThread.find((e) => e.name === 'navigationStart' && e.ts <= parse.ts);
  const origin = navigation?.ts ?? parse.ts;
  const paint = onThread.find((e) => e.name === 'firstContentfulPaint' && e.ts >= origin);
  const complete = onThread
    .filter((e) => e.ph === 'X' && e.dur !== undefined && e.ts >= origin)
    .sort((a, b) => a.ts - b.ts || (b.dur ?? 0) - (a.dur ?? 0));

  const tasks: Task[] = [];
  const work = Object.fromEntries(
    [...Object.keys(WORK_KINDS), 'other'].map((kind) => [kind, 0]),
  ) as Record<WorkKind, number>;
  // A stack of the open events, each with its kind and the time its children took.
  const stack: { end: number; kind: WorkKind; cpu: number; children: number }[] = [];
  const close = (until: number) => {
    while (stack.length > 0 && stack[stack.length - 1].end <= until) {
      const done = stack.pop()!;
      work[done.kind] += Math.max(0, done.cpu - done.children) / 1000;
    }
  };
  for (const event of complete) {
    close(event.ts);
    const cpu = event.tdur ?? event.dur ?? 0;
    const parent = stack[stack.length - 1];
    if (!parent) {
      // Only the scheduler's tasks are tasks: work outside them (tracing's own) is left out.
      if (event.name !== 'RunTask' && event.name !== 'ThreadControllerImpl::RunTask') continue;
      tasks.push({ start: (event.ts - origin) / 1000, cpu: cpu / 1000 });
    } else {
      parent.children += cpu;
    }
    const kind = KIND_OF.get(event.name) ?? parent?.kind ?? 'other';
    stack.push({ end: event.ts + (event.dur ?? 0), kind, cpu, children: 0 });
  }
  close(Infinity);
  return {
    firstContentfulPaint: paint ? (paint.ts - origin) / 1000 : NaN,
    tasks,
    work,
  };
}

/**
 * The long tasks from the first paint on, on a phone `slowdown` times slower than this machine
 * (each task's CPU time times `slowdown`, as Lighthouse simulates its phone), and the time they
 * block input: Lighthouse's TBT without its end at TTI.
 */
export function blocking(thread: MainThread, slowdown: number) {
  const long = thread.tasks
    .filter((task) => task.start >= thread.firstContentfulPaint)
    .map((task) => task.cpu * slowdown)
    .filter((ms) => ms > LONG_TASK_MS);
  return {
    count: long.length,
    longest: Math.max(0, ...long),
    blockingMs: long.reduce((sum, ms) => sum + ms - LONG_TASK_MS, 0),
  };
}
