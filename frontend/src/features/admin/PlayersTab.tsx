import { PLAYER_SORTS, USERNAME_MAX_LENGTH, type PlayerSort } from '@tapgram/shared';
import { Download, Search } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import { Button, buttonVariants } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { Input } from '../../components/ui/input';
import { Skeleton } from '../../components/ui/skeleton';
import { LoadFailed } from './LoadFailed';
import { LEADERBOARD_CSV_URL, usePlayers } from './player-queries';
import { PlayersList } from './PlayersList';
import {
  PLAYERS_PER_PAGE,
  playersQuery,
  SORT_LABELS,
  usePlayersSearch,
  type PlayersSearch,
} from './players-search';

const SELECT =
  'h-11 rounded-xl border border-slate-600 bg-slate-950 px-3 text-base text-slate-100 focus-visible:outline-2 focus-visible:outline-amber-300';

function PlayersToolbar({
  search,
  onChange,
}: {
  search: PlayersSearch;
  onChange: (next: Partial<PlayersSearch>) => void;
}) {
  const [draft, setDraft] = useState(search.q);
  const ids = { q: useId(), sort: useId() };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onChange({ q: draft.trim() });
  };
  return (
    <div className="flex flex-col gap-3 sm:flex-row sm:items-end">
      <form role="search" onSubmit={submit} className="grid min-w-0 flex-1 gap-1.5">
        <label htmlFor={ids.q} className="text-sm font-medium">
          Search by username
        </label>
        <div className="flex gap-2">
          <Input
            id={ids.q}
            type="search"
            value={draft}
            maxLength={USERNAME_MAX_LENGTH}
            autoCapitalize="none"
            autoComplete="off"
            spellCheck={false}
            placeholder="Part of a username"
            onChange={(event) => setDraft(event.target.value)}
            className="min-w-0"
          />
          <Button type="submit" className="h-11 shrink-0">
            <Search className="h-4 w-4" aria-hidden="true" />
            {/* On the narrowest phones the field needs the width: the button keeps its name. */}
            <span className="max-[359px]:sr-only">Search</span>
          </Button>
        </div>
      </form>
      <div className="grid gap-1.5">
        <label htmlFor={ids.sort} className="text-sm font-medium">
          Sort by
        </label>
        <select
          id={ids.sort}
          value={search.sort}
          onChange={(event) => onChange({ sort: event.target.value as PlayerSort })}
          className={SELECT}
        >
          {PLAYER_SORTS.map((sort) => (
            <option key={sort} value={sort}>
              {SORT_LABELS[sort]}
            </option>
          ))}
        </select>
      </div>
    </div>
  );
}

function Pager({
  page,
  total,
  onPage,
}: {
  page: number;
  total: number;
  onPage: (page: number) => void;
}) {
  const first = (page - 1) * PLAYERS_PER_PAGE + 1;
  const last = Math.min(page * PLAYERS_PER_PAGE, total);
  return (
    <nav
      aria-label="Pages of players"
      className="flex flex-wrap items-center justify-between gap-2"
    >
      <p className="text-sm text-slate-400" aria-live="polite">
        {first.toLocaleString('en')}–{last.toLocaleString('en')} of {total.toLocaleString('en')}{' '}
        {total === 1 ? 'player' : 'players'}
      </p>
      <div className="flex gap-2">
        <Button variant="outline" size="sm" disabled={page <= 1} onClick={() => onPage(page - 1)}>
          Previous
        </Button>
        <Button
          variant="outline"
          size="sm"
          disabled={last >= total}
          onClick={() => onPage(page + 1)}
        >
          Next
        </Button>
      </div>
    </nav>
  );
}

function PlayersResults({
  search,
  onChange,
}: {
  search: PlayersSearch;
  onChange: (next: Partial<PlayersSearch>) => void;
}) {
  const players = usePlayers(playersQuery(search));
  if (players.isPending) {
    return (
      <div className="space-y-2" aria-busy="true">
        <p className="sr-only" role="status">
          Loading players…
        </p>
        {[0, 1, 2, 3].map((row) => (
          <Skeleton key={row} className="h-14" />
        ))}
      </div>
    );
  }
  const retry = () => void players.refetch();
  if (!players.data) return <LoadFailed message="Failed to fetch players" onRetry={retry} />;
  const { total } = players.data;
  // Past the last page (players left the search since): the last page is one click away.
  const beyond = total > 0 && players.data.players.length === 0;
  return (
    <div className="space-y-3" aria-busy={players.isPlaceholderData || undefined}>
      {players.isError && <LoadFailed message="Failed to fetch players" onRetry={retry} />}
      {total === 0 ? (
        <div className="py-10 text-center">
          <p className="font-bold">No players match</p>
          {search.q && <p className="text-sm text-slate-400">No username holds “{search.q}”.</p>}
        </div>
      ) : (
        <>
          <div className={players.isPlaceholderData ? 'opacity-60' : undefined}>
            <PlayersList players={players.data.players} />
          </div>
          {beyond ? (
            <Button variant="outline" size="sm" onClick={() => onChange({ page: 1 })}>
              Back to the first page
            </Button>
          ) : (
            <Pager page={search.page} total={total} onPage={(page) => onChange({ page })} />
          )}
        </>
      )}
    </div>
  );
}

/** The game operators' list: find players by name, the most suspicious first by default. */
export function PlayersTab() {
  const { search, update } = usePlayersSearch();
  return (
    <Card className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 className="text-lg font-bold">Players</h2>
        <a
          href={LEADERBOARD_CSV_URL}
          download
          className={buttonVariants({ variant: 'outline', size: 'sm' })}
        >
          <Download className="h-4 w-4" aria-hidden="true" />
          Export leaderboard (CSV)
        </a>
      </div>
      <PlayersToolbar search={search} onChange={update} />
      <PlayersResults search={search} onChange={update} />
    </Card>
  );
}
