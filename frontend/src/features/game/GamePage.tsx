import { lazy, Suspense, useEffect, useState } from 'react';
import { useHydrated } from '../../lib/hydration';
import { deferredPart } from '../../lib/lazy-page';
import { SOUND_DEFAULT_ON } from '../../lib/ui-constants';
import { LazyStorySection } from '../story';
import { inTelegram } from '../telegram';
import { ContractBox } from './ContractBox';
import { EnergyGauge } from './EnergyGauge';
import { FrozenNotice } from './FrozenNotice';
import { holdGameSocket } from './game-socket';
import { GameHeader } from './GameHeader';
import { MilestoneBanner } from './MilestoneBanner';
import { useGameConfig, useGamePushes, useMilestone, useRank } from './queries';
import { ReconnectingNotice } from './ReconnectingNotice';
import { StatTiles } from './StatTiles';
import { StreakCard } from './streak/StreakCard';
import { TapCharacter } from './TapCharacter';
import { TapStatus } from './TapStatus';
import { useGame } from './useGame';
import { isNumber, isText, useRemembered } from './useRemembered';

// The boards (and their tabs' code) hydrate after the character, stats and tiles: their markup is
// in the page's HTML, so they show at once, and the code the HTML names is what the first taps need.
const LeaderboardPanel = deferredPart(() =>
  import('./LeaderboardPanel').then((m) => m.LeaderboardPanel),
);
// Only on the web, for a server with a Telegram bot: the card that links this player to Telegram.
const TelegramLinkCard = lazy(() =>
  import('../telegram/TelegramLinkCard').then((m) => ({ default: m.TelegramLinkCard })),
);
// Friends, the invite link and its QR code: a player's only, after the screen is up.
const FriendsCard = lazy(() =>
  import('./friends/FriendsCard').then((m) => ({ default: m.FriendsCard })),
);
// Only once a player opens it.
const ChangeCountryDialog = lazy(() =>
  import('./ChangeCountryDialog').then((m) => ({ default: m.ChangeCountryDialog })),
);
const WelcomeDialog = lazy(() =>
  import('./WelcomeDialog').then((m) => ({ default: m.WelcomeDialog })),
);

export function GamePage() {
  useGamePushes('top100');
  const game = useGame();
  const config = useGameConfig();
  const milestone = useMilestone();
  const user = game.player?.user;
  const rank = useRank(user?.id);
  // Offline, what the server last answered (the page says as of when).
  const usersOver100k = useRemembered('milestone', milestone.data?.usersOver100k, isNumber);
  const rankShown = useRemembered(user ? `rank.${user.id}` : null, rank.data?.rank, isNumber);
  const address = useRemembered('contract-address', config.data?.contractAddress, isText);
  // Held while a first visit's welcome dialog asks for a player: set as the page renders, since
  // the idle moment that would open the channel may come between slices of the hydration.
  holdGameSocket(game.status === 'needs-user');
  useEffect(() => () => holdGameSocket(false), []);
  const session = game.player?.session;
  const telegramAppUrl = config.data?.telegramAppUrl;
  // What the browser stored (a player, the sound setting) shows once hydrated: the page's HTML,
  // rendered at build time, knows neither.
  const hydrated = useHydrated();
  const status = hydrated ? game.status : 'loading';
  const soundOn = hydrated ? game.soundOn : SOUND_DEFAULT_ON;
  // The welcome dialog's code loads only for a visitor with no stored player; once shown it stays,
  // so that it closes as a dialog does.
  const [welcome, setWelcome] = useState(false);
  if (status === 'needs-user' && !welcome) setWelcome(true);
  // The country's change: its code loads at the first open, and stays for the dialog to close.
  const [changingCountry, setChangingCountry] = useState(false);
  const [countryDialog, setCountryDialog] = useState(false);
  if (changingCountry && !countryDialog) setCountryDialog(true);

  return (
    <>
      <GameHeader config={config.data} />
      <main className="mx-auto grid max-w-6xl grid-cols-[minmax(0,1fr)] gap-6 px-3 pt-20 pb-12 sm:px-4 lg:grid-cols-[minmax(0,1fr)_22rem]">
        <h1 className="sr-only">TapGram: tap to earn</h1>
        <div className="flex flex-col gap-5">
          <MilestoneBanner
            milestone={usersOver100k === undefined ? undefined : { usersOver100k }}
          />
          {game.reconnecting && <ReconnectingNotice />}
          {game.frozen && <FrozenNotice />}
          <TapStatus state={game.sync} waiting={game.unconfirmed} asOf={game.asOf} />
          <div className="flex flex-col gap-2">
            <TapCharacter onTap={game.tap} disabled={game.frozen} />
            <EnergyGauge bucket={game.bucket} spent={game.spent} disabled={game.frozen} />
          </div>
          <StatTiles
            sessionPoints={session ? game.sessionShown : 0}
            totalTaps={user ? game.totalShown : 0}
            rank={rankShown}
            country={user?.country}
            frozen={game.frozen}
            onChangeCountry={user && hydrated ? () => setChangingCountry(true) : undefined}
          />
          <ContractBox address={address} />
          {/* Below the contract address, which stays on a phone's first screen. */}
          {user && hydrated && (
            <StreakCard userId={user.id} totalTaps={user.totalTaps} frozen={game.frozen} />
          )}
          {user && hydrated && telegramAppUrl && !inTelegram() && (
            <Suspense fallback={null}>
              <TelegramLinkCard userId={user.id} appUrl={telegramAppUrl} />
            </Suspense>
          )}
          {user && hydrated && (
            <Suspense fallback={null}>
              <FriendsCard userId={user.id} />
            </Suspense>
          )}
        </div>
        <Suspense fallback={null}>
          <LeaderboardPanel
            soundOn={soundOn}
            onToggleSound={game.toggleSound}
            currentUserId={user?.id}
          />
        </Suspense>
        <div className="lg:col-span-2">
          <LazyStorySection held={status === 'needs-user'} />
        </div>
      </main>
      {countryDialog && user && (
        <Suspense fallback={null}>
          <ChangeCountryDialog
            open={changingCountry}
            onOpenChange={setChangingCountry}
            current={user.country}
            days={config.data?.countryChangeDays}
            onChanged={game.countryChanged}
          />
        </Suspense>
      )}
      {welcome && (
        <Suspense fallback={null}>
          <WelcomeDialog
            open={status === 'needs-user'}
            onCreate={game.createUser}
            telegram={game.telegram}
          />
        </Suspense>
      )}
    </>
  );
}
