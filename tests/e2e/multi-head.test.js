// End-to-end tests of the multi-head figure on its slide: the head counts offered are the divisors
// of d_model; choosing one, typing a sentence or a seed redraws one heatmap per head and the
// combined output, with the engine's own numbers (recomputed here in Node: the projections are
// seeded); d_k and the two parameter counts are shown and equal; cells read out on hover; arrow
// keys in the figure keep the slide; a sentence of up to 64 tokens is drawn whole, a longer one is
// cut there and says so, and at 64 tokens the slide still fits its frame (1280 x 720) and a phone
// scrolls nothing sideways; axe finds nothing, in light and dark.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { AxeBuilder } from '@axe-core/playwright';
import { loadEngine } from 'attention-lab';

import { embeddingWidth, sentenceTokens, tokenMatrix } from '../../web/src/widgets/token-matrix.js';
import { currentSlide, useSite, waitForSlide } from './browser.js';

const TIMEOUT = 15_000;
const SLIDE = '#multi-head';
/** The most tokens the figure draws, as in the lesson's other figures. */
const MAX_TOKENS = 64;
const engine = await loadEngine();
engine.loadEmbeddings(
  readFileSync(new URL('../../web/public/embeddings/en-20k-100d.bin', import.meta.url)),
);
const d = embeddingWidth();
const site = useSite();

/**
 * What the engine gives for the figure's inputs: X from the lesson's word vectors, W_Q, W_K, W_V
 * and W_O Glorot-uniform from the seed and the three after it.
 * @param {string} sentence
 * @param {number} heads
 * @param {number} seed
 */
function expected(sentence, heads, seed) {
  const tokens = sentenceTokens(engine, sentence).slice(0, MAX_TOKENS);
  const { x, n } = tokenMatrix(engine, tokens);
  const [wq, wk, wv, wo] = [0, 1, 2, 3].map((k) => engine.glorotUniform(d, d, seed + k));
  const result = engine.multiHeadAttention({
    xq: x,
    xkv: x,
    nq: n,
    nk: n,
    dModel: d,
    heads,
    wq,
    wk,
    wv,
    wo,
  });
  return {
    tokens,
    tables: [...result.heads.map((h) => h.weights), result.output].map((a) => Array.from(a)),
  };
}

/** @param {(page: import('playwright-core').Page) => Promise<void>} body */
function withFigure(body, options) {
  return site.visit(
    'index.html#/multi-head',
    async (page) => {
      await waitForSlide(page, 'multi-head');
      await page.locator(`${SLIDE} .mh-out svg.heatmap-svg`).waitFor({ timeout: TIMEOUT });
      await body(page);
    },
    options,
  );
}

/**
 * Everything the figure shows: the head counts offered and chosen, d_k, the parameter counts,
 * the tiles, every table's rows and values, and the output grid's cell values.
 * @param {import('playwright-core').Page} page
 */
function readFigure(page) {
  return page.locator(SLIDE).evaluate((slide) => ({
    offered: Array.from(slide.querySelectorAll('.mh-choice input'), (i) => Number(i.value)),
    heads: Number(slide.querySelector('.mh-choice input:checked').value),
    dk: Number(slide.querySelector('.mh-dk').textContent),
    one: slide.querySelector('.mh-count-one').textContent,
    split: slide.querySelector('.mh-count-split').textContent,
    verdict: slide.querySelector('.mh-verdict').textContent,
    tiles: slide.querySelectorAll('.mh-tile svg.heatmap-svg').length,
    rows: Array.from(
      [...slide.querySelectorAll('.mh-tables table')].at(-1).querySelectorAll('tbody th'),
      (th) => th.textContent,
    ),
    tables: Array.from(slide.querySelectorAll('.mh-tables table'), (table) =>
      Array.from(table.querySelectorAll('td'), (td) => Number(td.dataset.value)),
    ),
    outCells: Array.from(slide.querySelectorAll('.mh-out [role="gridcell"]'), (c) =>
      Number(c.dataset.value),
    ),
  }));
}

/**
 * @param {Awaited<ReturnType<typeof readFigure>>} shown
 * @param {string} sentence
 * @param {number} seed
 */
function assertMatchesEngine(shown, sentence, seed) {
  const want = expected(sentence, shown.heads, seed);
  assert.equal(shown.tiles, shown.heads, 'one heatmap per head');
  assert.deepEqual(shown.rows, want.tokens, 'one output row per token');
  assert.equal(shown.tables.length, shown.heads + 1, 'a table per head and one for the output');
  shown.tables.forEach((values, i) => assert.deepEqual(values, want.tables[i], `table ${i + 1}`));
  assert.deepEqual(shown.outCells, want.tables.at(-1), 'the output grid draws the same numbers');
  assert.equal(shown.dk, d / shown.heads, 'd_k = d_model / h');
  const count = (n) => n.toLocaleString('en');
  assert.equal(shown.one, count(3 * d * d + d * d), 'one full-width head');
  assert.equal(shown.split, count(shown.heads * 3 * d * (d / shown.heads) + d * d), 'h heads');
  assert.equal(shown.one, shown.split, 'the two counts are equal');
  assert.equal(shown.verdict, 'equal');
}

const SENTENCE = 'The cat sat on the mat because it was tired.';
// 64 tokens (61 words, 3 commas and full stops), and a longer sentence.
const LONG =
  'The old keeper climbed the narrow stairs every evening, lit the great lamp and watched ' +
  'the ships pass safely through the dark water. One stormy night a small boat lost its way ' +
  'near the rocks, so he rang the bell until the sailors heard it and turned towards the ' +
  'harbour where their families waited for them on the quiet sandy shore';
const LONGER = `${LONG} and then they all went home to sleep.`;

/**
 * How the slide sits in its frame: how far anything drawn reaches below .slide-main or scrolls
 * inside the slide's boxes, how far the section scrolls sideways, and by how much the widest head
 * heatmap is wider than its tile (positive: cut off).
 * @param {import('playwright-core').Page} page
 */
function readFit(page) {
  return page.locator(SLIDE).evaluate((section) => {
    const main = section.querySelector('.slide-main').getBoundingClientRect();
    const boxes = section.querySelectorAll('.slide-main, .slide-text, .mh-output');
    const drawn = [...section.querySelectorAll('.slide-main *')].filter(
      (node) => !node.closest('details:not([open]) > :not(summary)'),
    );
    return {
      over: Math.max(
        ...[...boxes].map((box) => box.scrollHeight - box.clientHeight),
        ...drawn.map((node) => node.getBoundingClientRect().bottom - main.bottom),
      ),
      sideways: section.scrollWidth - section.clientWidth,
      tileOverhang: Math.max(
        ...Array.from(
          section.querySelectorAll('.mh-tile'),
          (tile) => tile.querySelector('svg').getBoundingClientRect().width - tile.clientWidth,
        ),
      ),
    };
  });
}

describe('the multi-head figure', () => {
  test('it offers the divisors of d_model as head counts and shows the engine’s heads', async () => {
    await withFigure(async (page) => {
      const shown = await readFigure(page);
      const divisors = Array.from({ length: 16 }, (_, i) => i + 1).filter((h) => d % h === 0);
      assert.deepEqual(shown.offered, divisors);
      assert.equal(shown.heads, 4);
      assertMatchesEngine(shown, SENTENCE, 1);
    });
  });

  test('choosing another head count redraws one heatmap per head with the engine’s numbers', async () => {
    await withFigure(async (page) => {
      const before = await readFigure(page);
      for (const h of [2, 10, 1]) {
        await page.locator(`${SLIDE} .mh-choice`, { hasText: new RegExp(`^${h}$`) }).click();
        const shown = await readFigure(page);
        assert.equal(shown.heads, h);
        assert.notDeepEqual(shown.outCells, before.outCells, 'the output changed');
        assertMatchesEngine(shown, SENTENCE, 1);
      }
    });
  });

  test('a new sentence and a new seed redraw the figure with the engine’s numbers', async () => {
    await withFigure(async (page) => {
      const sentence = 'Dogs chase cats.';
      await page.locator(`${SLIDE} .mh-sentence`).fill(sentence);
      const shown = await readFigure(page);
      assert.deepEqual(shown.rows, ['dogs', 'chase', 'cats', '.']);
      assertMatchesEngine(shown, sentence, 1);

      await page.locator(`${SLIDE} .mh-seed`).fill('4294967290');
      const reseeded = await readFigure(page);
      assert.notDeepEqual(reseeded.tables, shown.tables, 'new projections, new numbers');
      assertMatchesEngine(reseeded, sentence, 4294967290);
    });
  });

  test(`a sentence of ${MAX_TOKENS} tokens is drawn whole; a longer one is cut there and says so`, async () => {
    await withFigure(async (page) => {
      assert.equal(sentenceTokens(engine, LONG).length, MAX_TOKENS, 'the long sentence');
      const all = sentenceTokens(engine, LONGER);
      assert.ok(all.length > MAX_TOKENS, 'the longer sentence');
      const status = page.locator(`${SLIDE} .mh-status`);
      await page.locator(`${SLIDE} .mh-choice`, { hasText: /^10$/ }).click();

      await page.locator(`${SLIDE} .mh-sentence`).fill(LONG);
      const whole = await readFigure(page);
      assert.equal(whole.rows.length, MAX_TOKENS);
      assert.equal(await status.isVisible(), false, 'nothing is left out');
      assertMatchesEngine(whole, LONG, 1);

      await page.locator(`${SLIDE} .mh-sentence`).fill(LONGER);
      assert.equal(
        await status.textContent(),
        `Showing the first ${MAX_TOKENS} of ${all.length} tokens.`,
      );
      const cut = await readFigure(page);
      assert.deepEqual(cut.rows, all.slice(0, MAX_TOKENS));
      assertMatchesEngine(cut, LONGER, 1);

      // Too many rows for labels: the output's cells still name their token.
      const last = page.locator(`${SLIDE} .mh-out [role="gridcell"]`).nth(MAX_TOKENS * d - 1);
      await last.hover();
      const value = Number(await last.getAttribute('data-value'));
      assert.equal(
        await page.locator(`${SLIDE} .mh-readout`).textContent(),
        `token “${all[MAX_TOKENS - 1]}”, feature “${d - 1}”: output value ${value.toFixed(3)}`,
      );
    });
  });

  test(`with ${MAX_TOKENS} tokens the slide fits 1280 x 720 and no head is cut off`, async () => {
    await withFigure(
      async (page) => {
        await page.locator(`${SLIDE} .mh-sentence`).fill(LONG);
        assert.equal((await readFigure(page)).tiles, 4);
        const fit = await readFit(page);
        assert.ok(fit.over <= 6, `the slide spills ${fit.over}px out of its frame`);
        assert.equal(fit.sideways, 0);
        assert.ok(fit.tileOverhang <= 0.5, `a head is cut off by ${fit.tileOverhang}px`);
      },
      { viewport: { width: 1280, height: 720 } },
    );
  });

  test(`on a phone, ${MAX_TOKENS} tokens in 10 heads scroll nothing sideways`, async () => {
    await withFigure(
      async (page) => {
        await page.locator(`${SLIDE} .mh-choice`, { hasText: /^10$/ }).click();
        await page.locator(`${SLIDE} .mh-sentence`).fill(LONG);
        assert.equal((await readFigure(page)).tiles, 10);
        const fit = await readFit(page);
        assert.equal(fit.sideways, 0, 'the slide scrolls sideways');
        assert.ok(fit.tileOverhang <= 0.5, `a head is cut off by ${fit.tileOverhang}px`);
        const page360 = await page.evaluate(
          () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
        );
        assert.equal(page360, 0, 'the page scrolls sideways');
      },
      { viewport: { width: 360, height: 740 } },
    );
  });

  test('a seed out of range is named and hides the figure until it is fixed', async () => {
    await withFigure(async (page) => {
      const seed = page.locator(`${SLIDE} .mh-seed`);
      await seed.fill('-3');
      const alert = page.locator(`${SLIDE} .mh-error`);
      assert.match(await alert.textContent(), /whole number from 0 to 4294967295/);
      assert.equal(await page.locator(`${SLIDE} .mh-result`).isVisible(), false);
      await seed.fill('7');
      assert.equal(await alert.isVisible(), false);
      assertMatchesEngine(await readFigure(page), SENTENCE, 7);
    });
  });

  test('a cell names its head, tokens and weight on hover; arrow keys keep the slide', async () => {
    await withFigure(async (page) => {
      const cell = page.locator(`${SLIDE} .mh-tile`).nth(1).locator('[role="gridcell"]').nth(3);
      await cell.hover();
      const value = Number(await cell.getAttribute('data-value'));
      const readout = await page.locator(`${SLIDE} .mh-readout`).textContent();
      assert.equal(readout, `Head 2: query “the” to key “on”: weight ${value.toFixed(3)}`);

      await page.locator(`${SLIDE} .mh-choice input:checked`).focus();
      await page.keyboard.press('ArrowRight');
      assert.equal((await readFigure(page)).heads, 5);
      await page.keyboard.press('ArrowLeft');
      await page.keyboard.press('ArrowLeft');
      assert.equal((await readFigure(page)).tiles, 2);
      assert.equal(await currentSlide(page), 'multi-head');
    });
  });

  for (const colorScheme of /** @type {const} */ (['light', 'dark'])) {
    test(`axe finds nothing on the slide with its tables open (${colorScheme})`, async () => {
      await withFigure(
        async (page) => {
          await page.locator(`${SLIDE} .mh-tables summary`).click();
          const { violations } = await new AxeBuilder({ page }).include(SLIDE).analyze();
          const found = violations.map(
            (v) => `${v.id}: ${v.help} at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`,
          );
          assert.deepEqual(found, []);
        },
        { colorScheme },
      );
    });
  }
});
