/**
 * The rank of each row of a stretch of a board, given the rows' points in board order (points
 * down), by the rule of GET /api/users/{id}/rank: 1 + the rows with strictly more points, so equal
 * points share a rank and the next one skips ("1, 1, 3"). The stretch starts at board position
 * `start` (0: the top) and its first row holds rank `firstRank`; a row with fewer points than the
 * one before it has every row above it ahead. Every board of the product (the API's, the pushed
 * boards, the screens', the export) ranks with this one rule.
 */
export function boardRanks(points: readonly number[], start = 0, firstRank = start + 1): number[] {
  const ranks: number[] = [];
  points.forEach((value, index) => {
    ranks.push(
      index > 0 && value === points[index - 1]
        ? ranks[index - 1]
        : index === 0
          ? firstRank
          : start + index + 1,
    );
  });
  return ranks;
}
