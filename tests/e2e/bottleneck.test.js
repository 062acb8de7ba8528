// End-to-end tests of the bottleneck figure on its slide: choosing another memory width (or seed)
// redraws the chart, its table and the reading line; every number shown equals the engine's own,
// recomputed here in Node for the same width and seed; a bad seed gets a clear message instead of
// a figure; keys inside the figure never turn the slide; axe finds nothing, in light and dark; and
// the phone layout does not overflow sideways.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { loadEngine } from 'attention-lab';

import { axeFindings } from './axe.js';
import { currentSlide, useSite, visitNextSlideAndBack, waitForSlide } from './browser.js';

const TIMEOUT = 15_000;
const SLIDE = '#bottleneck';
const COUNTS = [1, 2, 4, 8, 16, 32, 64, 128, 256];
const engine = await loadEngine();
const site = useSite();

/**
 * Waits until the figure shows up-to-date numbers for `width` (no run in progress).
 * @param {import('playwright-core').Page} page
 * @param {number} width
 */
async function waitForWidth(page, width) {
  await page.waitForFunction(
    ([slide, d]) => {
      const figure = document.querySelector(`${slide} .bn-figure`);
      const reading = document.querySelector(`${slide} .bn-reading`)?.textContent ?? '';
      return (
        figure &&
        !figure.hidden &&
        !figure.hasAttribute('aria-busy') &&
        reading.includes(`${d}-wide`) &&
        document.querySelector(`${slide} .bn-chart table`)
      );
    },
    [SLIDE, width],
    { timeout: TIMEOUT },
  );
}

/**
 * Opens the deck on the bottleneck slide, waits for the chart, runs `body`; the page must stay
 * clean (no console error, no request off the origin).
 * @param {(page: import('playwright-core').Page) => Promise<void>} body
 * @param {import('./browser.js').PageOptions} [options]
 */
function withFigure(body, options) {
  return site.visit(
    'index.html?figure=bottleneck&show=bottleneck#/bottleneck',
    async (page) => {
      await waitForSlide(page, 'bottleneck');
      await page.locator(`${SLIDE} .bn-chart svg.chart-svg`).waitFor({ timeout: TIMEOUT });
      await body(page);
    },
    options,
  );
}

/**
 * What the figure shows: the chosen width, the reading line, the chart's table (N and the two
 * accuracies in percent) and its legend.
 * @param {import('playwright-core').Page} page
 */
function readFigure(page) {
  return page.locator(SLIDE).evaluate((slide) => ({
    width: Number(slide.querySelector('.bn-choice input:checked')?.value),
    reading: slide.querySelector('.bn-reading').textContent,
    counts: Array.from(slide.querySelectorAll('.bn-chart tbody th'), (th) =>
      Number(th.textContent),
    ),
    rows: Array.from(slide.querySelectorAll('.bn-chart tbody tr'), (tr) =>
      Array.from(tr.querySelectorAll('td'), (td) => Number(td.dataset.value)),
    ),
    columns: Array.from(slide.querySelectorAll('.bn-chart thead th'), (th) => th.textContent),
    legend: slide.querySelector('.bn-chart .chart-legend')?.textContent ?? '',
    yTitle: slide.querySelector('.bn-chart .chart-title-y')?.textContent ?? '',
  }));
}

/**
 * Checks the numbers on show against the engine at the same width and seed: one call for every
 * count (the page asks for them one at a time; the numbers must be the same).
 * @param {Awaited<ReturnType<typeof readFigure>>} shown
 * @param {number} seed
 */
function assertMatchesEngine(shown, seed) {
  const result = engine.bottleneckExperiment({
    counts: COUNTS,
    width: shown.width,
    codebook: 16,
    trials: 4,
    seed,
  });
  assert.deepEqual(shown.counts, COUNTS, 'one row per N');
  assert.deepEqual(
    shown.rows,
    COUNTS.map((_, i) => [result.fixedVector[i] * 100, result.attention[i] * 100]),
    `width ${shown.width}, seed ${seed}: the table`,
  );
  const at = COUNTS.indexOf(shown.width);
  const percent = (share) => `${Math.round(share * 100)}%`;
  assert.equal(
    shown.reading,
    `At N = ${shown.width} facts in a ${shown.width}-wide vector, the fixed vector retrieves ` +
      `${percent(result.fixedVector[at])}; attention ${percent(result.attention[at])}.`,
  );
  return result;
}

describe('the bottleneck figure', () => {
  test('choosing another width redraws the chart, its table and the reading', async () => {
    await withFigure(async (page) => {
      await waitForWidth(page, 64);
      const before = await readFigure(page);
      assert.equal(before.width, 64);
      assert.deepEqual(before.columns, ['N', 'one fixed vector', 'attention over all N']);
      assert.match(before.legend, /one fixed vector.*attention over all N/);
      assert.match(before.yTitle, /accuracy/);
      const result = assertMatchesEngine(before, 1);
      // What the slide claims: attention keeps every fact, one 64-wide vector loses most at N = 64.
      assert.ok(result.attention.every((share) => share >= 0.99));
      assert.ok(result.fixedVector[COUNTS.indexOf(64)] < 0.5);

      // By keyboard: from 64 the right arrow picks 128.
      await page.locator(`${SLIDE} .bn-choice input[value="64"]`).focus();
      await page.keyboard.press('ArrowRight');
      await waitForWidth(page, 128);
      const wider = await readFigure(page);
      assert.equal(wider.width, 128);
      assert.notDeepEqual(wider.rows, before.rows, 'the table changed');
      assert.notEqual(wider.reading, before.reading, 'the reading changed');
      assertMatchesEngine(wider, 1);

      // By pointer: 32, then back to 64 (computed before, so shown at once).
      await page.locator(`${SLIDE} .bn-choice`, { hasText: /^32$/ }).click();
      await waitForWidth(page, 32);
      assertMatchesEngine(await readFigure(page), 1);
      await page.locator(`${SLIDE} .bn-choice`, { hasText: /^64$/ }).click();
      await waitForWidth(page, 64);
      assert.deepEqual(await readFigure(page), before);
    });
  });

  test('another seed draws other facts, with the engine numbers for that seed', async () => {
    await withFigure(async (page) => {
      await waitForWidth(page, 64);
      const before = await readFigure(page);
      await page.locator(`${SLIDE} .bn-seed`).fill('2024');
      await page.waitForFunction(
        ([slide, reading]) =>
          document.querySelector(`${slide} .bn-reading`).textContent !== reading ||
          document.querySelector(`${slide} .bn-figure`).hasAttribute('aria-busy'),
        [SLIDE, before.reading],
        { timeout: TIMEOUT },
      );
      await waitForWidth(page, 64);
      const after = await readFigure(page);
      assert.notDeepEqual(after.rows, before.rows);
      assertMatchesEngine(after, 2024);
    });
  });

  test('a seed that is not a whole number in range gets a message instead of a figure', async () => {
    await withFigure(async (page) => {
      const seed = page.locator(`${SLIDE} .bn-seed`);
      const error = page.locator(`${SLIDE} .bn-error`);
      for (const bad of ['', '-1', '1.5', '4294967296']) {
        await seed.fill(bad);
        await error.waitFor({ state: 'visible', timeout: TIMEOUT });
        assert.match(await error.textContent(), /seed must be a whole number from 0 to 4294967295/);
        assert.equal(await page.locator(`${SLIDE} .bn-figure`).isHidden(), true, `seed "${bad}"`);
      }
      await seed.fill('1');
      await waitForWidth(page, 64);
      assert.equal(await error.isHidden(), true);
      assertMatchesEngine(await readFigure(page), 1);
    });
  });

  test('a chart stop reads out both accuracies on keyboard focus', async () => {
    await withFigure(async (page) => {
      await waitForWidth(page, 64);
      const result = engine.bottleneckExperiment({ counts: COUNTS, width: 64 });
      const stops = page.locator(`${SLIDE} .bn-chart .chart-stop`);
      await stops.first().focus();
      await page.keyboard.press('End');
      const focused = await page.evaluate(() => document.activeElement?.getAttribute('aria-label'));
      const last = COUNTS.length - 1;
      const pct = (share) => `${Number((share * 100).toPrecision(3))}%`;
      assert.equal(
        focused,
        `N = 256: one fixed vector ${pct(result.fixedVector[last])}, attention over all N ` +
          `${pct(result.attention[last])}`,
      );
      const readout = await page.locator(`${SLIDE} .bn-chart .chart-readout`).textContent();
      assert.equal(readout, focused);
    });
  });

  test('keys inside the figure do not turn the slide; after Escape they do; it keeps its width', async () => {
    await withFigure(async (page) => {
      await page.locator(`${SLIDE} .bn-choice input[value="64"]`).focus();
      for (const key of ['ArrowRight', 'ArrowRight', 'ArrowLeft', 'ArrowDown', 'ArrowUp']) {
        await page.keyboard.press(key);
      }
      await page.locator(`${SLIDE} .bn-seed`).focus();
      for (const key of ['ArrowLeft', 'ArrowRight', 'Home', 'End']) await page.keyboard.press(key);
      await page.locator(`${SLIDE} .bn-chart .chart-stop`).first().focus();
      for (const key of ['ArrowRight', 'ArrowRight', 'ArrowLeft', 'End', 'Home']) {
        await page.keyboard.press(key);
      }
      assert.equal(await currentSlide(page), 'bottleneck');
      assert.match(page.url(), /#\/bottleneck$/);
      await waitForWidth(page, 128);

      // Coming back, the figure shows the width the learner left it at.
      await visitNextSlideAndBack(page, 'bottleneck');
      await waitForWidth(page, 128);
      assert.equal((await readFigure(page)).width, 128);
    });
  });

  for (const colorScheme of /** @type {const} */ (['light', 'dark'])) {
    test(`axe finds nothing on the slide with its table open (${colorScheme})`, async () => {
      await withFigure(
        async (page) => {
          await waitForWidth(page, 64);
          await page.locator(`${SLIDE} .chart-details summary`).click();
          await page.locator(`${SLIDE} .bn-chart .chart-stop`).nth(4).focus();
          assert.deepEqual(await axeFindings(page, colorScheme, SLIDE), []);
        },
        { colorScheme },
      );
    });
  }

  test('on a phone the figure fits the width of the screen', async () => {
    await withFigure(
      async (page) => {
        await waitForWidth(page, 64);
        const overflow = await page.locator(SLIDE).evaluate((slide) => {
          const widest = slide.getBoundingClientRect().right;
          // The table may scroll inside its own region; nothing else may stick out.
          return Array.from(slide.querySelectorAll('.bn *'))
            .filter((e) => !e.closest('.table-scroll'))
            .filter((e) => e.getBoundingClientRect().right > widest + 1)
            .map((e) => e.className.baseVal ?? e.className);
        });
        assert.deepEqual(overflow, []);
      },
      { viewport: { width: 360, height: 740 } },
    );
  });
});
