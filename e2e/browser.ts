import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  chromium,
  type Browser,
  type BrowserContextOptions,
  type Locator,
  type Page,
} from 'playwright-core';

const CANDIDATES = ['/usr/lib/chromium/chromium', '/usr/bin/chromium'];
const SCREENSHOTS = fileURLToPath(new URL('../test-results/screenshots', import.meta.url));
const DIST = fileURLToPath(new URL('../frontend/dist/', import.meta.url));
const WEB_INDEX = `${DIST}index.html`;

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

/**
 * The features Playwright (playwright-core 1.65) turns off in Chromium. Chromium reads only the
 * last `--disable-features` it is given, so ours repeats them.
 */
const PLAYWRIGHT_DISABLED_FEATURES = [
  'AvoidUnnecessaryBeforeUnloadCheckSync',
  'DestroyProfileOnBrowserClose',
  'HttpsUpgrades',
  'HttpsFirstBalancedModeAutoEnable',
  'LensOverlay',
  'MediaRouter',
  'PaintHolding',
  'ThirdPartyStoragePartitioning',
  'AvoidCorsURLLoaderRestartOnRedirect',
  'TcpPortRandomizationWin',
  'OptimizationHints',
  'NetworkTimeServiceQuerying',
  'AimEnabled',
  'PreconnectToSearch',
];
/**
 * Chromium 156 gives every window of a headless browser its address bar's popup, drawn by two
 * pages of its own (`chrome://omnibox-popup.top-chrome/`), each in a renderer process: three
 * processes for each context a test opens instead of one, and the popup's pages follow every
 * navigation. Without them a context's first page costs about half the CPU (3.3 against 1.7
 * core-seconds for /lolgram on a 2-core machine; see docs/PERFORMANCE.md).
 */
const NO_ADDRESS_BAR_POPUP = ['WebUIOmniboxPopup', 'WebUIOmniboxAimPopup'];

/**
 * A focused field's caret blinks twice a second, and each blink is a new frame: with no GPU, as
 * here, the GPU process draws it in software, about a tenth of a core for each idle page with a
 * focused field (measured on /play's welcome dialog). The suites' pages keep a steady caret, which
 * their screenshots hide anyway.
 */
const STEADY_CARET = `{
  const sheet = new CSSStyleSheet();
  sheet.replaceSync('* { caret-animation: manual !important; }');
  document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
}`;

/** The system Chromium as the suites drive it: each context's pages keep a steady caret. */
export async function launch(executablePath: string): Promise<Browser> {
  if (SCREENSHOTS_WANTED) fs.mkdirSync(SCREENSHOTS, { recursive: true });
  const browser = await launchChromium(executablePath);
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (options) => {
    const context = await newContext(options);
    await context.addInitScript({ content: STEADY_CARET });
    return context;
  };
  return browser;
}

function launchChromium(executablePath: string): Promise<Browser> {
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
      `--disable-features=${[...PLAYWRIGHT_DISABLED_FEATURES, ...NO_ADDRESS_BAR_POPUP].join(',')}`,
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
function screenshotPath(name: string): string {
  return path.join(SCREENSHOTS, `${name}.jpg`);
}

/**
 * Whether the suites keep screenshots of what they check, for a person to look at
 * (`E2E_SCREENSHOTS=1 npm test`, in test-results/screenshots). Nobody looks at them in an ordinary
 * run, where they took about a quarter of the layout suite's CPU.
 */
const SCREENSHOTS_WANTED = Boolean(process.env.E2E_SCREENSHOTS);

/** A screenshot of the page or element as `name`, when screenshots are wanted. */
export async function shoot(
  target: Pick<Page, 'screenshot'> | Pick<Locator, 'screenshot'>,
  name: string,
  options: { fullPage?: boolean } = {},
): Promise<void> {
  if (!SCREENSHOTS_WANTED) return;
  await target.screenshot({ path: screenshotPath(name), ...options });
}

/** The built file of each source the vite manifest knows (entries and lazy chunks), by its path. */
export function chunkOf(source: string): string {
  const manifest = JSON.parse(fs.readFileSync(`${DIST}.vite/manifest.json`, 'utf8')) as Record<
    string,
    { file: string }
  >;
  const chunk = manifest[source];
  if (!chunk) throw new Error(`The manifest has no chunk for ${source}: run npm run build`);
  return `/${chunk.file}`;
}
