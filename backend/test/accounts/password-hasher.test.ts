import { describe, expect, it } from 'vitest';
import { HttpError } from '../../src/core/errors';
import { PasswordHasher, type Argon } from '../../src/accounts/passwords';

/** An argon2 stand-in whose calls finish only when the test says so, counting what runs at once. */
function heldArgon() {
  const calls: { kind: 'hash' | 'verify'; finish: () => void }[] = [];
  const waiters: { count: number; resolve: () => void }[] = [];
  let running = 0;
  let mostAtOnce = 0;
  const start = <T>(kind: 'hash' | 'verify', value: T) =>
    new Promise<T>((resolve) => {
      running += 1;
      mostAtOnce = Math.max(mostAtOnce, running);
      calls.push({
        kind,
        finish: () => {
          running -= 1;
          resolve(value);
        },
      });
      for (const waiter of waiters.filter((w) => calls.length >= w.count)) waiter.resolve();
    });
  const argon: Argon = {
    hash: () => start('hash', '$argon2id$fake'),
    verify: () => start('verify', true),
  };
  return {
    argon,
    calls,
    get mostAtOnce() {
      return mostAtOnce;
    },
    /** Resolves once `count` calls have started. */
    started: (count: number) =>
      new Promise<void>((resolve) => {
        if (calls.length >= count) resolve();
        else waiters.push({ count, resolve });
      }),
  };
}

const busy = (outcome: PromiseSettledResult<unknown>) => {
  expect(outcome.status).toBe('rejected');
  const error = (outcome as PromiseRejectedResult).reason as HttpError;
  expect(error).toBeInstanceOf(HttpError);
  expect(error.status).toBe(503);
  expect(error.message).toBe('Server busy, try again shortly');
  expect(error.retryAfterSeconds).toBeGreaterThan(0);
};

describe('password hashing bound', () => {
  it('computes at most `running` hashes at once, queues `waiting` more and refuses the rest with 503', async () => {
    const held = heldArgon();
    const hasher = new PasswordHasher({ running: 2, waiting: 3 }, held.argon);
    const jobs = Array.from({ length: 7 }, (_, i) =>
      i % 2 === 0 ? hasher.hash(`password ${i}`) : hasher.verify('$argon2id$stored', 'guess'),
    );
    const outcomes = jobs.map((job) =>
      job.then(
        (value) => ({ status: 'fulfilled', value }) as const,
        (reason: unknown) => ({ status: 'rejected', reason }) as const,
      ),
    );
    // The two past the queue are refused at once, while the first two still compute.
    busy(await outcomes[5]);
    busy(await outcomes[6]);
    expect(held.calls).toHaveLength(2);

    for (let finished = 0; finished < 5; finished += 1) {
      held.calls[finished].finish();
      await outcomes[finished];
      if (finished + 2 < 5) await held.started(finished + 3);
    }
    const settled = await Promise.all(outcomes.slice(0, 5));
    expect(settled.map((outcome) => outcome.status)).toEqual(Array(5).fill('fulfilled'));
    expect(held.calls.map((call) => call.kind)).toEqual([
      'hash',
      'verify',
      'hash',
      'verify',
      'hash',
    ]);
    expect(held.mostAtOnce).toBe(2);

    // With the queue drained, new work is taken again.
    const again = hasher.hash('later');
    await held.started(6);
    held.calls[5].finish();
    await expect(again).resolves.toBe('$argon2id$fake');
  });

  it('spends a verification on an unknown user too, inside the same bound', async () => {
    const held = heldArgon();
    const hasher = new PasswordHasher({ running: 1, waiting: 0 }, held.argon);
    const unknown = hasher.verify(null, 'guess');
    await held.started(1);
    // The one slot is taken by the unknown user's work: the next caller is refused.
    busy(
      await hasher.hash('other').then(
        () => ({ status: 'fulfilled', value: undefined }) as const,
        (reason: unknown) => ({ status: 'rejected', reason }) as const,
      ),
    );
    held.calls[0].finish();
    await held.started(2);
    expect(held.calls.map((call) => call.kind)).toEqual(['hash', 'verify']);
    held.calls[1].finish();
    await expect(unknown).resolves.toBe(false);
    expect(held.mostAtOnce).toBe(1);
  });
});
