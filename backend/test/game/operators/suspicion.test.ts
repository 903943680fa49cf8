import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../../src/core/config';
import {
  suspicionOf,
  suspicionRules,
  type PlayerFigures,
} from '../../../src/game/operators/suspicion';

const TODAY = '2026-11-23';
const rules = suspicionRules(loadConfig({}));

const quiet: PlayerFigures = {
  refusedMax: 0,
  refusedDay: null,
  longestMs: 0,
  longestDay: null,
  evenDay: null,
  evenBatches: 0,
  sizeVariation: null,
  intervalVariation: null,
  networkPlayers: 1,
};

describe('suspicion score', () => {
  it('is zero with no reason for quiet play', () => {
    expect(suspicionOf(quiet, rules, TODAY)).toEqual({ score: 0, reasons: [] });
  });

  it('gives each rule that fires its weight and a reason naming the day', () => {
    const figures: PlayerFigures = {
      refusedMax: 1240,
      refusedDay: TODAY,
      longestMs: (11 * 60 + 40) * 60_000,
      longestDay: '2026-11-22',
      evenDay: '2026-11-19',
      evenBatches: 3400,
      sizeVariation: 0.004,
      intervalVariation: 0.021,
      networkPlayers: 18,
    };
    expect(suspicionOf(figures, rules, TODAY)).toEqual({
      score: 100,
      reasons: [
        'refused 1,240 taps today',
        'tapped 11 h 40 min without a pause yesterday',
        'tapped at an even cadence on 19 Nov: 3,400 batches varying 0.4% in size and 2.1% in interval',
        '18 players from one network',
      ],
    });
  });

  it('stops at the thresholds: just below fires nothing', () => {
    const below: PlayerFigures = {
      ...quiet,
      refusedMax: rules.refusedTaps - 1,
      refusedDay: TODAY,
      longestMs: rules.streakMs - 1,
      longestDay: TODAY,
      evenDay: TODAY,
      evenBatches: 100,
      sizeVariation: 0.01,
      intervalVariation: rules.evenCadence,
      networkPlayers: rules.networkPlayers - 1,
    };
    expect(suspicionOf(below, rules, TODAY)).toEqual({ score: 0, reasons: [] });
  });

  it('needs both sizes and intervals even: a person batching by the clock varies in size', () => {
    const clockBatched = {
      ...quiet,
      evenDay: TODAY,
      evenBatches: 500,
      sizeVariation: 0.4,
      intervalVariation: 0,
    };
    expect(suspicionOf(clockBatched, rules, TODAY).score).toBe(0);
  });

  it('leaves out a rule weighted 0, and its reason', () => {
    const tuned = suspicionRules(
      loadConfig({ SUSPICION_WEIGHTS: 'refused=0,streak=30,cadence=40,network=25' }),
    );
    expect(suspicionOf({ ...quiet, refusedMax: 5000, refusedDay: TODAY }, tuned, TODAY)).toEqual({
      score: 0,
      reasons: [],
    });
  });
});

describe('suspicion settings', () => {
  it('reads the thresholds and weights from the environment', () => {
    const tuned = suspicionRules(
      loadConfig({
        SUSPICION_REFUSED_TAPS: '50',
        SUSPICION_STREAK_MINUTES: '90',
        SUSPICION_WEIGHTS: 'network=10, cadence=60, streak=20, refused=20',
      }),
    );
    expect(tuned).toMatchObject({
      refusedTaps: 50,
      streakMs: 90 * 60_000,
      weights: { refused: 20, streak: 20, cadence: 60, network: 10 },
    });
  });

  it.each([
    'refused=35,streak=30,cadence=40',
    'refused=35,streak=30,cadence=40,network=101',
    'refused=35,streak=30,cadence=40,network=ten',
    'refused=35,streak=30,cadence=40,network=25,speed=5',
  ])('refuses SUSPICION_WEIGHTS=%s with the expected form', (weights) => {
    expect(() => loadConfig({ SUSPICION_WEIGHTS: weights })).toThrow(ConfigError);
    expect(() => loadConfig({ SUSPICION_WEIGHTS: weights })).toThrow(/SUSPICION_WEIGHTS/);
  });
});
