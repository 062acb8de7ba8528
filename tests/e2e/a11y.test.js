// Accessibility: axe-core finds no violation on any slide, on the article, the practice bank and
// the lessons page, in light and dark colour schemes.
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { describe, test } from 'node:test';
import { AxeBuilder } from '@axe-core/playwright';

import { loadLesson } from '../../web/build/content.js';
import { useSite, waitForSlide } from './browser.js';

const lesson = loadLesson(fileURLToPath(new URL('../../slides', import.meta.url)));

const { visit } = useSite();

/**
 * Runs axe on the page and fails with a readable list of what it found.
 * @param {import('playwright-core').Page} page
 * @param {string} where
 */
async function assertNoViolations(page, where) {
  const { violations } = await new AxeBuilder({ page }).analyze();
  const found = violations.map(
    (v) =>
      `${v.id} (${v.impact}): ${v.help} at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`,
  );
  assert.deepEqual(found, [], `axe violations on ${where}`);
}

for (const colorScheme of /** @type {const} */ (['light', 'dark'])) {
  describe(`accessibility in the ${colorScheme} colour scheme`, () => {
    for (const slide of lesson.slides) {
      test(`slide ${slide.id} has no axe violation`, async () => {
        await visit(
          `index.html#/${slide.id}`,
          async (page) => {
            await waitForSlide(page, slide.id);
            // Let the slide's figure, if any, finish drawing.
            if (slide.widget) {
              await page.locator(`#${slide.id} .widget-area`).first().waitFor({ timeout: 15_000 });
            }
            await assertNoViolations(page, `#/${slide.id}`);
          },
          { colorScheme },
        );
      });
    }

    for (const pageName of ['article.html', 'practice.html', 'lessons.html']) {
      test(`${pageName} has no axe violation`, async () => {
        await visit(
          pageName,
          async (page) => {
            await page.waitForLoadState('networkidle');
            await assertNoViolations(page, pageName);
          },
          { colorScheme },
        );
      });
    }
  });
}
