import type { PastSeason, PlayerSeason } from '@tapgram/shared';
import { ArrowLeft } from 'lucide-react';
import { useState } from 'react';
import { Button } from '../../../components/ui/button';
import { CountryFlag } from '../../../components/CountryFlag';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
} from '../../../components/ui/dialog';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../../../components/ui/tabs';
import { countryName } from '../../../lib/countries';
import { Board } from '../BoardList';
import { useArchivedBoard, useArchivedSeasons, usePlayerSeasons } from './season-queries';

const dateFormat = new Intl.DateTimeFormat('en-GB', {
  day: 'numeric',
  month: 'short',
  timeZone: 'UTC',
});

/** "3 Mar – 9 Mar": a season's days (its end is the next one's start). */
function period({ startsAt, endsAt }: { startsAt: string; endsAt: string }): string {
  const last = new Date(Date.parse(endsAt) - 1);
  return `${dateFormat.format(new Date(startsAt))} – ${dateFormat.format(last)}`;
}

function SeasonButton({
  season,
  detail,
  onOpen,
}: {
  season: PastSeason | PlayerSeason;
  detail: string;
  onOpen: (season: PastSeason | PlayerSeason) => void;
}) {
  return (
    <li>
      <button
        type="button"
        className="flex w-full items-center justify-between gap-3 rounded-xl bg-slate-800/60 px-3 py-2 text-left hover:bg-slate-800 focus-visible:outline-2 focus-visible:outline-amber-300"
        onClick={() => onOpen(season)}
      >
        <span>
          <span className="block font-semibold">{season.name}</span>
          <span className="block text-xs text-slate-400">{period(season)}</span>
        </span>
        <span className="text-right text-sm text-slate-300">{detail}</span>
      </button>
    </li>
  );
}

/**
 * What a list shows while it is read or when it could not be, with a way to read it again;
 * nothing once it is there.
 */
function ListState({
  query,
  what,
}: {
  query: { isPending: boolean; isError: boolean; refetch: () => unknown };
  what: string;
}) {
  if (query.isError) {
    return (
      <div role="alert" className="flex items-center justify-between gap-3 py-4 text-sm">
        <span className="text-red-300">Could not load {what}.</span>
        {/* A finger's height, as the notifications list's Try again. */}
        <Button variant="secondary" className="h-11" onClick={() => void query.refetch()}>
          Try again
        </Button>
      </div>
    );
  }
  if (query.isPending) {
    return (
      <p role="status" className="py-6 text-center text-sm text-slate-400">
        Loading {what}…
      </p>
    );
  }
  return null;
}

/** An archived season's final boards. */
function FinalBoards({ season, userId }: { season: PastSeason | PlayerSeason; userId?: string }) {
  const { users, countries } = useArchivedBoard(season.id);
  return (
    <Tabs defaultValue="users">
      <TabsList className="w-full">
        <TabsTrigger value="users">Users</TabsTrigger>
        <TabsTrigger value="countries">Countries</TabsTrigger>
      </TabsList>
      <TabsContent value="users">
        {users.isError ? (
          <ListState query={users} what="the final players" />
        ) : (
          <Board
            label={`${season.name}: final players`}
            empty={['No players', 'Nobody scored this season.']}
            rows={users.data?.map((u) => ({
              key: u.id,
              label: u.username,
              points: u.totalPoints,
              rank: u.rank ?? 0,
              highlight: u.id === userId,
            }))}
          />
        )}
      </TabsContent>
      <TabsContent value="countries">
        {countries.isError ? (
          <ListState query={countries} what="the final countries" />
        ) : (
          <Board
            label={`${season.name}: final countries`}
            empty={['No countries', 'Nobody scored this season.']}
            rows={countries.data?.map((c, i) => ({
              key: c.country,
              label: (
                <>
                  <CountryFlag code={c.country} /> {countryName(c.country)}
                </>
              ),
              points: c.totalPoints,
              rank: i + 1,
            }))}
          />
        )}
      </TabsContent>
    </Tabs>
  );
}

/** Past seasons and the player's own, each opening its final boards. */
export function PastSeasonsDialog({
  open,
  onOpenChange,
  userId,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  userId: string | undefined;
}) {
  const archived = useArchivedSeasons();
  const playerSeasons = usePlayerSeasons(userId, { readOnOpen: true });
  const mine = playerSeasons.data?.filter((s) => s.final);
  const [shown, setShown] = useState<PastSeason | PlayerSeason | null>(null);
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>{shown ? shown.name : 'Past seasons'}</DialogTitle>
          <DialogDescription>
            {shown
              ? `Final boards, ${period(shown)}`
              : 'Each season’s final boards, kept for good.'}
          </DialogDescription>
        </DialogHeader>
        {shown ? (
          <>
            <Button
              variant="ghost"
              size="sm"
              className="justify-self-start"
              onClick={() => setShown(null)}
            >
              <ArrowLeft className="h-4 w-4" /> All seasons
            </Button>
            <FinalBoards season={shown} userId={userId} />
          </>
        ) : (
          <Tabs defaultValue={userId ? 'mine' : 'all'}>
            <TabsList className="w-full">
              {userId && <TabsTrigger value="mine">My seasons</TabsTrigger>}
              <TabsTrigger value="all">All seasons</TabsTrigger>
            </TabsList>
            {userId && (
              <TabsContent value="mine">
                <ListState query={playerSeasons} what="your seasons" />
                {mine?.length === 0 && (
                  <p className="py-6 text-center text-sm text-slate-400">
                    No finished season yet: your results show here once one ends.
                  </p>
                )}
                <ul className="space-y-1.5">
                  {mine?.map((s) => (
                    <SeasonButton
                      key={s.id}
                      season={s}
                      onOpen={setShown}
                      detail={`${s.rank === null ? 'unranked' : `#${s.rank.toLocaleString()}`} · ${s.points.toLocaleString()} pts`}
                    />
                  ))}
                </ul>
              </TabsContent>
            )}
            <TabsContent value="all">
              <ListState query={archived} what="the past seasons" />
              {archived.data?.length === 0 && (
                <p className="py-6 text-center text-sm text-slate-400">No season has ended yet.</p>
              )}
              <ul className="space-y-1.5">
                {archived.data?.map((s) => (
                  <SeasonButton
                    key={s.id}
                    season={s}
                    onOpen={setShown}
                    detail={s.winner ? `🏆 ${s.winner.username}` : 'no players'}
                  />
                ))}
              </ul>
            </TabsContent>
          </Tabs>
        )}
      </DialogContent>
    </Dialog>
  );
}
