import { IMAGE_MAX_BYTES } from '@tapgram/shared';
import { readAsDataUrl } from './crop-image';

/** What a person reads when a picked file cannot be their photo. */
export const imageFileMessages = {
  notAnImage: 'Please choose an image file (JPEG, PNG, WebP or GIF).',
  unreadable: 'This image could not be opened: the file may be damaged. Please choose another one.',
  // The server's own words for the same refusal.
  tooLarge: `Image must be ${IMAGE_MAX_BYTES / 1024 / 1024} MB or smaller`,
} as const;

/** A picked file that cannot be used, with the message that says why. */
export class ImageFileError extends Error {
  override readonly name = 'ImageFileError';
}

async function decodes(src: string): Promise<boolean> {
  const image = new Image();
  image.src = src;
  try {
    await image.decode();
    return true;
  } catch {
    return false;
  }
}

/**
 * Reads a picked photo as a data URL once it is known to be an image the browser can draw: of an
 * image type, within the upload limit, and decoding (a damaged file would open as a broken image).
 */
export async function readImageFile(file: File): Promise<string> {
  if (!file.type.startsWith('image/')) throw new ImageFileError(imageFileMessages.notAnImage);
  if (file.size > IMAGE_MAX_BYTES) throw new ImageFileError(imageFileMessages.tooLarge);
  let dataUrl: string;
  try {
    dataUrl = await readAsDataUrl(file);
  } catch {
    throw new ImageFileError(imageFileMessages.unreadable);
  }
  if (!(await decodes(dataUrl))) throw new ImageFileError(imageFileMessages.unreadable);
  return dataUrl;
}

/** The message for a failure of readImageFile: its own, or that the file could not be read. */
export function imageFileProblem(error: unknown): string {
  return error instanceof ImageFileError ? error.message : imageFileMessages.unreadable;
}
