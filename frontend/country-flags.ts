import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Plugin } from 'vite';

const FLAG_FILE = /^[A-Z]{2}\.svg$/;

/**
 * Country flags as images (country-flag-icons' 3:2 SVGs), because flag emoji show as letters on
 * Windows and as boxes where no emoji font is installed. The files are copied into the build as
 * they are, one small image a flag shown, and no flag costs JavaScript. Their folder is named by a
 * hash of the set, so they are cached for good like the other hashed assets. `__FLAGS_URL__` is
 * that folder's URL.
 */
export function countryFlags(): Plugin {
  const packageDir = path.dirname(createRequire(import.meta.url).resolve('country-flag-icons'));
  const dir = path.join(packageDir, '3x2');
  const files = fs
    .readdirSync(dir)
    .filter((name) => FLAG_FILE.test(name))
    .sort();
  const hash = createHash('sha256');
  for (const name of files) hash.update(name).update(fs.readFileSync(path.join(dir, name)));
  const folder = `assets/flags-${hash.digest('hex').slice(0, 8)}`;

  return {
    name: 'tapgram-country-flags',
    config: () => ({ define: { __FLAGS_URL__: JSON.stringify(`/${folder}/`) } }),
    configureServer(server) {
      server.middlewares.use(`/${folder}`, (req, res, next) => {
        const name = (req.url ?? '').slice(1).split('?')[0];
        if (!files.includes(name)) return next();
        res.setHeader('Content-Type', 'image/svg+xml');
        res.end(fs.readFileSync(path.join(dir, name)));
      });
    },
    generateBundle() {
      for (const name of files) {
        this.emitFile({
          type: 'asset',
          fileName: `${folder}/${name}`,
          source: fs.readFileSync(path.join(dir, name)),
        });
      }
    },
  };
}
