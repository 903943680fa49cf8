import fs from 'node:fs';
import { createRequire } from 'node:module';
import type { AxeResults, RunOptions } from 'axe-core';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';

/** axe-core's minified build, read once: what each checked document is given. */
const AXE_SOURCE = fs.readFileSync(
  createRequire(import.meta.url).resolve('axe-core/axe.min.js'),
  'utf8',
);

/**
 * axe-core's whole rule set (WCAG A and AA, and its best practices) finds nothing. Every rule runs;
 * only the violations are detailed (what passed is not listed node by node), and only they come
 * back from the page.
 *
 * axe is given to a document once, however many of its states are checked, and runs in the page
 * itself: the pages have no frames to check apart. Axe's own Playwright binding gave the page its
 * unminified source (1.3 MB, parsed and compiled each time) twice at every check and sent back
 * every result: on /lolgram at 360 px a check cost 0.63 core-seconds of the browser's CPU, against
 * 0.31 for a document's first check here and 0.16 for each after it (docs/PERFORMANCE.md).
 */
export async function expectNoViolations(page: Page, what: string) {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE);
  const found = await page.evaluate(async () => {
    type Axe = { run(context: Document, options: RunOptions): Promise<AxeResults> };
    const { axe } = window as unknown as { axe: Axe };
    const { violations } = await axe.run(document, { resultTypes: ['violations'] });
    return violations.map(
      (v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`,
    );
  });
  expect(found, what).toEqual([]);
}
