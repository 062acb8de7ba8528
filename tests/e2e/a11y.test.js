// Accessibility: axe-core finds no violation on any slide of any lesson (in every view of its
// figure), on each lesson's article, the practice bank, the lessons page and the embed page (a figure, and the message for
// an unknown one), in light and dark colour schemes: every rule axe runs by default in the light
// scheme, and its rules on colour in the dark one, the only rules a scheme can change (axe.js).
// The slides are checked in one page per lesson and scheme, moved from slide to slide and view to view as a
// learner would (browser.js: moveToSlide); that each slide opens by its address is held by
// deck.test.js, and that each view does by the view's own test file.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { axeFindings } from './axe.js';
import { moveToSlide, slideViews, useSite } from './browser.js';
import { LESSONS, lessonPath } from './lessons-walk.js';

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

for (const colorScheme of /** @type {const} */ (['light', 'dark'])) {
  describe(`accessibility in the ${colorScheme} colour scheme`, () => {
    test('every slide of every lesson, in every view of its figure, has no axe violation', async () => {
      /** @type {Record<string, string[]>} */
      const found = {};
      for (const lesson of LESSONS) {
        await visit(
          lessonPath(lesson, 'index.html', `#/${lesson.slides[0].id}`),
          async (page) => {
            for (const [id, view] of slideViews(lesson.slides)) {
              await moveToSlide(page, id, view);
              const findings = await axeFindings(page, colorScheme);
              const where = `${lesson.lesson.key}: #/${id}${view ? ` (${view})` : ''}`;
              if (findings.length > 0) found[where] = findings;
            }
          },
          { colorScheme },
        );
      }
      assert.deepEqual(found, {}, 'axe violations');
    });

    for (const pageName of [
      ...LESSONS.map((lesson) => lessonPath(lesson, 'article.html')),
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
