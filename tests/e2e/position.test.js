// End-to-end tests of the position figure on its slide: Shuffle reorders the tokens and the page
// reports that plain self-attention outputs follow (max |out_shuffled − P·out| tiny, "match");
// with positional encodings added the same check says "differ", with a large number. Every number
// and table equals the engine's, recomputed here in Node; the encoding is drawn as a heatmap;
// cells read out on hover; axe finds nothing, in light and dark.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { loadEngine } from 'attention-lab';

import {
  embeddingWidth,
  sentenceTokens,
  tokenMatrix,
} from '../../web/src/widgets/shared/token-matrix.js';
import { axeFindings } from './axe.js';
import { useSite, waitForSlide } from './browser.js';

const TIMEOUT = 15_000;
const SLIDE = '#position';
const SENTENCE = 'The dog bites the man.';
const engine = await loadEngine();
engine.loadEmbeddings(
  readFileSync(new URL('../../web/public/embeddings/en-20k-100d.bin', import.meta.url)),
);
const site = useSite();

/**
 * The engine's numbers for a sentence shown in `order`: outputs of plain self-attention (Q = K =
 * V = the input), of the original and of the shuffled rows, with or without PE added after the
 * shuffle; and the largest gap between the shuffled outputs and the original ones reordered.
 * @param {string} sentence
 * @param {number[]} order
 * @param {boolean} withEncoding
 */
function expected(sentence, order, withEncoding) {
  const tokens = sentenceTokens(engine, sentence);
  const { x, n, d } = tokenMatrix(engine, tokens);
  const pe = engine.positionalEncoding(n, d);
  const rows = (m, perm) =>
    Float32Array.from({ length: n * d }, (_, k) => m[perm[Math.floor(k / d)] * d + (k % d)]);
  const input = (m) => (withEncoding ? Float32Array.from(m, (v, k) => v + pe[k]) : m);
  const attend = (m) => engine.attention({ q: m, k: m, v: m, nq: n, nk: n, dk: d, dv: d }).output;
  const output = attend(input(rows(x, order)));
  const reordered = rows(attend(input(x)), order);
  const difference = Math.max(...Array.from(output, (v, k) => Math.abs(v - reordered[k])));
  return { tokens, output: Array.from(output), pe: Array.from(pe), difference };
}

/** @param {(page: import('playwright-core').Page) => Promise<void>} body */
function withFigure(body, options) {
  return site.visit(
    'index.html#/position',
    async (page) => {
      await waitForSlide(page, 'position');
      await page.locator(`${SLIDE} .pos-out svg.heatmap-svg`).waitFor({ timeout: TIMEOUT });
      await body(page);
    },
    options,
  );
}

/** @param {import('playwright-core').Page} page */
function readFigure(page) {
  return page.locator(SLIDE).evaluate((slide) => {
    const check = slide.querySelector('.pos-check');
    const tables = Array.from(slide.querySelectorAll('.pos-tables table'), (table) => ({
      rows: Array.from(table.querySelectorAll('tbody th'), (th) => th.textContent),
      values: Array.from(table.querySelectorAll('td'), (td) => Number(td.dataset.value)),
    }));
    return {
      order: slide.querySelector('.pos-order').dataset.order.split(',').map(Number),
      verdict: check.dataset.verdict,
      difference: Number(check.dataset.difference),
      text: check.textContent,
      shown: slide.querySelector('.pos-difference')?.textContent,
      output: tables[0],
      pe: tables[1],
      cells: Array.from(slide.querySelectorAll('.pos-out [role="gridcell"]'), (c) =>
        Number(c.dataset.value),
      ),
    };
  });
}

/**
 * @param {Awaited<ReturnType<typeof readFigure>>} shown
 * @param {string} sentence
 * @param {boolean} withEncoding
 */
function assertMatchesEngine(shown, sentence, withEncoding) {
  const want = expected(sentence, shown.order, withEncoding);
  assert.deepEqual(
    shown.output.rows,
    shown.order.map((k) => want.tokens[k]),
    'rows in the order on show',
  );
  assert.deepEqual(shown.output.values, want.output, 'the outputs');
  assert.deepEqual(shown.cells, want.output, 'the output grid draws the same numbers');
  assert.deepEqual(shown.pe.values, want.pe, 'the encoding');
  assert.equal(shown.difference, want.difference, 'max |out_shuffled − P·out|');
  return want;
}

describe('the position figure', () => {
  test('before a shuffle it shows the original order and the encoding', async () => {
    await withFigure(async (page) => {
      const shown = await readFigure(page);
      assert.deepEqual(shown.order, [0, 1, 2, 3, 4, 5]);
      assert.equal(shown.verdict, 'none');
      assert.match(shown.text, /Press Shuffle/);
      assert.deepEqual(shown.pe.rows, ['0', '1', '2', '3', '4', '5']);
      assertMatchesEngine(shown, SENTENCE, false);
    });
  });

  test('shuffled, the outputs match the shuffled order; with PE added they differ', async () => {
    await withFigure(async (page) => {
      const before = await readFigure(page);
      await page.locator(`${SLIDE} .pos-shuffle`).click();
      const shuffled = await readFigure(page);
      assert.notDeepEqual(shuffled.order, before.order, 'a new order');
      assert.deepEqual([...shuffled.order].sort(), before.order, 'a permutation');
      assert.notDeepEqual(shuffled.cells, before.cells, 'the output rows moved');
      const plain = assertMatchesEngine(shuffled, SENTENCE, false);
      assert.equal(shuffled.verdict, 'match');
      assert.ok(plain.difference < 1e-5, `${plain.difference} is float32 rounding`);
      assert.match(shuffled.text, /The outputs match the shuffled order (to 1e-\d+|exactly)/);
      assert.match(shuffled.text, /max \|outshuffled − P·out\| = /);

      await page.locator(`${SLIDE} .pos-pe`).check();
      const encoded = await readFigure(page);
      assert.deepEqual(encoded.order, shuffled.order, 'the toggle keeps the order');
      const broken = assertMatchesEngine(encoded, SENTENCE, true);
      assert.equal(encoded.verdict, 'differ');
      assert.ok(broken.difference > 0.1, `${broken.difference} is large`);
      assert.match(encoded.text, /The outputs differ from the shuffled order/);
      assert.equal(encoded.shown, broken.difference.toPrecision(3));

      await page.locator(`${SLIDE} .pos-shuffle`).click();
      const again = await readFigure(page);
      assert.notDeepEqual(again.order, encoded.order, 'each shuffle gives a new order');
      assertMatchesEngine(again, SENTENCE, true);
      assert.equal(again.verdict, 'differ');

      await page.locator(`${SLIDE} .pos-reset`).click();
      const reset = await readFigure(page);
      assert.deepEqual(reset.order, before.order);
      assert.equal(reset.verdict, 'none');
    });
  });

  test('a new sentence starts from its own order, and Shuffle needs two tokens', async () => {
    await withFigure(async (page) => {
      await page.locator(`${SLIDE} .pos-shuffle`).click();
      const sentence = 'Man bites dog today.';
      await page.locator(`${SLIDE} .pos-sentence`).fill(sentence);
      const shown = await readFigure(page);
      assert.deepEqual(shown.order, [0, 1, 2, 3, 4]);
      assert.equal(shown.pe.rows.length, 5);
      assertMatchesEngine(shown, sentence, false);
      await page.locator(`${SLIDE} .pos-sentence`).fill('Dog');
      assert.equal(await page.locator(`${SLIDE} .pos-shuffle`).isDisabled(), true);
    });
  });

  test('a cell of the encoding names its position, dimension and value on hover', async () => {
    await withFigure(async (page) => {
      const cell = page
        .locator(`${SLIDE} .pos-pe-map [role="gridcell"]`)
        .nth(2 * embeddingWidth() + 1);
      await cell.hover();
      const value = Number(await cell.getAttribute('data-value'));
      assert.ok(Math.abs(value - Math.cos(2)) < 1e-6, 'PE(2, 1) = cos 2');
      const readout = await page.locator(`${SLIDE} .pos-readout`).textContent();
      assert.equal(readout, `position “2”, dimension “1”: encoding value ${value.toFixed(3)}`);
    });
  });

  for (const colorScheme of /** @type {const} */ (['light', 'dark'])) {
    test(`axe finds nothing on the slide, shuffled, with PE and tables open (${colorScheme})`, async () => {
      await withFigure(
        async (page) => {
          await page.locator(`${SLIDE} .pos-shuffle`).click();
          await page.locator(`${SLIDE} .pos-pe`).check();
          await page.locator(`${SLIDE} .pos-tables summary`).click();
          assert.deepEqual(await axeFindings(page, colorScheme, SLIDE), []);
        },
        { colorScheme },
      );
    });
  }
});
