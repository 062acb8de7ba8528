// Accessibility: axe-core finds no violation on any slide, on the article, the practice bank and
// the lessons page, in light and dark colour schemes.
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { AxeBuilder } from '@axe-core/playwright';

import { loadLesson } from '../../web/build/content.js';
import { assertClean, buildAndServe, launchBrowser, openPage, waitForSlide } from './browser.js';

const lesson = loadLesson(fileURLToPath(new URL('../../slides', import.meta.url)));

/** @type {{ url: string, close: () => Promise<void> }} */
let server;
/** @type {import('playwright-core').Browser} */
let browser;

before(async () => {
  server = await buildAndServe();
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await server?.close();
});

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
        const { page, log, close } = await openPage(browser, { colorScheme });
        try {
          await page.goto(`${server.url}index.html#/${slide.id}`);
          await waitForSlide(page, slide.id);
          // Let the slide's figure, if any, finish drawing.
          if (slide.widget) {
            await page.locator(`#${slide.id} .widget-area`).first().waitFor({ timeout: 15_000 });
          }
          await assertNoViolations(page, `#/${slide.id}`);
          assertClean(log, new URL(server.url).origin);
        } finally {
          await close();
        }
      });
    }

    for (const pageName of ['article.html', 'practice.html', 'lessons.html']) {
      test(`${pageName} has no axe violation`, async () => {
        const { page, log, close } = await openPage(browser, { colorScheme });
        try {
          await page.goto(`${server.url}${pageName}`);
          await page.waitForLoadState('networkidle');
          await assertNoViolations(page, pageName);
          assertClean(log, new URL(server.url).origin);
        } finally {
          await close();
        }
      });
    }
  });
}
