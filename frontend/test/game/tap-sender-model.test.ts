import { MAX_KEPT_TAPS, messages, TapBucket } from '@tapgram/shared';
import { afterEach, describe, expect, it } from 'vitest';
import { TapSender } from '../../src/features/game/taps/tap-sender';
import { ApiError } from '../../src/lib/api';
import {
  ALLOWANCE,
  Model,
  NO_FAULTS,
  restoreGlobals,
  Seeds,
  TOO_FAST,
  type ModelOptions,
  type SeedOutcome,
  type World,
} from './tap-model';

/*
 * A randomized, model-based test of the game screen's tap sender: the real TapSender against
 * tap-model.ts's fake of the server's tap rules (Postgres mode: backend/src/game/postgres-store.ts,
 * repository.ts `addTaps`, service.ts, tap-handlers.ts, core/socket-limit.ts) and of socket.io's
 * client (acks with a timeout, rejected on disconnect; emits buffered while the ping has expired
 * and sent on the next connection; packets sent into a connection whose network is gone stall,
 * and arrive if the network comes back before the ping times out). Each seed taps at random rates,
 * loses the network (with and without the browser's offline/online events), drops the connection,
 * makes the server briefly unavailable or slow (answers later than the sender's ack timeout),
 * makes posts fail before or after the server counted them; then everything heals and goes quiet,
 * and every tap the screen handed to the sender must be counted by the server, once, with nothing
 * left waiting.
 */

/**
 * A sender as useTapSender.ts makes it, its errors kept in `errors`: a frozen player's refusal
 * stops it.
 */
function newSender(world: World, errors: string[]): TapSender {
  const sender: TapSender = new TapSender({
    ...world.transport,
    onSettled: () => undefined,
    onError: (error, sent) => {
      errors.push(`${error.message} (${sent})`);
      world.log(`onError ${error.message} (${sent})`);
      if (error instanceof ApiError && error.serverMessage === messages.playerFrozen) {
        sender.stop();
      }
    },
  });
  return sender;
}

// ---------------------------------------------------------------------------------------------
// One seed.
// ---------------------------------------------------------------------------------------------

interface SeedResult extends SeedOutcome {
  handed: number;
  counted: number;
  unconfirmed: number;
  notDurable: number;
  errors: string[];
  doubles: string[];
}

const failed = (o: SeedResult) =>
  o.counted !== o.handed ||
  o.unconfirmed !== 0 ||
  o.notDurable !== 0 ||
  o.doubles.length > 0 ||
  o.errors.some((e) => e.includes(TOO_FAST));

async function runSeed(seed: number, options: ModelOptions = {}): Promise<SeedResult> {
  const model = new Model(seed, options);
  const { clock, world, rand } = model;
  const errors: string[] = [];
  const sender = newSender(world, errors);
  // useGame.ts: the screen hands the sender only the taps its own bucket of the allowance holds.
  const screen = new TapBucket(ALLOWANCE);
  let handed = 0;
  let sessions = 1;
  let session = 's1';
  const tap = () => {
    if (sender.unconfirmed >= MAX_KEPT_TAPS || !screen.take(1)) return;
    handed += 1;
    world.log(`tap ${session} (${handed})`);
    sender.tap('u', session);
  };
  // Now and then a run of taps is in a new session.
  const onRun = (at: number) => {
    const newSession = rand() < 0.08;
    clock.set(() => {
      if (newSession) session = `s${++sessions}`;
    }, at);
  };

  await model.play({ tap, onRun });

  const outcome: SeedResult = {
    seed,
    handed,
    counted: world.server.total,
    unconfirmed: sender.unconfirmed,
    notDurable: sender.notDurable,
    errors,
    doubles: world.server.doubles,
    trace: world.trace,
    stats: world.stats,
  };
  sender.dispose();
  restoreGlobals();
  return outcome;
}

afterEach(restoreGlobals);

describe('TapSender against a model of the server and the network (randomized)', () => {
  // More, or others, to explore: TAP_MODEL_SEEDS=5000 TAP_MODEL_FIRST_SEED=1000 (TAP_MODEL_DEBUG=1
  // prints how often each path was taken; TAP_MODEL_TRACE=1 the first failing seed's events).
  const seeds = new Seeds('TAP_MODEL', 500);

  it(
    `counts every tap handed to it once, with nothing left waiting (${seeds.count} seeds)`,
    async () => {
      const failures = await seeds.explore((seed, tracing) => runSeed(seed, { tracing }), failed);
      expect(failures).toEqual([]);
    },
    Math.max(60_000, seeds.count * 200),
  );
});

/** A world of `seed` (random delays), for a scenario written out by hand. */
function handWritten(seed: number) {
  const { clock, world } = new Model(seed, { faults: NO_FAULTS });
  const errors: string[] = [];
  return { clock, world, errors, newSender: () => newSender(world, errors) };
}

describe('TapSender against the model, by hand', () => {
  it.each(['the socket goes on', 'the socket goes too'])(
    "counts every tap of the browser test's sequence: out of energy, offline, out of energy, online (%s)",
    async (variant) => {
      for (let seed = 1; seed <= 20; seed += 1) {
        const { clock, world, errors, newSender } = handWritten(seed);
        const sender = newSender();
        const screen = new TapBucket(ALLOWANCE);
        let handed = 0;
        const tap = () => {
          if (!screen.take(1)) return;
          handed += 1;
          sender.tap('u', 's1');
        };
        // e2e/setup.ts outOfEnergy: 60 taps at once, then 4 every 20 ms.
        const outOfEnergy = async (ms: number) => {
          for (let i = 0; i < 60; i += 1) tap();
          for (let t = 0; t < ms; t += 20) {
            for (let i = 0; i < 4; i += 1) tap();
            await clock.advance(20);
          }
        };
        await outOfEnergy(3000);
        await clock.advance(10_000);
        expect(world.server.total).toBe(handed);
        if (variant === 'the socket goes on') world.httpOffline();
        else world.goOffline(true);
        await outOfEnergy(5000);
        if (variant === 'the socket goes on') world.httpBack();
        else world.goOnline(true);
        await clock.advance(60_000);
        expect({
          seed,
          counted: world.server.total,
          unconfirmed: sender.unconfirmed,
          errors,
        }).toEqual({ seed, counted: handed, unconfirmed: 0, errors: [] });
        sender.dispose();
        restoreGlobals();
      }
    },
  );

  /*
   * A frozen player's refusal stops the sender (useTapSender.ts onError -> TapBatches.stop), and
   * the next sender, after the unfreeze, takes over its snapshot and goes on in the same session.
   * The snapshot must still say which number the session used last: numbered from 1 again, the
   * new batches were answered by the server as re-sends of numbers it had counted (`seq <=
   * last_seq`), and their taps were lost without an error.
   */
  it('counts the taps made after a freeze and an unfreeze in the same session', async () => {
    const { clock, world, errors, newSender } = handWritten(1);
    const tapTimes = async (sender: TapSender, n: number) => {
      for (let i = 0; i < n; i += 1) sender.tap('u', 's1');
      await clock.advance(3000);
    };
    const first = newSender();
    await tapTimes(first, 10);
    await tapTimes(first, 10);
    expect([world.server.total, world.server.last('s1')]).toEqual([20, 2]);
    // Frozen: the next tap is refused and reported, and the sender stops.
    world.server.frozen = true;
    await tapTimes(first, 1);
    expect(errors).toEqual([`${messages.playerFrozen} (1)`]);
    // Unfrozen: the next sender takes over what the first held (useTapSender.ts's handover).
    const handover = first.snapshot();
    first.dispose();
    world.server.frozen = false;
    const second = newSender();
    second.restore(handover);
    await tapTimes(second, 10);
    await tapTimes(second, 10);
    await tapTimes(second, 10);
    expect(second.unconfirmed).toBe(0);
    // 30 when the numbers started again at 1 (s1#1 and s1#2 answered as re-sends).
    expect(world.server.total).toBe(50);
    second.dispose();
  });
});
