import { Pencil } from 'lucide-react';
import { countryName } from '../../lib/countries';
import { CountryFlag } from '../../components/CountryFlag';
import { DEFAULT_COUNTRY, RANK_BEFORE_LOAD } from '../../lib/ui-constants';

interface Props {
  sessionPoints: number;
  totalTaps: number;
  rank: number | undefined;
  country: string | undefined;
  /** A frozen player is off the boards: the tile says so instead of a rank they do not hold. */
  frozen?: boolean;
  /** Opens the country's change (only for a player, once the page is hydrated). */
  onChangeCountry?: () => void;
}

export function StatTiles({
  sessionPoints,
  totalTaps,
  rank,
  country = DEFAULT_COUNTRY,
  frozen = false,
  onChangeCountry,
}: Props) {
  const tiles = [
    { label: 'Session', value: sessionPoints.toLocaleString() },
    { label: 'Total Taps', value: totalTaps.toLocaleString() },
    frozen
      ? { label: 'Rank', value: '—', title: 'Frozen players are off the boards' }
      : { label: 'Rank', value: `#${(rank ?? RANK_BEFORE_LOAD).toLocaleString()}` },
    {
      label: 'Country',
      value: (
        <span className="inline-flex items-center gap-2">
          <CountryFlag code={country} /> {country}
          {onChangeCountry && (
            <button
              type="button"
              onClick={onChangeCountry}
              aria-label="Change country"
              title="Change country"
              className="-my-1 inline-flex size-8 items-center justify-center rounded-lg text-slate-400 hover:bg-slate-800 hover:text-amber-200 focus-visible:outline-2 focus-visible:outline-amber-300"
            >
              <Pencil className="size-4" aria-hidden="true" />
            </button>
          )}
        </span>
      ),
      title: countryName(country),
    },
  ];
  return (
    <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4">
      {tiles.map((tile) => (
        <div
          key={tile.label}
          className="rounded-2xl bg-slate-900 p-3 text-center ring-1 ring-slate-800"
          title={tile.title}
        >
          <dt className="text-xs font-semibold tracking-wide text-slate-400 uppercase">
            {tile.label}
          </dt>
          <dd
            className="mt-1 text-2xl font-black tabular-nums text-amber-200"
            data-testid={`stat-${tile.label}`}
          >
            {tile.value}
          </dd>
        </div>
      ))}
    </dl>
  );
}
