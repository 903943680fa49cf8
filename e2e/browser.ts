import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContextOptions } from 'playwright-core';

const CANDIDATES = ['/usr/lib/chromium/chromium', '/usr/bin/chromium'];
export const SCREENSHOTS = fileURLToPath(new URL('../test-results/screenshots', import.meta.url));
const WEB_INDEX = fileURLToPath(new URL('../frontend/dist/index.html', import.meta.url));

/**
 * The system Chromium (Debian's package), never a downloaded one. Without it the browser suites
 * are left out with a loud notice, except in CI, where that fails the run.
 */
export function chromiumPath(): string | null {
  const found = CANDIDATES.find((candidate) => fs.existsSync(candidate)) ?? null;
  if (!fs.existsSync(WEB_INDEX)) {
    throw new Error('The frontend is not built: run `npm run build` (npm test does it first).');
  }
  if (found) return found;
  const message =
    'Chromium is not installed (apt-get install -y chromium): the browser suites do not run.';
  if (process.env.CI) throw new Error(message);
  console.warn(`\n*** ${message} ***\n`);
  return null;
}

export async function launch(executablePath: string): Promise<Browser> {
  fs.mkdirSync(SCREENSHOTS, { recursive: true });
  return chromium.launch({
    executablePath,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/**
 * For a context that tests something other than the service worker: the app's worker would
 * download the whole precache beside each test and answer pages from it (page.route does not see
 * what a worker fetches). The suite that tests the worker allows it where it needs it.
 */
export const WITHOUT_SERVICE_WORKER: BrowserContextOptions = { serviceWorkers: 'block' };

/**
 * Where a screenshot goes: a JPEG, which Playwright infers from the name. Encoding a full page as
 * PNG took about a tenth of the layout suite's CPU; a JPEG shows a layout as well, for less.
 */
export function screenshotPath(name: string): string {
  return path.join(SCREENSHOTS, `${name}.jpg`);
}
