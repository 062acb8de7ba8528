// End-to-end tests of the slide deck: every slide by address and by keyboard, the running header
// and counter, typeset math, keys inside a widget, widget state across visits, the loading line.
// A production build served on 127.0.0.1, driven in a headless browser.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { loadLesson } from '../../web/build/content.js';
import {
  assertClean,
  currentSlide,
  openPage,
  openTables,
  readLabels,
  useSite,
  waitForSlide,
} from './browser.js';

const TIMEOUT = 15_000;
const { lesson, slides } = loadLesson(
  fileURLToPath(new URL('../../slides/attention/', import.meta.url)),
);
const ids = slides.map((slide) => slide.id);
const total = String(slides.length).padStart(2, '0');
const HEADER = `${lesson.course} · ${lesson.code}`;

const site = useSite();

/**
 * Opens the deck at `hash`, waits until it is ready, runs `body`, then checks the page stayed
 * clean.
 * @param {string} hash e.g. '#/title'
 * @param {(page: import('playwright-core').Page) => Promise<void>} body
 * @param {import('./browser.js').PageOptions} [options] passed to openPage
 */
function withDeck(hash, body, options) {
  return site.visit(
    `index.html${hash}`,
    async (page) => {
      await page.locator('.reveal.ready').waitFor({ timeout: TIMEOUT });
      await body(page);
    },
    options,
  );
}

/**
 * Checks the slide on show: its id, the running header, the counter and the article link.
 * @param {import('playwright-core').Page} page
 * @param {number} index
 */
async function expectSlide(page, index) {
  const id = ids[index];
  await waitForSlide(page, id);
  const slide = page.locator(`section#${id}`);
  const chrome = slide.locator('.slide-chrome');
  assert.equal(await chrome.isVisible(), true, `${id}: the header shows`);
  assert.equal(await chrome.locator('.slide-code').innerText(), HEADER);
  const counter = `${String(index + 1).padStart(2, '0')} / ${total}`;
  assert.equal(await chrome.locator('.slide-counter').innerText(), counter);
  const article = chrome.getByRole('link', { name: 'Read article' });
  assert.equal(await article.isVisible(), true, `${id}: Read article shows`);
  assert.equal(await article.getAttribute('href'), `article.html?from=${id}#${id}`);
}

/**
 * The title slide with its heatmap shown (the figure's Untrained view): the address names it,
 * as a link to it would.
 */
const TITLE_HEATMAP = '?figure=title&show=heatmap#/title';

/** The title slide's heatmap is drawn. */
const heatmapReady = (page) =>
  page.locator('#title .hm-figure svg.heatmap-svg').waitFor({ timeout: TIMEOUT });

describe('the deck', () => {
  test('every slide opens by its address and shows the header and counter', async () => {
    await withDeck('#/title', async (page) => {
      for (const [index, id] of ids.entries()) {
        await page.goto(`${site.url()}index.html#/${id}`);
        await expectSlide(page, index);
      }
    });
  });

  test('a link to a slide lands even when a write of the address runs before its event', async () => {
    await withDeck('#/title', async (page) => {
      await expectSlide(page, 0);
      const target = ids.at(-2);
      // A write of the address that is due when the link changes the hash (reveal's of the slide
      // shown, or the figure's settings) runs before the link's hashchange event in Chromium.
      const seen = await page.evaluate((id) => {
        const written = `${location.pathname}${location.search}#/title`;
        setTimeout(() => history.replaceState(history.state, '', written), 0);
        location.hash = `#/${id}`;
        return new Promise((resolve) => {
          addEventListener('hashchange', () => resolve(location.hash), { once: true });
        });
      }, target);
      assert.equal(seen, `#/${target}`, "the link's hash is back before reveal reads it");
      await expectSlide(page, ids.indexOf(target));
    });
  });

  test('the arrow keys walk through every slide, End and Home jump to the ends', async () => {
    await withDeck('#/title', async (page) => {
      await expectSlide(page, 0);
      for (let index = 1; index < ids.length; index += 1) {
        await page.keyboard.press('ArrowRight');
        await expectSlide(page, index);
      }
      await page.waitForFunction((id) => location.hash === `#/${id}`, ids.at(-1));
      await page.keyboard.press('Home');
      await expectSlide(page, 0);
      await page.keyboard.press('End');
      await expectSlide(page, ids.length - 1);
      await page.keyboard.press('ArrowLeft');
      await expectSlide(page, ids.length - 2);
      await page.keyboard.press('Space');
      await expectSlide(page, ids.length - 1);
    });
  });

  test('formulas are typeset on every slide that has one', async () => {
    const withMath = slides.filter((slide) => slide.html.includes('class="katex'));
    assert.ok(withMath.length >= 3, 'the lesson has formula slides');
    assert.ok(withMath.some((slide) => slide.id === 'scaled-dot-product'));
    await withDeck('#/title', async (page) => {
      for (const slide of withMath) {
        const count = await page.locator(`section#${slide.id} .slide-body .katex`).count();
        assert.ok(count > 0, `${slide.id} has typeset math`);
      }
      assert.equal(await page.locator('.slide-body .katex-error').count(), 0);
    });
  });

  test('a swipe moves the slides, but not one that starts inside a figure', async () => {
    await withDeck('#/bottleneck', async (page) => {
      // A touch swipe from right to left; returns the slide on show right after its pointerup.
      // dispatchEvent runs the deck's swipe handler before it returns, and a handler that moves
      // the deck moves it then (the first swipe below checks that), so what this returns is what
      // the handler decided, with no time for anything else to happen.
      const swipe = (/** @type {string} */ selector) =>
        page.locator(selector).evaluate((target) => {
          const at = (/** @type {string} */ type, /** @type {number} */ x) =>
            target.dispatchEvent(
              new PointerEvent(type, {
                pointerType: 'touch',
                pointerId: 7,
                clientX: x,
                clientY: 300,
                bubbles: true,
              }),
            );
          at('pointerdown', 700);
          at('pointermove', 600);
          at('pointermove', 400);
          at('pointerup', 400);
          return document.querySelector('.reveal .slides > section.present')?.id;
        });
      assert.equal(await swipe('section#bottleneck .slide-main'), ids[2], 'moved by the swipe');
      await page.goto(`${site.url()}index.html${TITLE_HEATMAP}`);
      await heatmapReady(page);
      assert.equal(await swipe('#title .hm-figure'), 'title', 'not moved by a swipe in a figure');
      // Handled in order, a swipe outside the figure then moves one slide, to the second: the
      // third, had the swipe in the figure moved the deck too.
      assert.equal(await swipe('#title .slide-main'), ids[1]);
      await waitForSlide(page, ids[1]);
    });
  });

  test('Escape (or O) opens the overview and closes it again', async () => {
    await withDeck('#/why-scale', async (page) => {
      await page.keyboard.press('Escape');
      await page.locator('.reveal.overview').waitFor({ timeout: TIMEOUT });
      const index = ids.indexOf('why-scale');
      for (const neighbour of [ids[index - 1], ids[index + 1]]) {
        assert.equal(
          await page.locator(`section#${neighbour} .slide-heading`).isVisible(),
          true,
          `${neighbour} shows in the overview`,
        );
      }
      await page.keyboard.press('Escape');
      await page.locator('.reveal:not(.overview)').waitFor({ timeout: TIMEOUT });
      await page.keyboard.press('o');
      await page.locator('.reveal.overview').waitFor({ timeout: TIMEOUT });
      await page.keyboard.press('o');
      await page.locator('.reveal:not(.overview)').waitFor({ timeout: TIMEOUT });
      assert.equal(await currentSlide(page), 'why-scale');
    });
  });
});

describe('figures on the slides', () => {
  test('typing in the sentence box redraws the figure and never moves the slide', async () => {
    await withDeck(TITLE_HEATMAP, async (page) => {
      await heatmapReady(page);
      const box = page.locator('#title').getByRole('textbox', { name: /Sentence/ });
      await box.fill('');
      // N, P, H, L, J, K, space and the arrows all move slides outside an input.
      await box.pressSequentially('plan the next hop, jk');
      await page.keyboard.press('ArrowLeft');
      await page.keyboard.press('ArrowRight');
      await page.keyboard.press('End');
      assert.equal(await currentSlide(page), 'title');
      await openTables(page, '#title .hm-figure details.heatmap-details');
      await page.waitForFunction(
        () => document.querySelectorAll('#title .hm-figure tbody th').length === 6,
      );
      assert.deepEqual((await readLabels(page)).rows, ['plan', 'the', 'next', 'hop', ',', 'jk']);
      assert.equal(await currentSlide(page), 'title');
      assert.equal(new URL(page.url()).hash, '#/title');
    });
  });

  test('arrow keys in the heatmap grid stay there; once focus leaves, they move slides', async () => {
    await withDeck(TITLE_HEATMAP, async (page) => {
      await heatmapReady(page);
      const cell = page.locator('#title [role="gridcell"][tabindex="0"]');
      await cell.focus();
      const focused = () => page.evaluate(() => document.activeElement?.dataset.index);
      for (const key of ['ArrowRight', 'ArrowDown', 'ArrowRight', 'End', 'PageDown', 'Home']) {
        await page.keyboard.press(key);
      }
      assert.notEqual(await focused(), undefined, 'focus is still on a cell');
      await page.keyboard.press('ArrowLeft');
      await page.keyboard.press('Space');
      assert.equal(await currentSlide(page), 'title');

      await page.locator('#title .slide-heading').click();
      await page.keyboard.press('ArrowRight');
      await waitForSlide(page, ids[1]);
    });
  });

  test('Escape hands the keys back from a figure without opening the overview', async () => {
    await withDeck(TITLE_HEATMAP, async (page) => {
      await heatmapReady(page);
      await page.locator('#title [role="gridcell"][tabindex="0"]').focus();
      await page.keyboard.press('Escape');
      assert.equal(await page.locator('.reveal.overview').count(), 0);
      assert.equal(await page.evaluate(() => document.activeElement === document.body), true);
      await page.keyboard.press('ArrowRight');
      await waitForSlide(page, ids[1]);
    });
  });

  test('leaving the title slide and coming back keeps the sentence and the toggle', async () => {
    await withDeck(TITLE_HEATMAP, async (page) => {
      await heatmapReady(page);
      const slide = page.locator('#title');
      await slide.getByRole('textbox', { name: /Sentence/ }).fill('Cats chase mice');
      await slide.getByRole('checkbox', { name: /Causal/ }).check();
      await page.locator('#title .slide-heading').click();
      await page.keyboard.press('ArrowRight');
      await waitForSlide(page, ids[1]);
      assert.equal(await page.locator('#title .hm').count(), 0, 'the left slide lets go');
      await page.keyboard.press('ArrowLeft');
      await waitForSlide(page, 'title');
      await heatmapReady(page);
      assert.equal(
        await slide.getByRole('textbox', { name: /Sentence/ }).inputValue(),
        'Cats chase mice',
      );
      assert.equal(await slide.getByRole('checkbox', { name: /Causal/ }).isChecked(), true);
      assert.deepEqual((await readLabels(page)).rows, ['cats', 'chase', 'mice']);
    });
  });

  test('a loading line shows while the engine starts, which happens once', async () => {
    const session = await openPage(site.browser());
    try {
      let release;
      const gate = new Promise((resolve) => (release = resolve));
      await session.page.route('**/*.wasm', async (route) => {
        await gate;
        await route.continue();
      });
      await session.page.goto(`${site.url()}index.html${TITLE_HEATMAP}`);
      const loading = session.page.locator('#title').getByRole('status');
      await loading.getByText(/Loading the attention engine/).waitFor({ timeout: TIMEOUT });
      release();
      await heatmapReady(session.page);
      // The next figure comes from the engine already loaded (the same page: only the slide's
      // address changes): the scaled dot-product steps.
      await session.page.goto(
        `${site.url()}index.html${TITLE_HEATMAP.replace('/title', '/scaled-dot-product')}`,
      );
      await session.page
        .locator('#scaled-dot-product .ast-figure svg.heatmap-svg')
        .waitFor({ timeout: TIMEOUT });
      const grid = await session.page
        .locator('#scaled-dot-product .ast-figure svg.heatmap-svg')
        .evaluate((svg) => ({
          rows: Array.from(svg.querySelectorAll('.row-label'), (t) => t.textContent),
          cols: Array.from(svg.querySelectorAll('.col-label'), (t) => t.textContent),
          cells: svg.querySelectorAll('[role="gridcell"]').length,
        }));
      assert.ok(grid.rows.length > 1, 'the sentence has tokens');
      assert.deepEqual(grid.cols, grid.rows, 'every token is a query and a key');
      assert.equal(grid.cells, grid.rows.length ** 2, 'one score per query and key');
      const fetched = session.log.requests.filter((url) => url.endsWith('.wasm'));
      assert.equal(fetched.length, 1, 'the engine is fetched once');
      assertClean(session.log, site.origin());
    } finally {
      await session.close();
    }
  });
});
