import type { Feature, FeatureDeps } from './core/feature';
import { createGameFeature } from './game';
import { createLolgramFeature } from './lolgram';

/** The product's features, each wired to the storage chosen at start-up. */
export async function createFeatures(deps: FeatureDeps): Promise<Feature[]> {
  // The game's operators are LOLGram's admins: LOLGram lends the game its admin-only guard.
  const lolgram = createLolgramFeature(deps);
  return [await createGameFeature(deps, { adminOnly: lolgram.adminOnly }), lolgram];
}
