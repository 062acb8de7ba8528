// End-to-end tests of the attention-steps figure on the scaled dot-product slide: Previous, Next
// and the list of steps walk through scores, scaled scores, masked scores, weights and output,
// each drawn and tabled with the engine's own numbers (recomputed here in Node); the causal and
// padding toggles hide the right keys, written −∞ and hatched, with weights of exactly 0 and rows
// that sum to 1; the step reached is named for screen readers; bad input gets words instead of a
// figure; keys inside the figure keep the slide; the inputs survive leaving the slide; axe finds
// nothing, in light and dark.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { loadEngine } from 'attention-lab';

import { sentenceTokens } from '../../web/src/widgets/shared/token-matrix.js';
import { axeFindings } from './axe.js';
import { currentSlide, openTables, useSite, waitForSlide } from './browser.js';

const TIMEOUT = 15_000;
const ID = 'scaled-dot-product';
const SLIDE = `#${ID}`;
const SENTENCE = 'The cook tasted the soup and added more salt.';
const KEYS = ['scores', 'scaled', 'masked', 'weights', 'output'];
const MINUS_INFINITY = '\u2212\u221e';
const engine = await loadEngine();
engine.loadEmbeddings(
  readFileSync(new URL('../../web/public/embeddings/en-20k-100d.bin', import.meta.url)),
);
const site = useSite();

/**
 * What the engine gives for the figure's inputs, computed here without the widget's code: the
 * sentence's word vectors (at most 12 tokens), [pad] rows of zeros up to the next multiple of 4
 * above n with padding on, Q = K = V = X, the causal mask and the key padding mask.
 * @param {string} sentence
 * @param {{ causal?: boolean, padding?: boolean }} [masks]
 */
function expected(sentence, { causal = false, padding = false } = {}) {
  const words = sentenceTokens(engine, sentence).slice(0, 12);
  const n = words.length;
  const m = padding ? (Math.floor(n / 4) + 1) * 4 : n;
  const { vectors, d } = engine.embed(words);
  const x = new Float32Array(m * d);
  x.set(vectors);
  const pads = Array.from({ length: m }, (_, i) => i >= n);
  const trace = engine.attention({
    ...{ q: x, k: x, v: x, nq: m, nk: m, dk: d, dv: d, causal },
    keyPadding: padding ? pads : null,
  });
  const tokens = [...words, ...Array.from({ length: m - n }, () => '[pad]')];
  return { tokens, n, m, d, trace };
}

/**
 * @param {(page: import('playwright-core').Page) => Promise<void>} body
 * @param {import('./browser.js').PageOptions} [options]
 */
function withFigure(body, options) {
  return site.visit(
    `index.html#/${ID}`,
    async (page) => {
      await waitForSlide(page, ID);
      await page.locator(`${SLIDE} .ast-figure svg.heatmap-svg`).waitFor({ timeout: TIMEOUT });
      // The table is built when the learner opens it; open, it follows the figure.
      await openTables(page, `${SLIDE} .ast-tables details`);
      await body(page);
    },
    options,
  );
}

/**
 * Everything the figure shows: the step named, marked and announced, the state of Previous and
 * Next, the table (labels, values, texts; opened first, as a learner would, when there is a
 * figure), the grid's cells (or its size, when it is a picture), the legend and the notes.
 * @param {import('playwright-core').Page} page
 */
async function readFigure(page) {
  if (await page.locator(`${SLIDE} .ast-tables details`).count()) {
    await openTables(page, `${SLIDE} .ast-tables details`);
  }
  return page.locator(SLIDE).evaluate((slide) => {
    const table = slide.querySelector('.ast-tables table');
    const cellsOf = (selector) => (table ? Array.from(table.querySelectorAll(selector)) : []);
    const visible = (selector) => {
      const node = slide.querySelector(selector);
      return node && !node.hidden ? node.textContent : null;
    };
    return {
      title: slide.querySelector('.ast-title').textContent,
      current: Array.from(slide.querySelectorAll('.ast-step'))
        .filter((b) => b.getAttribute('aria-current') === 'step')
        .map((b) => Number(b.dataset.step)),
      announced: slide.querySelector('.ast-announce').textContent,
      prevDisabled: slide.querySelector('.ast-prev').getAttribute('aria-disabled'),
      nextDisabled: slide.querySelector('.ast-next').getAttribute('aria-disabled'),
      columns: cellsOf('thead th')
        .slice(1)
        .map((th) => th.textContent),
      rows: cellsOf('tbody th').map((th) => th.textContent),
      values: cellsOf('td').map((td) => Number(td.dataset.value)),
      texts: cellsOf('td').map((td) => td.textContent),
      maskedTds: cellsOf('td').map((td) => td.classList.contains('masked')),
      cells: Array.from(slide.querySelectorAll('.ast-figure [role="gridcell"]'), (c) => ({
        value: Number(c.getAttribute('data-value')),
        masked: c.classList.contains('masked'),
        label: c.getAttribute('aria-label'),
      })),
      picture: slide.querySelector('.ast-figure svg.pixels image[href^="data:image/"]')
        ? `${slide.querySelector('.ast-figure svg').getAttribute('data-rows')}x${slide
            .querySelector('.ast-figure svg')
            .getAttribute('data-cols')}`
        : null,
      marks: Array.from(
        slide.querySelectorAll('.ast-figure .cell-value.masked-value'),
        (t) => t.textContent,
      ),
      diverging: Boolean(slide.querySelector('.ast-figure .legend-bar.diverging')),
      legendMasked: slide.querySelector('.ast-figure .legend-masked')?.textContent ?? null,
      padNote: visible('.ast-pad-note'),
      unknown: visible('.ast-unknown'),
      status: visible('.ast-status'),
      resultShown: !slide.querySelector('.ast-result').hidden,
    };
  });
}

/**
 * Checks that the figure shows step `step` of the engine's trace for `want`.
 * @param {Awaited<ReturnType<typeof readFigure>>} shown
 * @param {ReturnType<typeof expected>} want
 * @param {number} step
 */
function assertStep(shown, want, step) {
  const key = KEYS[step - 1];
  assert.match(shown.title, new RegExp(`^Step ${step} of 5`));
  assert.deepEqual(shown.current, [step], 'one step is marked current');
  assert.equal(shown.prevDisabled, String(step === 1));
  assert.equal(shown.nextDisabled, String(step === 5));
  assert.deepEqual(shown.rows, want.tokens, 'one row per token');
  const columns =
    key === 'output' ? Array.from({ length: want.d }, (_, j) => String(j)) : want.tokens;
  assert.deepEqual(shown.columns, columns);
  assert.deepEqual(shown.values, Array.from(want.trace[key]), `the table holds the ${key}`);
  if (shown.picture) {
    // Too many cells for an element each: a picture with one pixel per value.
    assert.equal(shown.picture, `${want.tokens.length}x${columns.length}`, 'one pixel per value');
    assert.deepEqual(shown.cells, []);
  } else {
    assert.deepEqual(
      shown.cells.map((c) => c.value),
      Array.from(want.trace[key]),
      `the grid draws the ${key}`,
    );
  }
}

describe('the attention-steps figure', () => {
  test('it opens on the raw scores and Next walks through every step with the engine’s numbers', async () => {
    await withFigure(async (page) => {
      const want = expected(SENTENCE);
      const next = page.locator(SLIDE).getByRole('button', { name: 'Next step' });
      let shown = await readFigure(page);
      assertStep(shown, want, 1);
      assert.equal(shown.diverging, true, 'raw scores: a diverging scale');
      for (let step = 2; step <= 5; step++) {
        await next.click();
        shown = await readFigure(page);
        assertStep(shown, want, step);
        assert.match(shown.announced, new RegExp(`^Step ${step} of 5: `), 'the step is announced');
        assert.equal(shown.diverging, step !== 4, `step ${step}: diverging unless weights`);
      }
      // At the end Next (marked disabled, still focusable) does nothing; Previous goes back.
      await next.click({ force: true });
      assertStep(await readFigure(page), want, 5);
      await page.locator(SLIDE).getByRole('button', { name: 'Previous step' }).click();
      assertStep(await readFigure(page), want, 4);
      // The list jumps straight to a step.
      await page.locator(`${SLIDE} .ast-step[data-step="2"]`).click();
      shown = await readFigure(page);
      assertStep(shown, want, 2);
      assert.equal(
        shown.announced,
        'Step 2 of 5: scaled scores, divided by the square root of d k.',
      );
      const raw = Array.from(want.trace.scores);
      shown.values.forEach((v, k) =>
        assert.ok(Math.abs(v * 10 - raw[k]) < 1e-4 * Math.abs(raw[k]) + 1e-5),
      );
    });
  });

  test('without a mask the masked step hides nothing and the weights have no zero', async () => {
    await withFigure(async (page) => {
      const want = expected(SENTENCE);
      await page.locator(`${SLIDE} .ast-step[data-step="3"]`).click();
      const shown = await readFigure(page);
      assertStep(shown, want, 3);
      assert.equal(shown.cells.filter((c) => c.masked).length, 0);
      assert.deepEqual(shown.values, Array.from(want.trace.scaled), 'M = 0 changes nothing');
    });
  });

  test('the causal mask hides the keys after each query: −∞, hatched, then weight 0', async () => {
    await withFigure(async (page) => {
      await page
        .locator(SLIDE)
        .getByRole('checkbox', { name: /Causal/ })
        .check();
      await page.locator(`${SLIDE} .ast-step[data-step="3"]`).click();
      const want = expected(SENTENCE, { causal: true });
      const { m } = want;
      const shown = await readFigure(page);
      assertStep(shown, want, 3);
      const above = (k) => k % m > Math.floor(k / m);
      shown.cells.forEach((cell, k) => {
        assert.equal(cell.masked, above(k), `cell ${k} is hatched iff its key follows its query`);
        if (above(k)) {
          assert.equal(cell.value, -Infinity);
          assert.ok(cell.label.endsWith(`score ${MINUS_INFINITY}`), cell.label);
          assert.equal(shown.texts[k], MINUS_INFINITY, 'the table writes −∞');
        } else {
          assert.ok(Number.isFinite(cell.value));
        }
      });
      assert.deepEqual(
        shown.marks,
        Array.from({ length: (m * (m - 1)) / 2 }, () => MINUS_INFINITY),
        'each hatched cell shows −∞',
      );
      assert.equal(shown.legendMasked, `masked (score ${MINUS_INFINITY})`);

      // Hovering a hidden cell reads it out as −∞.
      await page.locator(`${SLIDE} .ast-figure [role="gridcell"]`).nth(1).hover();
      const readout = await page.locator(`${SLIDE} .ast-readout`).textContent();
      assert.equal(readout, `query “the” to key “cook”: masked, score ${MINUS_INFINITY}`);

      await page.locator(SLIDE).getByRole('button', { name: 'Next step' }).click();
      const weights = await readFigure(page);
      assertStep(weights, want, 4);
      for (let i = 0; i < m; i++) {
        const row = weights.values.slice(i * m, (i + 1) * m);
        assert.ok(Math.abs(row.reduce((a, b) => a + b, 0) - 1) < 1e-5, `row ${i} sums to 1`);
        row.forEach((w, j) => j > i && assert.equal(w, 0, `weight (${i}, ${j}) is exactly 0`));
      }
      assert.equal(weights.values[0], 1, 'the first token sees only itself');
    });
  });

  test('padding adds [pad] tokens up to a multiple of 4 that no query attends to', async () => {
    await withFigure(async (page) => {
      await page
        .locator(SLIDE)
        .getByRole('checkbox', { name: /Padding/ })
        .check();
      const want = expected(SENTENCE, { padding: true });
      const { n, m } = want;
      assert.ok(m > n && m % 4 === 0);
      let shown = await readFigure(page);
      assertStep(shown, want, 1);
      assert.equal(shown.rows.filter((t) => t === '[pad]').length, m - n);
      assert.match(shown.padNote ?? '', new RegExp(`pad the ${n} to ${m}`));

      await page.locator(`${SLIDE} .ast-step[data-step="4"]`).click();
      shown = await readFigure(page);
      assertStep(shown, want, 4);
      for (let i = 0; i < m; i++) {
        for (let j = n; j < m; j++) {
          assert.equal(shown.values[i * m + j], 0, `query ${i} gives [pad] key ${j} nothing`);
          assert.equal(shown.maskedTds[i * m + j], true);
        }
      }
      // With the causal mask too, both masks hide their cells.
      await page
        .locator(SLIDE)
        .getByRole('checkbox', { name: /Causal/ })
        .check();
      await page.locator(`${SLIDE} .ast-step[data-step="3"]`).click();
      const both = expected(SENTENCE, { causal: true, padding: true });
      shown = await readFigure(page);
      assertStep(shown, both, 3);
      shown.cells.forEach((cell, k) => {
        const [i, j] = [Math.floor(k / m), k % m];
        assert.equal(cell.masked, j > i || j >= n, `cell (${i}, ${j})`);
      });

      await page
        .locator(SLIDE)
        .getByRole('checkbox', { name: /Padding/ })
        .uncheck();
      shown = await readFigure(page);
      assert.equal(shown.rows.length, n, 'the pads go with the toggle');
      assert.equal(shown.padNote, null);
    });
  });

  test('a new sentence redraws the current step; bad input gets words, not a figure', async () => {
    await withFigure(async (page) => {
      const box = page.locator(SLIDE).getByRole('textbox', { name: /Sentence/ });
      await page.locator(`${SLIDE} .ast-step[data-step="5"]`).click();
      await box.fill('Dogs chase cats.');
      let shown = await readFigure(page);
      assertStep(shown, expected('Dogs chase cats.'), 5);

      await box.fill('   ');
      shown = await readFigure(page);
      assert.equal(shown.resultShown, false, 'no figure for blank text');
      assert.equal(shown.cells.length + shown.values.length, 0, 'nothing drawn, nothing tabled');
      assert.match(shown.status ?? '', /Type a sentence/);

      // Markup is text: its pieces become tokens, nothing runs (the visit checks for dialogs).
      const markup = '<img src=x onerror=alert(1)> <b>bold</b>';
      await box.fill(markup);
      shown = await readFigure(page);
      assertStep(shown, expected(markup), 5);
      assert.ok(shown.rows.includes('<'), 'the angle bracket is a token');
      assert.equal(
        await page.locator(`${SLIDE} .ast-figure img, ${SLIDE} .ast-figure b`).count(),
        0,
      );

      // Emoji, CJK and right-to-left words, none in the vocabulary: drawn and marked.
      const foreign = '🙂 猫 שלום';
      await box.fill(foreign);
      shown = await readFigure(page);
      assertStep(shown, expected(foreign), 5);
      assert.match(shown.unknown ?? '', /Not in the vocabulary/);
      const marked = await page.locator(`${SLIDE} .ast-figure .row-label.unknown`).count();
      assert.equal(marked, 3, 'each unknown token is marked');

      // Longer text is cut, and the cut is named.
      const long =
        'one two three four five six seven eight nine ten eleven twelve thirteen fourteen';
      await box.fill(long);
      shown = await readFigure(page);
      assert.equal(shown.status, 'Showing the first 12 of 14 tokens.');
      assertStep(shown, expected(long), 5);
    });
  });

  test('keys inside the figure stay there: the grid, the step buttons, the toggles', async () => {
    await withFigure(async (page) => {
      const cell = page.locator(`${SLIDE} [role="gridcell"][tabindex="0"]`);
      await cell.focus();
      for (const key of ['ArrowRight', 'ArrowDown', 'End', 'PageDown', 'Home']) {
        await page.keyboard.press(key);
      }
      const focused = () => page.evaluate(() => document.activeElement?.getAttribute('role'));
      assert.equal(await focused(), 'gridcell');
      assert.equal(await currentSlide(page), ID);

      const next = page.locator(SLIDE).getByRole('button', { name: 'Next step' });
      await next.focus();
      for (let k = 0; k < 6; k++) await page.keyboard.press('Enter');
      await page.keyboard.press('Space');
      let shown = await readFigure(page);
      assert.deepEqual(shown.current, [5], 'Enter moved to the last step and stopped there');
      assert.equal(
        await page.evaluate(() => document.activeElement?.classList.contains('ast-next')),
        true,
        'focus stays on Next',
      );
      await page.keyboard.press('ArrowRight');
      await page.keyboard.press('ArrowLeft');
      assert.equal(await currentSlide(page), ID);

      // Shift+Tab twice: past the fifth step to the fourth, which Enter chooses.
      await page.keyboard.press('Shift+Tab');
      await page.keyboard.press('Shift+Tab');
      await page.keyboard.press('Enter');
      shown = await readFigure(page);
      assert.deepEqual(shown.current, [4], 'the fourth step, reached by keyboard alone');
      await page
        .locator(SLIDE)
        .getByRole('checkbox', { name: /Causal/ })
        .focus();
      await page.keyboard.press('Space');
      assert.equal(
        await page
          .locator(SLIDE)
          .getByRole('checkbox', { name: /Causal/ })
          .isChecked(),
        true,
      );
      assert.equal(await currentSlide(page), ID);
    });
  });

  test('leaving the slide and coming back keeps the sentence, the toggles and the step', async () => {
    await withFigure(async (page) => {
      const slide = page.locator(SLIDE);
      await slide.getByRole('textbox', { name: /Sentence/ }).fill('Cats chase mice');
      await slide.getByRole('checkbox', { name: /Causal/ }).check();
      await slide.getByRole('checkbox', { name: /Padding/ }).check();
      await page.locator(`${SLIDE} .ast-step[data-step="4"]`).click();
      await page.locator(`${SLIDE} .slide-heading`).click();
      await page.keyboard.press('ArrowRight');
      await page.waitForFunction(
        (id) => document.querySelector('.reveal .slides > section.present')?.id !== id,
        ID,
      );
      assert.equal(await page.locator(`${SLIDE} .ast`).count(), 0, 'the left slide lets go');
      await page.keyboard.press('ArrowLeft');
      await waitForSlide(page, ID);
      await page.locator(`${SLIDE} .ast-figure svg.heatmap-svg`).waitFor({ timeout: TIMEOUT });
      assert.equal(
        await slide.getByRole('textbox', { name: /Sentence/ }).inputValue(),
        'Cats chase mice',
      );
      assert.equal(await slide.getByRole('checkbox', { name: /Causal/ }).isChecked(), true);
      assert.equal(await slide.getByRole('checkbox', { name: /Padding/ }).isChecked(), true);
      assertStep(
        await readFigure(page),
        expected('Cats chase mice', { causal: true, padding: true }),
        4,
      );
    });
  });

  for (const colorScheme of /** @type {const} */ (['light', 'dark'])) {
    test(`axe finds nothing with both masks on and the table open (${colorScheme})`, async () => {
      await withFigure(
        async (page) => {
          await page
            .locator(SLIDE)
            .getByRole('checkbox', { name: /Causal/ })
            .check();
          await page
            .locator(SLIDE)
            .getByRole('checkbox', { name: /Padding/ })
            .check();
          await page.locator(`${SLIDE} .ast-step[data-step="3"]`).click();
          await openTables(page, `${SLIDE} .ast-tables details`);
          assert.deepEqual(await axeFindings(page, colorScheme, SLIDE), []);
        },
        { colorScheme },
      );
    });
  }
});
