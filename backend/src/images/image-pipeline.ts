import sharp, { type Metadata, type Sharp } from 'sharp';
import { HttpError } from '../core/errors';

/** Above this many pixels an image is refused before it is decoded (decompression bombs). */
export const MAX_INPUT_PIXELS = 40_000_000;
const ACCEPTED = new Set(['jpeg', 'png', 'webp', 'gif']);
const FULL_SIZE = 1080;
const THUMB_SIZE = 320;
/**
 * The widths of the WebP copies made at upload, which the screens pick from (srcset) by the size
 * they show an image at: a post's image in the feed (full width of a phone or a 512 px column),
 * its square tile in a 3-column grid, an avatar (24 to 96 px).
 */
export const COPY_WIDTHS = {
  image: [320, 640, 1080],
  tile: [320, 640],
  avatar: [96, 192, 384],
} as const;

/** A WebP copy of an image, `width` pixels wide. */
export interface ImageCopy {
  width: number;
  bytes: Buffer;
}

export interface ProcessedImage {
  full: Buffer;
  thumbnail: Buffer;
  /** WebP copies of the full image (of an avatar: of the square). */
  copies: ImageCopy[];
  /** WebP copies of the square thumbnail; none for avatars, whose full image is square. */
  thumbnailCopies: ImageCopy[];
}

/**
 * Copies at each width, never larger than the source: a width the source cannot fill is made once,
 * at the source's own size, and named by the width it has. `squareSide`: square copies, cut from
 * the middle of a source whose shorter edge is that long.
 */
async function copies(
  source: Sharp,
  widths: readonly number[],
  squareSide?: number,
): Promise<ImageCopy[]> {
  const made = await Promise.all(
    widths.map((width) => {
      const side = Math.min(width, squareSide ?? width);
      return source
        .clone()
        .resize(
          squareSide === undefined
            ? { width, height: width, fit: 'inside', withoutEnlargement: true }
            : { width: side, height: side, fit: 'cover' },
        )
        .webp({ quality: 78 })
        .toBuffer({ resolveWithObject: true });
    }),
  );
  const byWidth = new Map<number, Buffer>();
  for (const { data, info } of made) if (!byWidth.has(info.width)) byWidth.set(info.width, data);
  return [...byWidth].map(([width, bytes]) => ({ width, bytes }));
}

/**
 * Checks an upload by its content, then re-encodes it: auto-rotated, metadata (EXIF, GPS) dropped,
 * a full size and a square grid thumbnail, and their WebP copies by width. Avatars are square.
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
  const shorterEdge = Math.min(metadata.width ?? FULL_SIZE, metadata.height ?? FULL_SIZE);
  const side = Math.min(FULL_SIZE, shorterEdge);
  try {
    const source = sharp(input, { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error' }).rotate();
    const [full, thumbnail, fullCopies, thumbnailCopies] = await Promise.all([
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
      options.square
        ? copies(source, COPY_WIDTHS.avatar, shorterEdge)
        : copies(source, COPY_WIDTHS.image),
      options.square ? [] : copies(source, COPY_WIDTHS.tile, shorterEdge),
    ]);
    return { full, thumbnail, copies: fullCopies, thumbnailCopies };
  } catch {
    throw new HttpError(415, 'The image could not be read');
  }
}
