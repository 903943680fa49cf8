import { messages } from '@tapgram/shared';
import { Snowflake } from 'lucide-react';

/**
 * Shown while the game's operators have frozen this player (said on load, by a refused tap, or
 * pushed live): taps are not sent,
 * since every later tap would be refused too, and the screen stops sending them.
 */
export function FrozenNotice() {
  return (
    <div
      role="alert"
      data-testid="game-frozen"
      className="flex items-start gap-3 rounded-xl bg-sky-950/90 px-4 py-3 text-sky-50 ring-1 ring-sky-300/40"
    >
      <Snowflake className="mt-0.5 h-5 w-5 shrink-0 text-sky-300" aria-hidden="true" />
      <div className="min-w-0">
        <p className="font-bold">{messages.playerFrozen}</p>
        <p className="text-sm text-sky-100/90">
          Your taps are not counted, and you are off the leaderboards, until the game&apos;s team
          lifts the freeze.
        </p>
      </div>
    </div>
  );
}
