import { centerCrop, makeAspectCrop, type PercentCrop, type PixelCrop } from 'react-image-crop';
import {
  CROP_INITIAL_PERCENT,
  CROP_JPEG_QUALITY,
  CROP_OUTPUT_SIZE,
} from '../../../lib/ui-constants';

/** A centred square covering 90% of the image's shorter side. */
export function initialCrop(width: number, height: number): PercentCrop {
  const side = width >= height ? { height: CROP_INITIAL_PERCENT } : { width: CROP_INITIAL_PERCENT };
  return centerCrop(makeAspectCrop({ unit: '%', ...side }, 1, width, height), width, height);
}

/** Draws the crop (in displayed pixels) at 800x800 and returns it as a JPEG data URL. */
export function cropToDataUrl(image: HTMLImageElement, crop: PixelCrop | null): string {
  if (!crop || crop.width <= 0 || crop.height <= 0) throw new Error('No crop area selected');
  const scaleX = image.naturalWidth / image.width;
  const scaleY = image.naturalHeight / image.height;
  const canvas = document.createElement('canvas');
  canvas.width = CROP_OUTPUT_SIZE;
  canvas.height = CROP_OUTPUT_SIZE;
  const context = canvas.getContext('2d');
  if (!context) throw new Error('Image cropping is not supported in this browser');
  context.imageSmoothingQuality = 'high';
  context.drawImage(
    image,
    crop.x * scaleX,
    crop.y * scaleY,
    crop.width * scaleX,
    crop.height * scaleY,
    0,
    0,
    CROP_OUTPUT_SIZE,
    CROP_OUTPUT_SIZE,
  );
  return canvas.toDataURL('image/jpeg', CROP_JPEG_QUALITY);
}

export function dataUrlToBlob(dataUrl: string): Blob {
  const match = /^data:([^;,]+)(;base64)?,(.*)$/s.exec(dataUrl);
  if (!match) throw new Error('Not a data URL');
  const [, type, base64, payload] = match;
  const text = base64 ? atob(payload) : decodeURIComponent(payload);
  const bytes = Uint8Array.from(text, (char) => char.charCodeAt(0));
  return new Blob([bytes], { type });
}

export function readAsDataUrl(file: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error ?? new Error('Could not read the file'));
    reader.readAsDataURL(file);
  });
}
