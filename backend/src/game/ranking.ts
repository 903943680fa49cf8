import { boardRanks, type LeaderboardUser, type RankedUser } from '@tapgram/shared';

/**
 * A stretch of the players' board, in board order (points down, then id down): `entries` start at
 * board position `start` (0 for the top), and the first of them holds rank `firstRank`.
 */
export interface BoardStretch {
  start: number;
  firstRank: number;
  entries: LeaderboardUser[];
}

/** The rows of a board stretch with their ranks (the rule of the Rank tile, `boardRanks`). */
export function withRanks({ start, firstRank, entries }: BoardStretch): RankedUser[] {
  const ranks = boardRanks(
    entries.map((entry) => entry.totalPoints),
    start,
    firstRank,
  );
  return entries.map((entry, index) => ({ ...entry, rank: ranks[index] }));
}
