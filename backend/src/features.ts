import { createAccounts } from './accounts';
import type { Feature, FeatureDeps } from './core/feature';
import { createGameFeature } from './game';
import { createImages } from './images';
import { createLive } from './live';
import { createLolgramFeature, type ImageClassifier } from './lolgram';

/**
 * The product, wired to the storage chosen at start-up: the modules several features share
 * (images, accounts, the signed-in live channel), then the features (the game, LOLGram). Core
 * knows none of them: the server is handed this function.
 */
export async function createFeatures(
  deps: FeatureDeps,
  /** Moderation's image classifier (null: none); tests hand in a stand-in for the model. */
  { imageClassifier }: { imageClassifier?: ImageClassifier | null } = {},
): Promise<Feature[]> {
  // Built once: posts, avatars and moderation read and write images in this one store.
  const images = createImages(deps);
  const accounts = createAccounts(deps, images);
  const live = createLive(deps, accounts);
  return [
    accounts,
    live,
    await createGameFeature(deps, { adminOnly: accounts.adminOnly }),
    createLolgramFeature(deps, { accounts, images, live, imageClassifier }),
  ];
}
