import type { FeatureDeps } from '../core/feature';
import { createRateLimits } from '../core/limiter';
import { configureImageLibrary } from './image-pipeline';
import type { ImageStore } from './image-store';
import { imageStoreFor } from './image-store-for';
import { ImageUploads } from './image-uploads';
import { IMAGE_LIMITS } from './limits';

/**
 * Images: the store they live in (local disk or an S3-compatible bucket, chosen once at start-up),
 * the pipeline every upload goes through (its per-user limit and its queue), and the multipart
 * parsing of an upload. Posts and avatars use it alike.
 */
export interface Images {
  store: ImageStore;
  uploads: ImageUploads;
}

export {
  COPY_WIDTHS,
  IMAGE_INPUT_LIMITS,
  imageMessages,
  type ProcessedAvatar,
  type ProcessedPostImage,
} from './image-pipeline';
export {
  imageContentType,
  imageUrl,
  isImageKey,
  postIdOfImageKey,
  srcsetOf,
  variantKey,
  variantOf,
  type ImageOwner,
  type ImageStore,
} from './image-store';
export type { ImageUploads } from './image-uploads';
export { singleImage, uploadMessages } from './upload';

export function createImages({ config, redis }: FeatureDeps): Images {
  configureImageLibrary();
  const limits = createRateLimits(redis, config.REDIS_PREFIX);
  return {
    store: imageStoreFor(config),
    // Posts and avatars share one queue and one allowance per user.
    uploads: new ImageUploads(
      limits('upload', {
        ...IMAGE_LIMITS.uploadPerUser,
        limit: config.UPLOADS_PER_HOUR ?? IMAGE_LIMITS.uploadPerUser.limit,
      }),
    ),
  };
}
