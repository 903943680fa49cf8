/**
 * Images: the store they live in (local disk or an S3-compatible bucket, chosen once at start-up),
 * the pipeline every upload goes through, and the multipart parsing of an upload. Posts and
 * avatars use it alike.
 */
export { COPY_WIDTHS, MAX_INPUT_PIXELS, processImage, type ProcessedImage } from './image-pipeline';
export {
  imageContentType,
  imageUrl,
  isImageKey,
  postIdOfImageKey,
  srcsetOf,
  variantKey,
  variantOf,
  type ImageStore,
} from './image-store';
export { imageStoreFor } from './image-store-for';
export { singleImage, uploadMessages } from './upload';
