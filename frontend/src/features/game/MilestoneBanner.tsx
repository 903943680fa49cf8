import { type MilestoneResponse } from '@tapgram/shared';
import { Trophy } from 'lucide-react';
import { MILESTONE_TARGET_USERS } from '../../lib/ui-constants';

export function MilestoneBanner({ milestone }: { milestone: MilestoneResponse | undefined }) {
  let text: string;
  let progress = 0;
  if (!milestone) {
    text = 'Loading milestone progress...';
  } else if (milestone.usersOver100k >= MILESTONE_TARGET_USERS) {
    text = `${MILESTONE_TARGET_USERS} users reached 100K points - new rewards are now available!`;
    progress = 100;
  } else {
    text = `${milestone.usersOver100k}/${MILESTONE_TARGET_USERS} users have reached 100K points - new rewards unlock at ${MILESTONE_TARGET_USERS}!`;
    progress = (milestone.usersOver100k / MILESTONE_TARGET_USERS) * 100;
  }
  return (
    <div
      role="status"
      data-testid="milestone-banner"
      className="rounded-2xl bg-gradient-to-r from-fuchsia-600/30 via-amber-500/20 to-sky-500/30 p-3 text-center ring-1 ring-white/10"
    >
      {/* Two lines held on phones, where the figures wrap: the game below does not jump when they come. */}
      <p className="min-h-[2lh] text-sm font-semibold sm:min-h-0 sm:text-base">
        <Trophy
          className="mr-1.5 inline-block h-[1.1em] w-[1.1em] align-[-0.2em] text-amber-300"
          aria-hidden="true"
          data-testid="milestone-trophy"
        />
        {text}
      </p>
      <div
        className="mx-auto mt-2 h-2 max-w-md overflow-hidden rounded-full bg-slate-800"
        aria-hidden="true"
      >
        <div
          className="h-full rounded-full bg-amber-400 transition-all"
          style={{ width: `${progress}%` }}
        />
      </div>
    </div>
  );
}
