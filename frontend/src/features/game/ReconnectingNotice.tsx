/**
 * Shown while the server says the game is briefly unavailable: one calm line instead of an error
 * per tap. Taps made meanwhile stay on the counters and are sent when the game is back.
 */
export function ReconnectingNotice() {
  return (
    <p
      role="status"
      data-testid="game-reconnecting"
      className="rounded-xl bg-slate-800/80 px-3 py-2 text-center text-sm text-slate-200 ring-1 ring-white/10"
    >
      Reconnecting… your taps are kept and will be counted when the game is back.
    </p>
  );
}
