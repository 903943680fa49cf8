import type { LeaderboardUser, RankedUser } from '@tapgram/shared';

/**
 * A stretch of the players' board, in board order (points down, then id down): `entries` start at
 * board position `start` (0 for the top), and the first of them holds rank `firstRank`.
 */
export interface BoardStretch {
  start: number;
  firstRank: number;
  entries: LeaderboardUser[];
}

/**
 * The ranks of a board stretch, by the rule of the Rank tile (GET /api/users/:id/rank): 1 + the
 * players with strictly more points, so equal points share a rank and the next one skips
 * ("1, 1, 3"). A row with fewer points than the one before it has every row above it ahead.
 */
export function withRanks({ start, firstRank, entries }: BoardStretch): RankedUser[] {
  let rank = firstRank;
  return entries.map((entry, index) => {
    if (index > 0 && entry.totalPoints !== entries[index - 1].totalPoints) {
      rank = start + index + 1;
    }
    return { ...entry, rank };
  });
}
