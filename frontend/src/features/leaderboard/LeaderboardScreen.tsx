import { useMemo } from 'react';
import { countryFlag, countryName } from '../game/countries';
import { useSocketConnected } from '../game/game-socket';
import {
  useGamePushes,
  useLeaderboardCountries,
  useLeaderboardUsers,
  useMilestone,
} from '../game/queries';
import { LiveBoard } from './LiveBoard';

/** The event-screen board: top players and countries, live over the game channel, no scrolling. */
export function LeaderboardScreen() {
  useGamePushes();
  const connected = useSocketConnected();
  const users = useLeaderboardUsers();
  const countries = useLeaderboardCountries();
  const milestone = useMilestone();
  // Stable rows while the data is unchanged, so a board compares only real updates.
  const userRows = useMemo(
    () => users.data?.map((u) => ({ key: u.id, label: u.username, points: u.totalPoints })),
    [users.data],
  );
  const countryRows = useMemo(
    () =>
      countries.data?.map((c) => ({
        key: c.country,
        label: countryName(c.country),
        icon: countryFlag(c.country),
        points: c.totalPoints,
      })),
    [countries.data],
  );
  return (
    <main className="flex h-screen flex-col gap-[2vh] overflow-hidden bg-slate-950 p-[3vh] text-white">
      <header className="flex items-center justify-between">
        <h1 className="text-[6vh] font-black tracking-tight">
          Tap<span className="text-amber-300">Gram</span> Live Leaderboard
        </h1>
        <div className="flex items-center gap-[3vh] text-[2.6vh]">
          {milestone.data && (
            <span className="rounded-full bg-fuchsia-500/20 px-[2vh] py-[0.6vh] font-bold text-fuchsia-200">
              {milestone.data.usersOver100k} at 100K
            </span>
          )}
          <span role="status" className="flex items-center gap-[1vh] font-semibold">
            <span
              className={`h-[1.8vh] w-[1.8vh] rounded-full ${connected ? 'animate-pulse bg-emerald-400' : 'bg-amber-400'}`}
            />
            {connected ? 'Live' : 'Reconnecting…'}
          </span>
        </div>
      </header>
      <div className="flex min-h-0 flex-1 gap-[3vh]">
        <LiveBoard title="Top Players" empty="No players yet!" rows={userRows} />
        <LiveBoard title="Top Countries" empty="No countries yet!" rows={countryRows} />
      </div>
    </main>
  );
}
