import sharp, { type Metadata } from 'sharp';
import { HttpError } from '../../core/errors';

/** Above this many pixels an image is refused before it is decoded (decompression bombs). */
export const MAX_INPUT_PIXELS = 40_000_000;
const ACCEPTED = new Set(['jpeg', 'png', 'webp', 'gif']);
const FULL_SIZE = 1080;
const THUMB_SIZE = 320;

export interface ProcessedImage {
  full: Buffer;
  thumbnail: Buffer;
}

/**
 * Checks an upload by its content, then re-encodes it: auto-rotated, metadata (EXIF, GPS) dropped,
 * a full size and a square grid thumbnail. Avatars are square at both sizes.
 */
export async function processImage(
  input: Buffer,
  options: { square: boolean },
): Promise<ProcessedImage> {
  let metadata: Metadata;
  try {
    // Reading the header decodes no pixels.
    metadata = await sharp(input, { limitInputPixels: false }).metadata();
  } catch {
    throw new HttpError(415, 'Unsupported image: use a JPEG, PNG, WebP or GIF');
  }
  if (!metadata.format || !ACCEPTED.has(metadata.format)) {
    throw new HttpError(415, 'Unsupported image: use a JPEG, PNG, WebP or GIF');
  }
  if ((metadata.width ?? 0) * (metadata.height ?? 0) > MAX_INPUT_PIXELS) {
    throw new HttpError(413, 'Image has too many pixels');
  }
  // A square never grows: its side is the shorter edge, at most the full size.
  const side = Math.min(FULL_SIZE, metadata.width ?? FULL_SIZE, metadata.height ?? FULL_SIZE);
  try {
    const source = sharp(input, { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error' }).rotate();
    const [full, thumbnail] = await Promise.all([
      source
        .clone()
        .resize(
          options.square
            ? { width: side, height: side, fit: 'cover' }
            : { width: FULL_SIZE, height: FULL_SIZE, fit: 'inside', withoutEnlargement: true },
        )
        .jpeg({ quality: 85, mozjpeg: true })
        .toBuffer(),
      source
        .clone()
        .resize(THUMB_SIZE, THUMB_SIZE, { fit: 'cover' })
        .jpeg({ quality: 80 })
        .toBuffer(),
    ]);
    return { full, thumbnail };
  } catch {
    throw new HttpError(415, 'The image could not be read');
  }
}
