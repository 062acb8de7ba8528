// Accessibility: axe-core finds no violation on any slide (in every view of its figure), on the
// article, the practice bank, the lessons page and the embed page (a figure, and the message for
// an unknown one), in light and dark colour schemes: every rule axe runs by default in the light
// scheme, and its rules on colour in the dark one, the only rules a scheme can change (axe.js).
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { describe, test } from 'node:test';

import { loadLesson } from '../../web/build/content.js';
import { axeFindings } from './axe.js';
import { useSite, waitForSlide } from './browser.js';

const lesson = loadLesson(fileURLToPath(new URL('../../slides', import.meta.url)));

const { visit } = useSite();

/**
 * Runs axe on the page and fails with a readable list of what it found.
 * @param {import('playwright-core').Page} page
 * @param {'light' | 'dark'} colorScheme
 * @param {string} where
 */
async function assertNoViolations(page, colorScheme, where) {
  assert.deepEqual(await axeFindings(page, colorScheme), [], `axe violations on ${where}`);
}

/**
 * Waits until the slide's figure is mounted and says it is no longer loading (the trained
 * model's view loads its weights after it is mounted).
 * @param {import('playwright-core').Page} page
 * @param {string} id
 */
function figureDrawn(page, id) {
  return page.waitForFunction(
    (slideId) => {
      const host = document.querySelector(`#${slideId} .widget-host`);
      return Boolean(
        host?.querySelector('.widget-area') &&
        !host.hasAttribute('aria-busy') &&
        !host.querySelector('[data-state="loading"]'),
      );
    },
    id,
    { timeout: 15_000 },
  );
}

for (const colorScheme of /** @type {const} */ (['light', 'dark'])) {
  describe(`accessibility in the ${colorScheme} colour scheme`, () => {
    for (const slide of lesson.slides) {
      const views = slide.widget ? [slide.widget, ...(slide.widget.also ?? [])] : [null];
      for (const [index, view] of views.entries()) {
        // The first view is the slide's own; the address names any other.
        const shown = index === 0 ? '' : `?figure=${slide.id}&show=${view?.type}`;
        const name = index === 0 ? `slide ${slide.id}` : `slide ${slide.id}, view ${view?.type},`;
        test(`${name} has no axe violation`, async () => {
          await visit(
            `index.html${shown}#/${slide.id}`,
            async (page) => {
              await waitForSlide(page, slide.id);
              // Let the slide's figure, if any, finish loading and drawing.
              if (view) await figureDrawn(page, slide.id);
              await assertNoViolations(
                page,
                colorScheme,
                `#/${slide.id}${view ? ` (${view.type})` : ''}`,
              );
            },
            { colorScheme },
          );
        });
      }
    }

    for (const pageName of [
      'article.html',
      'practice.html',
      'lessons.html',
      'embed.html?figure=title&show=heatmap',
      'embed.html?figure=no-such-figure',
    ]) {
      test(`${pageName} has no axe violation`, async () => {
        await visit(
          pageName,
          async (page) => {
            await page.waitForLoadState('networkidle');
            await assertNoViolations(page, colorScheme, pageName);
          },
          { colorScheme },
        );
      });
    }
  });
}
