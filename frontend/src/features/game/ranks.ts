/**
 * The ranks of the top of a board, ordered by points: the rule of the Rank tile (1 + the rows
 * with more points), so equal points share a rank and the next one skips ("1, 1, 3"). Worked out
 * here from the points, because the boards pushed over the game channel carry no ranks.
 */
export function topRanks(points: readonly number[]): number[] {
  const ranks: number[] = [];
  points.forEach((value, index) => {
    ranks.push(index > 0 && value === points[index - 1] ? ranks[index - 1] : index + 1);
  });
  return ranks;
}
