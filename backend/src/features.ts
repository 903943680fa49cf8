import type { Feature, FeatureDeps } from './core/feature';
import { createGameFeature } from './game';
import { createLolgramFeature } from './lolgram';

/** The product's features, each wired to the storage chosen at start-up. */
export async function createFeatures(deps: FeatureDeps): Promise<Feature[]> {
  return [await createGameFeature(deps), createLolgramFeature(deps)];
}
