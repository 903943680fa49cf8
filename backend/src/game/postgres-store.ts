import type { GameRepository } from './repository';
import type { GameStore, RateLimit, TapOutcome } from './store';
import { TokenBuckets } from './token-bucket';

const PUSH_INTERVAL_MS = 1000;
const PRUNE_INTERVAL_MS = 60_000;
const BATCH_MEMORY_MS = 600_000;

/** Single-node store: every tap is one atomic statement on Postgres, rates are kept in memory. */
export class PostgresGameStore implements GameStore {
  private readonly buckets: TokenBuckets;
  private readonly pruner: NodeJS.Timeout;
  private version = 0;
  private pushedVersion = 0;
  private lastPushAt = 0;
  /** Recent batch ids and their outcome, so that a re-sent batch counts once. */
  private readonly batches = new Map<string, { outcome: Promise<TapOutcome>; at: number }>();

  constructor(
    private readonly repo: GameRepository,
    rateLimit: RateLimit,
  ) {
    this.buckets = new TokenBuckets(rateLimit);
    this.pruner = setInterval(() => {
      this.buckets.prune();
      const cutoff = Date.now() - BATCH_MEMORY_MS;
      for (const [id, batch] of this.batches) if (batch.at < cutoff) this.batches.delete(id);
    }, PRUNE_INTERVAL_MS).unref();
  }

  async createUser(username: string, country: string) {
    const user = await this.repo.insertUser(username, country);
    this.version += 1;
    return user;
  }

  getUser(id: string) {
    return this.repo.findUser(id);
  }

  async rank(userId: string) {
    const user = await this.repo.findUser(userId);
    return user ? this.repo.rankOf(user.totalPoints) : null;
  }

  createSession(userId: string) {
    return this.repo.insertSession(userId);
  }

  async tap(
    userId: string,
    sessionId: string,
    count: number,
    batchId?: string,
  ): Promise<TapOutcome> {
    if (!batchId) return this.tapOnce(userId, sessionId, count);
    const key = `${sessionId}:${batchId}`;
    const seen = this.batches.get(key);
    if (seen) {
      const first = await seen.outcome;
      if (first.kind !== 'ok') return first;
      const [user, session] = await Promise.all([
        this.repo.findUser(userId),
        this.repo.findSession(sessionId),
      ]);
      return user && session
        ? { kind: 'ok', accepted: first.accepted, user, session }
        : { kind: 'no-session' };
    }
    const outcome = this.tapOnce(userId, sessionId, count);
    this.batches.set(key, { outcome, at: Date.now() });
    outcome.catch(() => this.batches.delete(key));
    return outcome;
  }

  private async tapOnce(userId: string, sessionId: string, count: number): Promise<TapOutcome> {
    const session = await this.repo.findSession(sessionId);
    if (!session) return { kind: 'no-session' };
    if (session.userId !== userId) return { kind: 'not-owner' };
    const granted = this.buckets.take(userId, count);
    if (granted === 0) return { kind: 'rate-limited' };
    const result = await this.repo.addTaps(userId, sessionId, granted).catch((error: unknown) => {
      this.buckets.refund(userId, granted);
      throw error;
    });
    if (!result) return { kind: 'no-session' };
    this.version += 1;
    return { kind: 'ok', accepted: granted, ...result };
  }

  topUsers(limit: number) {
    return this.repo.topUsers(limit);
  }

  topCountries() {
    return this.repo.topCountries();
  }

  usersOver(points: number) {
    return this.repo.usersOver(points);
  }

  async claimPush() {
    const now = Date.now();
    if (this.version === this.pushedVersion || now - this.lastPushAt < PUSH_INTERVAL_MS)
      return false;
    this.pushedVersion = this.version;
    this.lastPushAt = now;
    return true;
  }

  async flush() {}

  async close() {
    clearInterval(this.pruner);
  }
}
