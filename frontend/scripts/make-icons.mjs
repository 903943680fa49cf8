// Makes the app's icons (public/icons/) from the character the game shows:
// `node frontend/scripts/make-icons.mjs`. Run it again when the character changes; the PNGs are
// committed, so a build needs no image tools.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';

const here = path.dirname(fileURLToPath(import.meta.url));
const character = fs.readFileSync(path.join(here, '../src/features/game/assets/character.svg'));
const out = path.join(here, '../public/icons');
/** The app's background (the manifest's background_color and theme_color). */
const BACKGROUND = '#020617';

/**
 * The character, `share` of the side wide, centred on the app's background. A maskable icon keeps
 * it within the middle 80 % (the safe zone every launcher's mask leaves whole) with room to spare.
 */
async function icon(size, share, file) {
  const inner = Math.round(size * share);
  const drawn = await sharp(character, { density: 72 * (inner / 200) * 2 })
    .resize(inner, inner)
    .png()
    .toBuffer();
  await sharp({ create: { width: size, height: size, channels: 4, background: BACKGROUND } })
    .composite([{ input: drawn, gravity: 'centre' }])
    .png({ compressionLevel: 9 })
    .toFile(path.join(out, file));
  console.log(`${file}: ${size}x${size}`);
}

fs.mkdirSync(out, { recursive: true });
await icon(192, 0.86, 'icon-192.png');
await icon(512, 0.86, 'icon-512.png');
await icon(512, 0.62, 'icon-maskable-512.png');
await icon(180, 0.8, 'apple-touch-icon.png');
