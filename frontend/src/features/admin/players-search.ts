import { PLAYER_SORTS, type PlayerSort, type PlayersQuery } from '@tapgram/shared';
import { useSearchParams } from 'react-router-dom';

/** Rows per page of the Players tab. */
export const PLAYERS_PER_PAGE = 50;

export const SORT_LABELS: Record<PlayerSort, string> = {
  suspicion: 'Suspicion',
  points: 'Points',
  refused: 'Refused taps',
};

const isSort = (value: string | null): value is PlayerSort =>
  PLAYER_SORTS.some((sort) => sort === value);

function pageOf(value: string | null): number {
  const page = Number(value);
  return Number.isInteger(page) && page > 1 ? page : 1;
}

export interface PlayersSearch {
  q: string;
  sort: PlayerSort;
  /** 1 for the first page. */
  page: number;
}

/**
 * The Players tab's search, sort and page, kept in the address (beside `tab=players`): a reload or
 * the way back from a player's page shows the same list.
 */
export function usePlayersSearch() {
  const [params, setParams] = useSearchParams();
  const sort = params.get('sort');
  const search: PlayersSearch = {
    q: params.get('q') ?? '',
    sort: isSort(sort) ? sort : 'suspicion',
    page: pageOf(params.get('page')),
  };
  const update = (next: Partial<PlayersSearch>) => {
    const merged = { ...search, page: 1, ...next };
    const entries: Record<string, string> = { tab: 'players' };
    if (merged.q) entries.q = merged.q;
    if (merged.sort !== 'suspicion') entries.sort = merged.sort;
    if (merged.page > 1) entries.page = String(merged.page);
    setParams(entries, { replace: true });
  };
  return { search, update };
}

/** The API's query for a search. */
export function playersQuery({ q, sort, page }: PlayersSearch): PlayersQuery {
  return { q, sort, limit: PLAYERS_PER_PAGE, offset: (page - 1) * PLAYERS_PER_PAGE };
}
