import { redisAnswers, TEST_REDIS_URL } from './services';

/**
 * Whether the local Redis answers. Without it the Redis suites are left out with a loud notice,
 * except in CI, where a missing service fails the run.
 */
export async function redisAvailable(): Promise<boolean> {
  if (await redisAnswers()) return true;
  const message = `Redis at ${TEST_REDIS_URL} does not answer: the Redis-mode suites do not run.`;
  if (process.env.CI) throw new Error(message);
  console.warn(`\n*** ${message} Start it (see docs/OPERATIONS.md) to run them. ***\n`);
  return false;
}
