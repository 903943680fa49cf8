import type { RateLimit, RateLimits } from '../core/limiter';
import { limitKey, ACCOUNT_LIMITS } from './limits';

const TOO_MANY_FAILURES = 'Too many failed sign-in attempts. Try again in a few minutes.';

/**
 * Failed password sign-ins, limited per client and username and per client across usernames
 * (password spraying), in every process at once when the limits live in Redis. An attempt counts
 * as a failure before the password is checked, so that concurrent guesses cannot all pass the
 * check first; a success takes it back.
 */
export class LoginGuard {
  private readonly perAccount: RateLimit;
  private readonly perClient: RateLimit;

  constructor(limits: RateLimits) {
    this.perAccount = limits('login-account', ACCOUNT_LIMITS.loginPerAccount);
    this.perClient = limits('login-client', ACCOUNT_LIMITS.loginPerClient);
  }

  /** Reserves an attempt, or throws 429; call the answer when the password was right. */
  async begin(client: string, username: string): Promise<() => Promise<void>> {
    const clientKey = limitKey(client);
    const accountKey = `${clientKey}|${limitKey(username.toLowerCase())}`;
    // The client first: one at its limit makes no key for each username it goes on to try.
    await this.perClient.take(clientKey, TOO_MANY_FAILURES);
    try {
      await this.perAccount.take(accountKey, TOO_MANY_FAILURES);
    } catch (refused) {
      await this.perClient.forgive(clientKey);
      throw refused;
    }
    return async () => {
      await Promise.all([this.perAccount.reset(accountKey), this.perClient.forgive(clientKey)]);
    };
  }
}
