// End-to-end tests of the why-scale figure on its slide: the dₖ slider by keyboard redraws the
// numbers and the histogram; every number shown equals the engine's own, recomputed here in Node
// (the experiment is deterministic for its seed); keys inside the figure never turn the slide;
// axe finds nothing, in light and dark; and the phone layout does not overflow sideways.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { loadEngine } from 'attention-lab';

import { binSamples, symmetricDomain } from '../../web/src/views/charts/bins.js';
import { axeFindings } from './axe.js';
import { currentSlide, useSite, visitNextSlideAndBack, waitForSlide } from './browser.js';

const TIMEOUT = 15_000;
const SLIDE = '#why-scale';
const engine = await loadEngine();
const site = useSite();

/**
 * Opens the deck on the why-scale slide, waits for both charts, runs `body`; the page must stay
 * clean (no console error, no request off the origin).
 * @param {(page: import('playwright-core').Page) => Promise<void>} body
 * @param {import('./browser.js').PageOptions} [options]
 */
function withFigure(body, options) {
  return site.visit(
    'index.html#/why-scale',
    async (page) => {
      await waitForSlide(page, 'why-scale');
      await page.locator(`${SLIDE} .ws-lines svg.chart-svg`).waitFor({ timeout: TIMEOUT });
      await body(page);
    },
    options,
  );
}

/**
 * Everything the figure shows as numbers: the slider's width, the numbers table, the histogram's
 * table of counts, the line chart's table, and the histogram's tick labels.
 * @param {import('playwright-core').Page} page
 */
function readFigure(page) {
  return page.locator(SLIDE).evaluate((slide) => {
    const values = (table) =>
      Array.from(table.querySelectorAll('tbody tr'), (tr) =>
        Array.from(tr.querySelectorAll('td'), (td) => Number(td.dataset.value)),
      );
    const numbers = {};
    for (const tr of slide.querySelectorAll('.ws-numbers tbody tr')) {
      numbers[tr.dataset.key] = Array.from(tr.querySelectorAll('td'), (td) => ({
        side: td.dataset.side,
        value: Number(td.dataset.value),
      }));
    }
    return {
      dk: Number(slide.querySelector('.ws-dk').textContent),
      numbers,
      counts: values(slide.querySelector('.ws-hist table')),
      lines: values(slide.querySelector('.ws-lines table')),
      ticks: Array.from(slide.querySelectorAll('.ws-hist .chart-tick-x'), (t) => t.textContent),
      legend: slide.querySelector('.ws-hist .chart-legend').textContent,
    };
  });
}

/**
 * Checks every number on show against the engine at the same width.
 * @param {Awaited<ReturnType<typeof readFigure>>} shown
 */
function assertMatchesEngine(shown) {
  const result = engine.scalingExperiment({ dk: shown.dk, samples: 2000 });
  for (const [key, cells] of Object.entries(shown.numbers)) {
    for (const { side, value } of cells) assert.equal(value, result[side][key], `${side} ${key}`);
  }
  const samples = [result.unscaled.samples, result.scaled.samples];
  const domain = symmetricDomain(samples);
  const [unscaled, scaled] = samples.map((s) => binSamples(s, domain, 40).counts);
  assert.deepEqual(
    shown.counts,
    unscaled.map((n, i) => [n, scaled[i]]),
    'histogram counts',
  );
  const sum = (bin) => shown.counts.reduce((total, row) => total + row[bin], 0);
  assert.deepEqual([sum(0), sum(1)], [2000, 2000], 'every sample is in a bin');
}

describe('the why-scale figure', () => {
  test('the slider by keyboard changes the width, the variances and the histogram', async () => {
    await withFigure(async (page) => {
      const before = await readFigure(page);
      assert.equal(before.dk, 64);
      const [unscaled, scaled] = before.numbers.variance.map((c) => c.value);
      assert.ok(Math.abs(unscaled / 64 - 1) < 0.15, `unscaled variance ${unscaled} is about 64`);
      assert.ok(Math.abs(scaled - 1) < 0.15, `scaled variance ${scaled} is about 1`);

      const range = page.locator(`${SLIDE} .ws-range`);
      await range.focus();
      await page.keyboard.press('End');
      const widest = await readFigure(page);
      assert.equal(widest.dk, 1024);
      assert.equal(await range.getAttribute('aria-valuetext'), '1024');
      const variance = widest.numbers.variance.map((c) => c.value);
      assert.ok(Math.abs(variance[0] / 1024 - 1) < 0.15, `unscaled ${variance[0]} is about 1024`);
      assert.ok(Math.abs(variance[1] - 1) < 0.15, `scaled ${variance[1]} is about 1`);
      assert.notDeepEqual(widest.counts, before.counts, 'the histogram changed');
      assert.notDeepEqual(widest.ticks, before.ticks, 'its axis widened');
      assert.match(widest.legend, /variance 999/);

      await page.keyboard.press('Home');
      await page.keyboard.press('ArrowRight');
      assert.equal((await readFigure(page)).dk, 2);
    });
  });

  test('every number shown equals the engine at the same width', async () => {
    await withFigure(async (page) => {
      assertMatchesEngine(await readFigure(page));
      await page.locator(`${SLIDE} .ws-range`).focus();
      for (const key of ['ArrowLeft', 'ArrowLeft', 'ArrowLeft', 'ArrowLeft', 'End']) {
        await page.keyboard.press(key);
        assertMatchesEngine(await readFigure(page));
      }
      // The line chart: the measure chosen, over every width, as the engine computes it.
      await page.locator(`${SLIDE} .ws-measure`).selectOption('maxWeight');
      const shown = await readFigure(page);
      const sweep = [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024].map((dk) =>
        engine.scalingExperiment({ dk, samples: 2000 }),
      );
      assert.deepEqual(
        shown.lines,
        sweep.map((r) => [r.unscaled.maxWeight, r.scaled.maxWeight]),
      );
    });
  });

  test('a chart stop reads out its values on keyboard focus', async () => {
    await withFigure(async (page) => {
      const stops = page.locator(`${SLIDE} .ws-lines .chart-stop`);
      await stops.first().focus();
      await page.keyboard.press('End');
      const focused = await page.evaluate(() => document.activeElement?.getAttribute('aria-label'));
      assert.match(focused, /^dₖ = 1024: unscaled 0\.043, scaled ÷ √dₖ 0\.305$/);
      const readout = await page.locator(`${SLIDE} .ws-lines .chart-readout`).textContent();
      assert.equal(readout, focused);
    });
  });

  test('keys inside the figure do not turn the slide; after Escape they do; it keeps its width', async () => {
    await withFigure(async (page) => {
      await page.locator(`${SLIDE} .ws-range`).focus();
      for (const key of ['ArrowRight', 'ArrowLeft', 'ArrowDown', 'PageUp', 'Home', 'End', ' ']) {
        await page.keyboard.press(key);
      }
      await page.locator(`${SLIDE} .ws-hist .chart-stop`).first().focus();
      for (const key of ['ArrowRight', 'ArrowRight', 'ArrowLeft', 'End', 'Home']) {
        await page.keyboard.press(key);
      }
      await page.locator(`${SLIDE} .ws-measure`).focus();
      await page.keyboard.press('ArrowDown');
      assert.equal(await currentSlide(page), 'why-scale');
      assert.match(page.url(), /#\/why-scale$/);

      // Coming back, the figure shows the width the learner left it at.
      await visitNextSlideAndBack(page, 'why-scale');
      await page.locator(`${SLIDE} .ws-lines svg.chart-svg`).waitFor({ timeout: TIMEOUT });
      assert.equal((await readFigure(page)).dk, 1024);
    });
  });

  for (const colorScheme of /** @type {const} */ (['light', 'dark'])) {
    test(`axe finds nothing on the slide with its tables open (${colorScheme})`, async () => {
      await withFigure(
        async (page) => {
          for (const summary of await page.locator(`${SLIDE} .chart-details summary`).all()) {
            await summary.click();
          }
          await page.locator(`${SLIDE} .ws-hist .chart-stop`).nth(20).focus();
          assert.deepEqual(await axeFindings(page, colorScheme, SLIDE), []);
        },
        { colorScheme },
      );
    });
  }

  test('on a phone the figure fits the width of the screen', async () => {
    await withFigure(
      async (page) => {
        const overflow = await page.locator(SLIDE).evaluate((slide) => {
          const widest = slide.getBoundingClientRect().right;
          // Tables may scroll inside their own region; nothing else may stick out.
          return Array.from(slide.querySelectorAll('.ws *'))
            .filter((e) => !e.closest('.table-scroll, .ws-numbers-scroll'))
            .filter((e) => e.getBoundingClientRect().right > widest + 1)
            .map((e) => e.className.baseVal ?? e.className);
        });
        assert.deepEqual(overflow, []);
      },
      { viewport: { width: 360, height: 740 } },
    );
  });
});
