import type { Config } from './core/config';
import type { Database } from './core/db';
import type { Feature } from './core/feature';
import { createGameFeature } from './game';
import { createModeration } from './admin';
import { createLolgramFeature } from './lolgram';
import { FeedCache } from './lolgram/feed-cache';
import type { Logger } from './core/logger';
import type { Redis } from './core/redis';

export interface FeatureDeps {
  config: Config;
  logger: Logger;
  db: Database;
  redis: Redis | null;
  /** Signs cookies; from SESSION_SECRET or generated once under DATA_DIR. */
  secret: string;
}

/** The product's features, each wired to the storage chosen at start-up. */
export async function createFeatures(deps: FeatureDeps): Promise<Feature[]> {
  // Moderation decisions and new posts both change the feed: they share its cache.
  const feedCache = new FeedCache();
  const moderation = createModeration(deps, feedCache);
  return [await createGameFeature(deps), createLolgramFeature(deps, moderation, feedCache)];
}
