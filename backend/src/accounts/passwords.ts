import { hash, verify } from '@node-rs/argon2';
import { WorkQueue, type WorkLimits } from '../core/work-queue';
import { ACCOUNT_LIMITS } from './limits';

// OWASP's argon2id baseline: 19 MiB, 2 iterations, 1 lane.
const OPTIONS = { algorithm: 2 /* Argon2id */, memoryCost: 19_456, timeCost: 2, parallelism: 1 };

/** The two argon2 operations (a seam: tests hold them to watch the bound). */
export interface Argon {
  hash(password: string): Promise<string>;
  verify(stored: string, password: string): Promise<boolean>;
}

const argon2id: Argon = {
  hash: (password) => hash(password, OPTIONS),
  verify: (stored, password) => verify(stored, password),
};

export const SERVER_BUSY = 'Server busy, try again shortly';

/**
 * Hashes and checks passwords, at most `running` at once in this process with `waiting` more
 * queued in order; past that a caller is refused at once (503), so that a flood of sign-ups or
 * sign-ins cannot take every CPU and thread from taps and reads.
 */
export class PasswordHasher {
  private readonly work: WorkQueue;
  private dummy: Promise<string> | undefined;

  constructor(
    limits: WorkLimits = ACCOUNT_LIMITS.passwordHashes,
    private readonly argon: Argon = argon2id,
  ) {
    this.work = new WorkQueue(limits, SERVER_BUSY);
  }

  hash(password: string): Promise<string> {
    return this.work.run(() => this.argon.hash(password));
  }

  /** Verifies against a stored hash; with none, spends the same work so timing reveals nothing. */
  verify(stored: string | null, password: string): Promise<boolean> {
    return this.work.run(async () => {
      if (stored) return this.argon.verify(stored, password).catch(() => false);
      this.dummy ??= this.argon.hash('not a real password');
      await this.argon.verify(await this.dummy, password).catch(() => false);
      return false;
    });
  }
}
