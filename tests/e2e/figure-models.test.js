// End-to-end tests of the line that names the model a figure's view shows, in the words of
// its lesson.yaml's `models`: in the deck it sits in the slide's header, on every slide in
// every view of its figure, its name shown whole and clear of the course code and the view choice
// at 1280 x 720, and it follows the view chosen; the article and the embed page show it above the
// figure and follow the view too. Unit tests: tests/js/figure-models.test.js.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { loadLesson } from '../../web/build/content.js';
import { moveToSlide, slideViews, useSite } from './browser.js';

const TIMEOUT = 15_000;
const { slides } = loadLesson(fileURLToPath(new URL('../../slides/attention/', import.meta.url)));
const site = useSite();

/**
 * The model of a view of a slide's figure, as the lesson data gives it.
 * @param {string} id the slide
 * @param {string | null} type the view (null: the first)
 * @returns {{ key: string, name: string, trained: boolean, what: string } | undefined}
 */
function modelOf(id, type) {
  const widget = slides.find((slide) => slide.id === id)?.widget;
  if (!widget) return undefined;
  return type ? widget.also?.find((view) => view.type === type)?.model : widget.model;
}

/**
 * The line the pages must show for a model.
 * @param {{ name: string, trained: boolean, what: string }} model
 */
function lineFor(model) {
  return `${model.trained ? 'Model' : 'Untrained'}: ${model.name} \u2014 ${model.what}`;
}

/**
 * The text of the model line in `scope`, once it names `model`.
 * @param {import('playwright-core').Page | import('playwright-core').Frame} page
 * @param {string} scope a selector
 * @param {{ name: string, trained: boolean, what: string }} model
 */
async function waitForLine(page, scope, model) {
  const line = page.locator(`${scope} .figure-model`);
  await line.filter({ hasText: lineFor(model) }).waitFor({ timeout: TIMEOUT });
  return line.textContent();
}

describe('the deck', () => {
  test('every view of every figure names its model in the slide’s header, the name whole', async () => {
    await site.visit(
      'index.html#/title',
      async (page) => {
        for (const [id, view] of slideViews(slides)) {
          await moveToSlide(page, id, view);
          const where = view ? `${id} (${view})` : id;
          const seen = await page.evaluate((slideId) => {
            const section = /** @type {HTMLElement} */ (document.getElementById(slideId));
            const line = section.querySelector('.slide-chrome > .figure-model');
            if (!line) return null;
            const box = (/** @type {Element | null} */ node) =>
              node ? node.getBoundingClientRect().toJSON() : null;
            const name = /** @type {HTMLElement} */ (line.querySelector('.figure-model-name'));
            return {
              text: line.textContent,
              shown: line.checkVisibility(),
              name: box(name),
              cut: name.scrollWidth - name.clientWidth,
              code: box(section.querySelector('.slide-code')),
              end: box(section.querySelector('.slide-chrome-end')),
            };
          }, id);
          const model = modelOf(id, view);
          if (!model) {
            assert.equal(seen, null, `${where} shows no model and has no line`);
            continue;
          }
          assert.ok(seen, `${where} has a model line`);
          assert.equal(seen.text, lineFor(model), where);
          assert.ok(seen.shown, `${where}: the line is shown`);
          assert.ok(seen.cut <= 0, `${where}: the name is cut by ${seen.cut}px`);
          assert.ok(seen.name.left >= seen.code.right, `${where}: the name clears the course code`);
          assert.ok(seen.name.right <= seen.end.left, `${where}: the name clears the view choice`);
        }
      },
      { viewport: { width: 1280, height: 720 } },
    );
  });
});

describe('the article and the embed page', () => {
  test('the article names the model above each figure, and follows the view chosen', async () => {
    await site.visit('article.html', async (page) => {
      const first = /** @type {NonNullable<ReturnType<typeof modelOf>>} */ (
        modelOf('bottleneck', null)
      );
      const trained = /** @type {NonNullable<ReturnType<typeof modelOf>>} */ (
        modelOf('bottleneck', 'training')
      );
      assert.equal(await waitForLine(page, '#bottleneck', first), lineFor(first));
      const next = await page
        .locator('#bottleneck .figure-model')
        .evaluate((line) => line.nextElementSibling?.className ?? '');
      assert.match(next, /\bwidget-host\b/, 'the line stands right above the figure');
      await page.locator('#bottleneck .figure-views input[value="training"]').check();
      assert.equal(await waitForLine(page, '#bottleneck', trained), lineFor(trained));
      for (const slide of slides.filter((s) => s.widget && s.widget.type !== 'knowledge-check')) {
        const model = /** @type {NonNullable<ReturnType<typeof modelOf>>} */ (
          modelOf(slide.id, null)
        );
        if (slide.id === 'bottleneck') continue;
        assert.equal(
          await page.locator(`#${slide.id} .figure-model`).textContent(),
          lineFor(model),
          slide.id,
        );
      }
    });
  });

  test('the embed page names the model of the view it shows, and follows the view chosen', async () => {
    await site.visit('embed.html?figure=bottleneck&show=training', async (page) => {
      const trained = /** @type {NonNullable<ReturnType<typeof modelOf>>} */ (
        modelOf('bottleneck', 'training')
      );
      const first = /** @type {NonNullable<ReturnType<typeof modelOf>>} */ (
        modelOf('bottleneck', null)
      );
      assert.equal(await waitForLine(page, '.embed-bar', trained), lineFor(trained));
      await page.locator('.figure-views input[value="translation"]').check();
      assert.equal(await waitForLine(page, '.embed-bar', first), lineFor(first));
    });
  });
});
