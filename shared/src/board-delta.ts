import type { LeaderboardCountry, LeaderboardUser } from './game';
import type { Boards, BoardsDelta, SeasonBoards, SeasonBoardsDelta } from './game-channel';
import { boardRanks } from './ranks';

type Change<New> = number | [number, number] | New;

/** How a list's rows are told apart, compared and written whole. */
interface RowShape<T, New> {
  key: (row: T) => string;
  same: (before: T, after: T) => boolean;
  points: (row: T) => number;
  whole: (row: T) => New;
}

/**
 * A list's rows in their new order, each as a reference to the previous list (`index`, or
 * `[index, points gained]`) or whole when it is new to the list (`same` tells whether a previous
 * row is still this one); undefined when nothing changed.
 */
function diffList<T, New extends unknown[]>(
  previous: readonly T[],
  next: readonly T[],
  { key, same, points, whole }: RowShape<T, New>,
): Change<New>[] | undefined {
  const at = new Map(previous.map((row, i) => [key(row), i]));
  let changed = previous.length !== next.length;
  const rows = next.map((row, i): Change<New> => {
    const before = at.get(key(row));
    if (before === undefined || !same(previous[before], row)) {
      changed = true;
      return whole(row);
    }
    const gained = points(row) - points(previous[before]);
    if (before !== i || gained !== 0) changed = true;
    return gained === 0 ? before : [before, gained];
  });
  return changed ? rows : undefined;
}

function applyList<T, New extends unknown[]>(
  previous: readonly T[],
  changes: readonly Change<New>[],
  gain: (row: T, points: number) => T,
  whole: (row: New) => T,
): T[] {
  const row = (i: number) => {
    if (!Number.isInteger(i) || i < 0 || i >= previous.length) {
      throw new RangeError(`The delta names row ${i} of a list of ${previous.length}`);
    }
    return previous[i];
  };
  return changes.map((change) => {
    if (typeof change === 'number') return row(change);
    if (typeof change[0] === 'number' && change.length === 2) {
      return gain(row(change[0]), change[1] as number);
    }
    return whole(change as New);
  });
}

/** The players and countries lists that changed from `previous` to `next`, as a delta lists them. */
function diffLists(
  previous: { users: LeaderboardUser[]; countries: LeaderboardCountry[] },
  next: { users: LeaderboardUser[]; countries: LeaderboardCountry[] },
): Pick<BoardsDelta, 'users' | 'countries'> {
  const delta: Pick<BoardsDelta, 'users' | 'countries'> = {};
  const users = diffList(previous.users, next.users, {
    key: (u) => u.id,
    same: (a, b) => a.username === b.username,
    points: (u) => u.totalPoints,
    whole: (u): [string, string, number] => [u.id, u.username, u.totalPoints],
  });
  if (users) delta.users = users;
  const countries = diffList(previous.countries, next.countries, {
    key: (c) => c.country,
    same: () => true,
    points: (c) => c.totalPoints,
    whole: (c): [string, number] => [c.country, c.totalPoints],
  });
  if (countries) delta.countries = countries;
  return delta;
}

/** What changed from `previous` to `next` (null: nothing), without the versions. */
export function diffBoards(previous: Boards, next: Boards): Omit<BoardsDelta, 'from' | 'v'> | null {
  const delta: Omit<BoardsDelta, 'from' | 'v'> = diffLists(previous, next);
  if (previous.milestone.usersOver100k !== next.milestone.usersOver100k) {
    delta.milestone = next.milestone.usersOver100k;
  }
  return Object.keys(delta).length > 0 ? delta : null;
}

/** What changed in a season's boards (null: nothing), a new season included. */
export function diffSeasonBoards(
  previous: SeasonBoards,
  next: SeasonBoards,
): Omit<SeasonBoardsDelta, 'from' | 'v'> | null {
  const delta: Omit<SeasonBoardsDelta, 'from' | 'v'> = diffLists(previous, next);
  if (previous.season !== next.season) delta.season = next.season;
  return Object.keys(delta).length > 0 ? delta : null;
}

/**
 * The ranks of the top of the players' board, by the rule of GET /api/users/{id}/rank: 1 + the
 * players with strictly more points, so that equal points share a rank ("1, 1, 3").
 */
function rankTop(users: LeaderboardUser[]): LeaderboardUser[] {
  const ranks = boardRanks(users.map((user) => user.totalPoints));
  return users.map((user, i) => (user.rank === ranks[i] ? user : { ...user, rank: ranks[i] }));
}

/**
 * The boards after `delta`, from the boards it was made against (a delta carries no ranks: they
 * follow from the order and the points). A delta that names a row the
 * previous list does not have throws: the client holds other boards, and asks for a snapshot.
 */
export function applyBoardsDelta(previous: Boards, delta: BoardsDelta): Boards {
  return {
    ...applyLists(previous, delta),
    milestone:
      delta.milestone === undefined ? previous.milestone : { usersOver100k: delta.milestone },
  };
}

/** The season's boards after `delta` (see applyBoardsDelta). */
export function applySeasonBoardsDelta(
  previous: SeasonBoards,
  delta: SeasonBoardsDelta,
): SeasonBoards {
  return { ...applyLists(previous, delta), season: delta.season ?? previous.season };
}

function applyLists(
  previous: { users: LeaderboardUser[]; countries: LeaderboardCountry[] },
  delta: Pick<BoardsDelta, 'users' | 'countries'>,
): { users: LeaderboardUser[]; countries: LeaderboardCountry[] } {
  return {
    users: delta.users
      ? rankTop(
          applyList(
            previous.users,
            delta.users,
            (u, points) => ({ ...u, totalPoints: u.totalPoints + points }),
            ([id, username, totalPoints]) => ({ id, username, totalPoints }),
          ),
        )
      : previous.users,
    countries: delta.countries
      ? applyList(
          previous.countries,
          delta.countries,
          (c, points) => ({ ...c, totalPoints: c.totalPoints + points }),
          ([country, totalPoints]) => ({ country, totalPoints }),
        )
      : previous.countries,
  };
}
