// Installs the locked dependencies when they are missing or older than the lockfile, so that
// `npm start` and `npm test` work on a fresh clone with nothing but Node.
import { execSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';

const marker = 'node_modules/.package-lock.json';
const stale =
  !existsSync(marker) || statSync(marker).mtimeMs < statSync('package-lock.json').mtimeMs;
if (stale) {
  console.log('Installing dependencies (npm ci)...');
  execSync('npm ci --no-audit --no-fund --loglevel=error', { stdio: 'inherit' });
}
