import { boardRanks, type LeaderboardCountry, type LeaderboardUser } from '@tapgram/shared';
import { useDeferredValue, useMemo, type ReactNode } from 'react';
import { countryName } from '../../lib/countries';
import { useHydrated } from '../../lib/hydration';
import { CountryFlag } from '../../components/CountryFlag';
import {
  Countdown,
  useCurrentSeason,
  useGamePushes,
  useLeaderboardCountries,
  useLeaderboardUsers,
  useMilestone,
  useSeasonCountries,
  useSeasonPushes,
  useSeasonUsers,
  useSocketConnected,
  useSocketReconnecting,
} from '../game';
import { LiveBoard } from './LiveBoard';

/**
 * The event-screen board: the running season's top players and countries, with its name and the
 * time left, live over the game channel, no scrolling; `?board=all` shows the all-time boards.
 */
export function LeaderboardScreen() {
  // The address's query is the browser's: the page's HTML, rendered at build time, shows the season.
  const hydrated = useHydrated();
  const allTime = hydrated && new URLSearchParams(window.location.search).get('board') === 'all';
  return allTime ? <AllTimeScreen /> : <SeasonScreen />;
}

function SeasonScreen() {
  useSeasonPushes('top10');
  const season = useCurrentSeason();
  const users = useSeasonUsers();
  const countries = useSeasonCountries();
  return (
    <Screen
      users={users.data}
      countries={countries.data}
      board={
        // Its place is held while it loads: the boards below do not move when it comes.
        <span
          className={`flex flex-wrap items-baseline gap-x-2 font-bold text-fuchsia-200 ${season.data ? '' : 'invisible'}`}
          data-testid="event-season"
        >
          <span>{season.data?.name ?? 'This season'}</span>
          <span aria-hidden="true">·</span>
          {season.data && (
            <Countdown
              endsAtMs={season.data.endsAtMs}
              offsetMs={season.data.offsetMs}
              className="font-semibold tabular-nums text-fuchsia-100"
            />
          )}
        </span>
      }
    />
  );
}

function AllTimeScreen() {
  useGamePushes('top10');
  const users = useLeaderboardUsers();
  const countries = useLeaderboardCountries();
  return (
    <Screen
      users={users.data}
      countries={countries.data}
      board={<span className="font-bold text-fuchsia-200">All time</span>}
    />
  );
}

function Screen({
  users: usersNow,
  countries: countriesNow,
  board,
}: {
  users: LeaderboardUser[] | undefined;
  countries: LeaderboardCountry[] | undefined;
  /** Which boards these are: the season and its countdown, or all time. */
  board: ReactNode;
}) {
  const connected = useSocketConnected();
  const reconnecting = useSocketReconnecting();
  const milestone = useMilestone();
  // A query's answer re-renders its readers synchronously (a store's update cannot yield): the
  // boards take it in a deferred render instead, which yields between rows like hydration. The
  // first answer's render was one task of about 500 ms on a phone (the country names' locale data
  // and tailwind-merge's class map are made in it).
  const users = useDeferredValue(usersNow);
  const countries = useDeferredValue(countriesNow);
  // Stable rows while the data is unchanged, so a board compares only real updates.
  const userRows = useMemo(() => {
    const ranks = boardRanks(users?.map((u) => u.totalPoints) ?? []);
    return users?.map((u, i) => ({
      key: u.id,
      label: u.username,
      points: u.totalPoints,
      rank: ranks[i],
    }));
  }, [users]);
  const countryRows = useMemo(() => {
    const ranks = boardRanks(countries?.map((c) => c.totalPoints) ?? []);
    return countries?.map((c, i) => ({
      key: c.country,
      label: countryName(c.country),
      icon: <CountryFlag code={c.country} />,
      points: c.totalPoints,
      rank: ranks[i],
    }));
  }, [countries]);
  return (
    <main className="flex min-h-screen flex-col gap-4 bg-slate-950 p-3 text-white sm:p-4 lg:h-screen lg:gap-[2vh] lg:overflow-hidden lg:p-[3vh]">
      <header className="flex flex-wrap items-center justify-between gap-x-4 gap-y-2">
        <div>
          <h1 className="text-3xl font-black tracking-tight sm:text-4xl lg:text-[6vh]">
            Tap<span className="text-amber-300">Gram</span> Live Leaderboard
          </h1>
          <p className="text-lg lg:text-[3vh]">{board}</p>
        </div>
        <div className="flex items-center gap-3 text-sm lg:gap-[3vh] lg:text-[2.6vh]">
          {/* Its place is held while it loads: the boards below do not move when it comes. */}
          <span
            className={`rounded-full bg-fuchsia-500/20 px-3 py-1 font-bold tabular-nums lg:px-[2vh] lg:py-[0.6vh] text-fuchsia-200 ${milestone.data ? '' : 'invisible'}`}
          >
            {milestone.data?.usersOver100k ?? 0} at 100K
          </span>
          <span role="status" className="flex items-center gap-2 font-semibold lg:gap-[1vh]">
            <span
              className={`h-3 w-3 rounded-full lg:h-[1.8vh] lg:w-[1.8vh] ${connected ? 'animate-pulse bg-emerald-400' : 'bg-amber-400'}`}
            />
            {connected ? 'Live' : reconnecting ? 'Reconnecting…' : 'Connecting…'}
          </span>
        </div>
      </header>
      <div className="flex flex-col gap-4 lg:min-h-0 lg:flex-1 lg:flex-row lg:gap-[3vh]">
        <LiveBoard title="Top Players" empty="No players yet!" rows={userRows} />
        <LiveBoard title="Top Countries" empty="No countries yet!" rows={countryRows} />
      </div>
    </main>
  );
}
