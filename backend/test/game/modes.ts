import { redisAvailable } from '../../test-support/availability';
import type { StorageMode } from '../../test-support/server';

/**
 * The storage modes every game contract test runs in: Postgres always, Redis when it answers.
 * A Redis that does not answer fails the run in CI (redisAvailable throws when CI is set) and is
 * left out with a loud warning elsewhere, never silently.
 */
export const storageModes: StorageMode[] = (await redisAvailable())
  ? ['postgres', 'redis']
  : ['postgres'];
