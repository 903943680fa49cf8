import { describe, expect, it } from 'vitest';
import { boardRanks } from '../src/ranks';

describe('boardRanks: 1 + the rows with strictly more points', () => {
  it('shares a rank between equal points and skips the next one, from the top', () => {
    expect(boardRanks([])).toEqual([]);
    expect(boardRanks([30, 30, 10])).toEqual([1, 1, 3]);
    expect(boardRanks([50, 40, 40, 40, 30, 20, 20, 10])).toEqual([1, 2, 2, 2, 5, 6, 6, 8]);
  });

  it('ranks a stretch further down the board from its position and its first rank', () => {
    // Rows 10 to 13 of a board whose row 10 is level with rows 8 and 9 (rank 8).
    expect(boardRanks([70, 60, 60, 50], 9, 8)).toEqual([8, 11, 11, 13]);
    // Without a first rank, the first row holds the rank of its position.
    expect(boardRanks([70, 70], 4)).toEqual([5, 5]);
  });
});
