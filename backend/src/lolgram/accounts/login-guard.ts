import { TooManyRequestsError } from '../../core/errors';
import { FailureLimiter } from './failure-limiter';
import { limitKey, LOLGRAM_LIMITS } from '../limits';

/**
 * Failed password sign-ins, limited per client and username and per client across usernames
 * (password spraying). An attempt counts as a failure before the password is checked, so that
 * concurrent guesses cannot all pass the check first; a success takes it back.
 */
export class LoginGuard {
  constructor(
    private readonly perAccount = limiter(LOLGRAM_LIMITS.loginPerAccount),
    private readonly perClient = limiter(LOLGRAM_LIMITS.loginPerClient),
  ) {}

  /** Reserves an attempt, or throws 429; call the answer when the password was right. */
  begin(client: string, username: string): () => void {
    const clientKey = limitKey(client);
    const accountKey = `${clientKey}|${limitKey(username.toLowerCase())}`;
    // Check both before counting either: nothing awaits in between, so this is atomic here.
    if (this.perAccount.blocked(accountKey) || this.perClient.blocked(clientKey)) {
      throw new TooManyRequestsError(
        'Too many failed sign-in attempts. Try again in a few minutes.',
      );
    }
    this.perAccount.take(accountKey);
    this.perClient.take(clientKey);
    return () => {
      this.perAccount.reset(accountKey);
      this.perClient.forgive(clientKey);
    };
  }
}

function limiter({ limit, windowMs }: { limit: number; windowMs: number }) {
  return new FailureLimiter(limit, windowMs);
}
