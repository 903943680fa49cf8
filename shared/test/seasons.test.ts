import { describe, expect, it } from 'vitest';
import {
  applySeasonBoardsDelta,
  diffSeasonBoards,
  seasonAt,
  seasonBounds,
  seasonBoardsDeltaSchema,
  seasonName,
  seasonParamSchema,
  timeLeft,
  type SeasonBoards,
} from '../src';

const WEEK = 7 * 86_400_000;
const calendar = { startMs: Date.UTC(2024, 0, 1), lengthMs: WEEK };

describe('the seasons calendar', () => {
  it('numbers seasons from 1 at the start, each ending where the next starts', () => {
    expect(seasonAt(calendar.startMs, calendar)).toBe(1);
    expect(seasonAt(calendar.startMs + WEEK - 1, calendar)).toBe(1);
    expect(seasonAt(calendar.startMs + WEEK, calendar)).toBe(2);
    expect(seasonAt(Date.UTC(2024, 2, 4, 12), calendar)).toBe(10);
    expect(seasonAt(calendar.startMs - 1, calendar)).toBe(0);
    expect(seasonBounds(10, calendar)).toEqual({
      startsAt: Date.UTC(2024, 2, 4),
      endsAt: Date.UTC(2024, 2, 11),
    });
    expect(seasonName(10)).toBe('Season 10');
  });

  it('counts down in the largest units that say it', () => {
    const end = Date.UTC(2024, 2, 11);
    expect(timeLeft(end, end - (2 * 86_400 + 5 * 3600 + 59) * 1000)).toBe('2d 5h');
    expect(timeLeft(end, end - (5 * 3600 + 12 * 60 + 3) * 1000)).toBe('5h 12m');
    expect(timeLeft(end, end - (12 * 60 + 5) * 1000)).toBe('12m 05s');
    expect(timeLeft(end, end - 45_500)).toBe('45s');
    expect(timeLeft(end, end)).toBe('Ending…');
    expect(timeLeft(end, end + 10_000)).toBe('Ending…');
  });

  it('reads a season in a path as current or its number', () => {
    expect(seasonParamSchema.parse('current')).toBe('current');
    expect(seasonParamSchema.parse('12')).toBe(12);
    for (const bad of ['0', '-1', '1.5', '01', 'latest', '9999999999']) {
      expect(seasonParamSchema.safeParse(bad).success, bad).toBe(false);
    }
  });
});

describe('season board deltas', () => {
  const boards: SeasonBoards = {
    season: 4,
    users: [
      { id: 'a', username: 'ana', totalPoints: 30, rank: 1 },
      { id: 'b', username: 'bo', totalPoints: 20, rank: 2 },
    ],
    countries: [{ country: 'FR', totalPoints: 50 }],
  };

  it('says nothing when nothing changed, and what moved when something did', () => {
    expect(diffSeasonBoards(boards, boards)).toBeNull();
    const next: SeasonBoards = {
      ...boards,
      users: [
        { id: 'b', username: 'bo', totalPoints: 35, rank: 1 },
        { id: 'a', username: 'ana', totalPoints: 30, rank: 2 },
      ],
      countries: [{ country: 'FR', totalPoints: 65 }],
    };
    const delta = { from: 1, v: 2, ...diffSeasonBoards(boards, next) };
    expect(seasonBoardsDeltaSchema.parse(delta)).toEqual(delta);
    expect(delta).toEqual({ from: 1, v: 2, users: [[1, 15], 0], countries: [[0, 15]] });
    expect(applySeasonBoardsDelta(boards, delta)).toEqual(next);
  });

  it('starts the next season from nothing under its number', () => {
    const next: SeasonBoards = { season: 5, users: [], countries: [] };
    const delta = { from: 1, v: 2, ...diffSeasonBoards(boards, next) };
    expect(delta).toEqual({ from: 1, v: 2, season: 5, users: [], countries: [] });
    expect(applySeasonBoardsDelta(boards, delta)).toEqual(next);
  });
});
