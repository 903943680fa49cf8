import AxeBuilder from '@axe-core/playwright';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';

/**
 * axe-core's whole rule set (WCAG A and AA, and its best practices) finds nothing. Every rule runs;
 * only the violations are detailed (what passed is not listed node by node), which takes about a
 * third less of the page's and the test's time. It runs in the page itself ("legacy" mode): the
 * default opens a blank page for every check to merge the results of cross-origin frames, which
 * these pages do not have, and that cost a fifth of the accessibility suite's time.
 */
export async function expectNoViolations(page: Page, what: string) {
  const { violations } = await new AxeBuilder({ page })
    .setLegacyMode()
    .options({ resultTypes: ['violations'] })
    .analyze();
  const found = violations.map(
    (v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`,
  );
  expect(found, what).toEqual([]);
}
