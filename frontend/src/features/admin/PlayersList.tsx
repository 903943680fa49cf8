import type { OperatorPlayer } from '@tapgram/shared';
import { Link, useLocation } from 'react-router-dom';
import { countryName } from '../../lib/countries';
import { FrozenBadge, SuspicionReasons, SuspicionScore } from './player-badges';

/** The player's page, which leads back to this list as it is (search, sort, page). */
function PlayerLink({ player }: { player: OperatorPlayer }) {
  const location = useLocation();
  return (
    <Link
      to={`/admin/players/${encodeURIComponent(player.id)}`}
      state={{ back: `${location.pathname}${location.search}` }}
      className="rounded font-bold break-words text-amber-200 underline-offset-4 hover:underline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-amber-300"
    >
      @{player.username}
    </Link>
  );
}

const count = (n: number) => n.toLocaleString('en');

/** Desktop: one row per player, every figure in its column. */
function PlayersTable({ players }: { players: OperatorPlayer[] }) {
  return (
    <table className="hidden w-full text-left text-sm md:table">
      <thead className="text-slate-400">
        <tr>
          <th scope="col" className="py-2 pr-3 font-semibold">
            Player
          </th>
          <th scope="col" className="pr-3 font-semibold">
            Country
          </th>
          <th scope="col" className="pr-3 text-right font-semibold">
            Points
          </th>
          <th scope="col" className="pr-3 text-right font-semibold">
            Refused taps
          </th>
          <th scope="col" className="font-semibold">
            Suspicion
          </th>
        </tr>
      </thead>
      <tbody>
        {players.map((player) => (
          <tr key={player.id} className="border-t border-slate-800 align-top">
            <td className="py-2 pr-3">
              <div className="flex flex-wrap items-center gap-2">
                <PlayerLink player={player} />
                {player.frozen && <FrozenBadge />}
              </div>
            </td>
            <td className="py-2 pr-3">{countryName(player.country)}</td>
            <td className="py-2 pr-3 text-right tabular-nums">{count(player.totalPoints)}</td>
            <td className="py-2 pr-3 text-right tabular-nums">{count(player.refusedTaps)}</td>
            <td className="py-2">
              <div className="flex items-start gap-3">
                <SuspicionScore score={player.suspicion.score} />
                <SuspicionReasons suspicion={player.suspicion} />
              </div>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** Phones: one card per player, the figures under the name. */
function PlayerCards({ players }: { players: OperatorPlayer[] }) {
  return (
    <ul className="space-y-2 md:hidden">
      {players.map((player) => (
        <li key={player.id} className="space-y-2 rounded-xl bg-slate-800/60 p-3">
          <div className="flex items-start justify-between gap-2">
            <div className="flex min-w-0 flex-wrap items-center gap-2">
              <PlayerLink player={player} />
              {player.frozen && <FrozenBadge />}
            </div>
            <SuspicionScore score={player.suspicion.score} />
          </div>
          <dl className="grid grid-cols-3 gap-2 text-xs">
            <div>
              <dt className="text-slate-400">Country</dt>
              <dd className="break-words">{countryName(player.country)}</dd>
            </div>
            <div>
              <dt className="text-slate-400">Points</dt>
              <dd className="tabular-nums">{count(player.totalPoints)}</dd>
            </div>
            <div>
              <dt className="text-slate-400">Refused taps</dt>
              <dd className="tabular-nums">{count(player.refusedTaps)}</dd>
            </div>
          </dl>
          <SuspicionReasons suspicion={player.suspicion} />
        </li>
      ))}
    </ul>
  );
}

/** Both layouts are in the page; CSS shows the one that fits (and hides the other from everyone). */
export function PlayersList({ players }: { players: OperatorPlayer[] }) {
  return (
    <>
      <PlayersTable players={players} />
      <PlayerCards players={players} />
    </>
  );
}
