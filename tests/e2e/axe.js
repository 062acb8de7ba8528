// axe-core on a page of the end-to-end tests, in one colour scheme. In the light scheme axe runs
// every rule it runs by default. In the dark scheme it runs only the rules on colour: the dark
// scheme sets colours and nothing else (tests/js/colour-scheme.test.js holds the stylesheets and
// scripts to that), so every other rule sees the same page in either scheme, and a test that
// checks a state in the dark scheme checks the same state in the light one as well.
import { createRequire } from 'node:module';
import { AxeBuilder } from '@axe-core/playwright';

const require = createRequire(import.meta.url);
const axe = require('axe-core');

/**
 * The rules of axe's colour category that it runs by default (color-contrast and
 * link-in-text-block; not the AAA color-contrast-enhanced, which the light scheme skips too).
 * @type {string[]}
 */
export const COLOUR_RULES = axe._audit.rules
  .filter((/** @type {any} */ rule) => rule.tags.includes('cat.color') && rule.enabled !== false)
  .map((/** @type {any} */ rule) => rule.id);

if (COLOUR_RULES.length === 0) throw new Error('axe-core has no colour rule that it runs');

/**
 * Runs axe on the page (or on the part `include` selects) and returns what it found, one line per
 * violation: the rule, its help text and the elements. Checks first that the page is in the
 * colour scheme the caller names.
 * @param {import('playwright-core').Page} page
 * @param {'light' | 'dark'} colorScheme the page's colour scheme (openPage's option)
 * @param {string} [include] a selector; the whole page when not given
 * @returns {Promise<string[]>}
 */
export async function axeFindings(page, colorScheme, include) {
  const dark = await page.evaluate(() => matchMedia('(prefers-color-scheme: dark)').matches);
  if (dark !== (colorScheme === 'dark')) {
    throw new Error(`the page is not in the ${colorScheme} colour scheme`);
  }
  if (page.frames().length !== 1) {
    throw new Error('the page has frames: axe in legacy mode would not look inside them');
  }
  // Legacy mode runs axe.run in the page itself, where the default mode also opens a blank page
  // to merge each frame's partial results: the lesson's pages have no frames, so both check the
  // same elements. Only violations are asked for in full: passes and incomplete results list one
  // element each instead of every element checked, which spares serialising every element the
  // rules looked at (bench/reports/test-times.md measures both).
  let builder = new AxeBuilder({ page })
    .setLegacyMode(true)
    .options({ resultTypes: ['violations'] });
  if (include) builder = builder.include(include);
  if (colorScheme === 'dark') builder = builder.withRules(COLOUR_RULES);
  const { violations } = await builder.analyze();
  return violations.map(
    (v) =>
      `${v.id} (${v.impact}): ${v.help} at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`,
  );
}
