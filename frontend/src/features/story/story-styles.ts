const FOCUS_RING =
  'focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-amber-300 focus-visible:ring-offset-2 focus-visible:ring-offset-slate-900';

const BUTTON_BASE = `inline-flex min-h-11 items-center justify-center gap-2 rounded-xl px-4 py-2.5 text-sm font-semibold transition disabled:cursor-not-allowed disabled:opacity-50 ${FOCUS_RING}`;

export const OPTION_BUTTON = `${BUTTON_BASE} w-full border border-white/15 bg-white/5 text-left text-slate-100 hover:border-fuchsia-400/60 hover:bg-fuchsia-500/15 sm:justify-start`;

export const PRIMARY_BUTTON = `${BUTTON_BASE} bg-linear-to-r from-fuchsia-500 via-violet-500 to-cyan-500 text-white shadow-lg shadow-fuchsia-500/20 hover:brightness-110`;

export const SECONDARY_BUTTON = `${BUTTON_BASE} border border-white/20 text-slate-100 hover:bg-white/10`;

export const TEXT_INPUT = `min-h-11 w-full rounded-xl border border-white/15 bg-slate-950/60 px-4 py-2.5 text-slate-100 placeholder:text-slate-500 disabled:opacity-50 ${FOCUS_RING}`;
