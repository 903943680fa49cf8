import type { PlayerDetail } from '@tapgram/shared';
import { ArrowLeft, Snowflake, Sun } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { Button, buttonVariants } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { Skeleton } from '../../components/ui/skeleton';
import { ApiError } from '../../lib/api';
import { countryName } from '../../lib/countries';
import { FreezeDialog } from './FreezeDialog';
import { LoadFailed } from './LoadFailed';
import { FrozenBadge, SuspicionReasons, SuspicionScore } from './player-badges';
import { count, date, when } from './player-format';
import { usePlayer, type PlayerActionKind } from './player-queries';
import { PlayerHistory } from './PlayerHistory';
import { PlayerReferrals } from './PlayerReferrals';
import { PlayerSignals } from './PlayerSignals';

const PLAYERS_TAB = '/admin?tab=players';

/** Where "Back to Players" goes: the list as it was (its search, sort and page), else the tab. */
function useBack(): string {
  const state: unknown = useLocation().state;
  const back =
    typeof state === 'object' && state !== null ? (state as { back?: unknown }).back : null;
  return typeof back === 'string' && back.startsWith('/admin') ? back : PLAYERS_TAB;
}

function Totals({ player }: { player: PlayerDetail }) {
  const figures = [
    ['Points', count(player.totalPoints)],
    ['Taps', count(player.totalTaps)],
    ['Refused taps', count(player.refusedTaps)],
    ['Joined', date(player.createdAt)],
  ];
  return (
    <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4">
      {figures.map(([label, value]) => (
        <Card key={label} className="p-3">
          <dt className="text-xs font-semibold text-slate-400">{label}</dt>
          <dd className="text-lg font-black wrap-anywhere text-amber-200 tabular-nums sm:text-xl">
            {value}
          </dd>
        </Card>
      ))}
    </dl>
  );
}

function FrozenNote({ player }: { player: PlayerDetail }) {
  return (
    <p
      data-testid="frozen-note"
      className="rounded-xl bg-sky-950/80 px-4 py-3 text-sm text-sky-50 ring-1 ring-sky-300/40 wrap-anywhere"
    >
      <span className="font-bold">Frozen</span>
      {player.frozenAt && (
        <>
          {' '}
          since <time dateTime={player.frozenAt}>{when(player.frozenAt)}</time>
        </>
      )}
      {player.frozenReason && <>: {player.frozenReason}</>}
    </p>
  );
}

function PlayerView({ player, back }: { player: PlayerDetail; back: string }) {
  const [action, setAction] = useState<PlayerActionKind>('freeze');
  const [asking, setAsking] = useState(false);
  const ask = (kind: PlayerActionKind) => {
    setAction(kind);
    setAsking(true);
  };
  return (
    <>
      <header className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <p className="text-sm text-slate-400">Player · {countryName(player.country)}</p>
          <div className="flex flex-wrap items-center gap-2">
            <h1 className="text-2xl font-black wrap-anywhere sm:text-3xl">@{player.username}</h1>
            {player.frozen && <FrozenBadge />}
          </div>
        </div>
        {player.frozen ? (
          <Button onClick={() => ask('unfreeze')}>
            <Sun className="h-4 w-4" aria-hidden="true" /> Unfreeze
          </Button>
        ) : (
          <Button variant="destructive" onClick={() => ask('freeze')}>
            <Snowflake className="h-4 w-4" aria-hidden="true" /> Freeze
          </Button>
        )}
      </header>
      {player.frozen && <FrozenNote player={player} />}
      <Totals player={player} />
      <section className="space-y-2">
        <h2 className="flex items-center gap-2 text-lg font-bold">
          Suspicion <SuspicionScore score={player.suspicion.score} />
        </h2>
        <SuspicionReasons suspicion={player.suspicion} />
      </section>
      <PlayerSignals days={player.days} />
      <PlayerReferrals id={player.id} back={back} />
      <PlayerHistory player={player} back={back} />
      <FreezeDialog player={player} action={action} open={asking} onOpenChange={setAsking} />
    </>
  );
}

function NotFound({ message }: { message: string }) {
  return (
    <div className="py-12 text-center">
      <h1 className="text-2xl font-black">Player not found</h1>
      <p className="text-slate-400">{message}</p>
    </div>
  );
}

/** /admin/players/:playerId: one player's figures, signals and history, and the freeze. */
export function PlayerPage({ id }: { id: string }) {
  const player = usePlayer(id);
  const back = useBack();
  // From one player to another of the network: start at the top of the new page.
  useEffect(() => window.scrollTo(0, 0), [id]);
  const { error } = player;
  let body;
  if (player.data) body = <PlayerView player={player.data} back={back} />;
  else if (error instanceof ApiError && (error.status === 404 || error.status === 400))
    body = <NotFound message={error.message} />;
  else if (player.isError)
    body = (
      <LoadFailed message="Failed to fetch the player" onRetry={() => void player.refetch()} />
    );
  else
    body = (
      <div className="space-y-4" aria-busy="true">
        <p role="status" className="sr-only">
          Loading the player…
        </p>
        <Skeleton className="h-12 w-48" />
        <Skeleton className="h-20" />
        <Skeleton className="h-52" />
      </div>
    );
  return (
    <main className="mx-auto max-w-5xl space-y-6 px-4 py-8">
      <Link to={back} className={buttonVariants({ variant: 'ghost', size: 'sm' })}>
        <ArrowLeft className="h-4 w-4" aria-hidden="true" /> Back to Players
      </Link>
      {body}
    </main>
  );
}
