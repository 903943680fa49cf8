import { redisAvailable } from '../helpers/availability';
import type { StorageMode } from '../helpers/server';

/** The storage modes every game contract test runs in: Postgres always, Redis when it answers. */
export const storageModes: StorageMode[] = (await redisAvailable())
  ? ['postgres', 'redis']
  : ['postgres'];
