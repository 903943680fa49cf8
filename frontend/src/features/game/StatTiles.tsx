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
}

export function StatTiles({
  sessionPoints,
  totalTaps,
  rank,
  country = DEFAULT_COUNTRY,
  frozen = false,
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
