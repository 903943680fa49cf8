import { Router } from 'express';
import type { Readiness, ReadinessCheck } from '@tapgram/shared';
import type { Queryable } from './db';
import type { Redis } from './redis';

const CHECK_TIMEOUT_MS = 2000;

async function probe(check: () => Promise<unknown>): Promise<'ok' | 'down'> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('timeout')), CHECK_TIMEOUT_MS);
  });
  try {
    await Promise.race([check(), timeout]);
    return 'ok';
  } catch {
    return 'down';
  } finally {
    clearTimeout(timer);
  }
}

/** What the features say of their own state, read at each check (cheap: no I/O). */
export type FeatureChecks = () => Record<string, ReadinessCheck>;

export async function checkReadiness(
  db: Queryable,
  redis: Redis | null,
  featureChecks: FeatureChecks = () => ({}),
): Promise<Readiness> {
  const [database, cache] = await Promise.all([
    probe(() => db.query('SELECT 1')),
    redis ? probe(() => redis.ping()) : Promise.resolve('not configured' as const),
  ]);
  const checks: Readiness['checks'] = { database, redis: cache, ...featureChecks() };
  const failed = Object.values(checks).some((check) => check === 'down' || check === 'behind');
  return { status: failed ? 'unavailable' : 'ok', checks };
}

export function healthRouter(
  db: Queryable,
  redis: Redis | null,
  featureChecks?: FeatureChecks,
): Router {
  const router = Router();
  router.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  router.get('/readyz', async (_req, res) => {
    const readiness = await checkReadiness(db, redis, featureChecks);
    res.status(readiness.status === 'ok' ? 200 : 503).json(readiness);
  });
  return router;
}
