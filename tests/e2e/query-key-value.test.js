// End-to-end tests of the query-key-value figure on its slide: X, W_Q, W_K, W_V, Q, K, V and the
// scores Q K^T, named with their shapes, hold the engine's own numbers (recomputed here in Node:
// the word vectors are real and the projections seeded), for seeded projections of each width and
// for the identity; a new sentence, seed or d_k redraws them; a score pointed at or focused writes
// out its dot product and outlines row i of Q and row j of K; bad input gets words, not a figure;
// arrow keys in the figure keep the slide; the inputs survive leaving the slide; axe finds nothing.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { loadEngine } from 'attention-lab';

import { sentenceTokens } from '../../web/src/widgets/shared/token-matrix.js';
import { axeFindings } from './axe.js';
import { currentSlide, useSite, waitForSlide } from './browser.js';

const TIMEOUT = 15_000;
const SLIDE = '#query-key-value';
const MAX_TOKENS = 8;
const D = 100;
const engine = await loadEngine();
engine.loadEmbeddings(
  readFileSync(new URL('../../web/public/embeddings/en-20k-100d.bin', import.meta.url)),
);
const site = useSite();

/**
 * @param {ArrayLike<number>} m (rows, cols)
 * @param {number} rows
 * @param {number} cols
 * @returns {Float32Array} (cols, rows)
 */
function transposed(m, rows, cols) {
  const out = new Float32Array(rows * cols);
  for (let i = 0; i < rows; i++) for (let j = 0; j < cols; j++) out[j * rows + i] = m[i * cols + j];
  return out;
}

/**
 * What the engine gives for the figure's inputs: X from the word vectors; W_Q, W_K, W_V
 * Glorot-uniform (100, d_k) from the seed and the two after it, and X W from attention's trace
 * (scores = q k^T with q = X, k = W^T), or the identity; then the scores Q K^T.
 * @param {string} sentence
 * @param {{ kind: 'identity' | 'random', seed?: number, dk?: number }} projection
 */
function expected(sentence, { kind, seed = 1, dk = 8 }) {
  const tokens = sentenceTokens(engine, sentence).slice(0, MAX_TOKENS);
  const n = tokens.length;
  const x = engine.embed(tokens).vectors;
  const scoresOf = (q, k, width) =>
    engine.attention({ q, k, v: k, nq: n, nk: n, dk: width, dv: width }).scores;
  if (kind === 'identity') {
    const eye = new Float32Array(D * D).map((_, at) => (at % (D + 1) === 0 ? 1 : 0));
    return { tokens, n, dk: D, q: x, k: x, tables: [x, eye, scoresOf(x, x, D)].map(list) };
  }
  const w = [0, 1, 2].map((m) => engine.glorotUniform(D, dk, (seed + m) % 2 ** 32));
  const [q, k, v] = w.map(
    (matrix) =>
      engine.attention({
        ...{ q: x, k: transposed(matrix, D, dk), v: new Float32Array(dk) },
        ...{ nq: n, nk: dk, dk: D, dv: 1 },
      }).scores,
  );
  return { tokens, n, dk, q, k, tables: [x, ...w, q, k, v, scoresOf(q, k, dk)].map(list) };
}

/** @param {ArrayLike<number>} values */
const list = (values) => Array.from(values);

/** @param {(page: import('playwright-core').Page) => Promise<void>} body */
function withFigure(body, options) {
  return site.visit(
    'index.html#/query-key-value',
    async (page) => {
      await waitForSlide(page, 'query-key-value');
      await page.locator(`${SLIDE} .qkv-scores svg.heatmap-svg`).waitFor({ timeout: TIMEOUT });
      await body(page);
    },
    options,
  );
}

/**
 * Everything the figure shows: the tiles' names and shapes, each table's row labels and values,
 * the score grid's values, and the state of the inputs.
 * @param {import('playwright-core').Page} page
 */
function readFigure(page) {
  return page.locator(SLIDE).evaluate((slide) => ({
    names: Array.from(slide.querySelectorAll('.qkv-name'), (n) =>
      n.textContent.replace(/\s+/g, ' ').trim(),
    ),
    tables: Array.from(slide.querySelectorAll('.qkv-tables table'), (table) => ({
      rows: Array.from(table.querySelectorAll('tbody th'), (th) => th.textContent),
      values: Array.from(table.querySelectorAll('td'), (td) => Number(td.dataset.value)),
    })),
    scoreCells: Array.from(slide.querySelectorAll('.qkv-scores [role="gridcell"]'), (c) =>
      Number(c.dataset.value),
    ),
    shown: !slide.querySelector('.qkv-result').hidden,
    seedDisabled: slide.querySelector('.qkv-seed').disabled,
  }));
}

/**
 * Checks the figure against the engine's numbers for the same input.
 * @param {Awaited<ReturnType<typeof readFigure>>} shown
 * @param {string} sentence
 * @param {{ kind: 'identity' | 'random', seed?: number, dk?: number }} projection
 */
function assertMatchesEngine(shown, sentence, projection) {
  const want = expected(sentence, projection);
  const { n, dk } = want;
  const identity = projection.kind === 'identity';
  assert.deepEqual(
    shown.names,
    identity
      ? [`X = Q = K = V ${n} × ${D}`, `WQ = WK = WV = I ${D} × ${D}`, `QKT ${n} × ${n}`]
      : [
          `X ${n} × ${D}`,
          ...['Q', 'K', 'V'].map((m) => `W${m} ${D} × ${dk}`),
          ...['Q', 'K', 'V'].map((m) => `${m} ${n} × ${dk}`),
          `QKT ${n} × ${n}`,
        ],
  );
  assert.equal(shown.tables.length, want.tables.length, 'a table per matrix');
  shown.tables.forEach((table, t) => assert.deepEqual(table.values, want.tables[t], `table ${t}`));
  assert.deepEqual(shown.tables[0].rows, want.tokens, 'X has a row per token');
  assert.deepEqual(shown.tables.at(-1).rows, want.tokens, 'the scores have a row per query');
  assert.deepEqual(shown.scoreCells, want.tables.at(-1), 'the score grid draws the same numbers');
}

/** One factor as the figure writes it: two decimals, negatives in brackets. */
const factor = (value) =>
  value < 0 && Math.abs(value).toFixed(2) !== '0.00'
    ? `(\u2212${Math.abs(value).toFixed(2)})`
    : Math.abs(value).toFixed(2);

/**
 * The read-out for score (i, j): the cell's name and value, then the dot product written out.
 * @param {ReturnType<typeof expected>} want
 * @param {number} i
 * @param {number} j
 */
function explanation(want, i, j) {
  const { tokens, n, dk, q, k } = want;
  const score = want.tables.at(-1)[i * n + j];
  const terms = [0, 1, 2].map((c) => `${factor(q[i * dk + c])} × ${factor(k[j * dk + c])}`);
  return (
    `query “${tokens[i]}” to key “${tokens[j]}”: score ${score.toFixed(3)} ` +
    `q${i + 1} “${tokens[i]}” · k${j + 1} “${tokens[j]}” = ${terms.join(' + ')} + … ` +
    `(${dk} terms) = ${score.toFixed(3).replace('-', '\u2212')}`
  );
}

/**
 * Which rows are outlined and whose labels are marked, per tile of the token matrices.
 * @param {import('playwright-core').Page} page
 */
function outlined(page) {
  return page.locator(SLIDE).evaluate((slide) =>
    Array.from(slide.querySelectorAll('.qkv-x, .qkv-p'), (tile) => ({
      bands: tile.querySelectorAll('.row-band').length,
      labels: Array.from(tile.querySelectorAll('.row-label.active'), (t) => t.textContent),
      // The outline's top edge is one pixel above its row's cells.
      rows: Array.from(tile.querySelectorAll('.row-band'), (band) => {
        const y = Number(band.getAttribute('y')) + 1;
        const cells = [...tile.querySelectorAll('[role="gridcell"]')];
        return cells.findIndex((c) => Math.abs(Number(c.getAttribute('y')) - y) < 1e-6);
      }),
    })),
  );
}

const SENTENCE = 'The cat sat on the mat';
const DEFAULT = { kind: /** @type {const} */ ('random'), seed: 1, dk: 8 };

describe('the query-key-value figure', () => {
  test('it shows X, W_Q, W_K, W_V, Q, K, V and the scores with the engine’s numbers', async () => {
    await withFigure(async (page) => {
      const shown = await readFigure(page);
      assert.equal(shown.shown, true);
      assert.equal(shown.seedDisabled, false);
      assertMatchesEngine(shown, SENTENCE, DEFAULT);
    });
  });

  test('a new sentence, d_k and seed redraw the figure with the engine’s numbers', async () => {
    await withFigure(async (page) => {
      const before = await readFigure(page);
      const sentence = 'Dogs chase cats.';
      await page.locator(`${SLIDE} .qkv-sentence`).fill(sentence);
      const typed = await readFigure(page);
      assert.deepEqual(typed.tables[0].rows, ['dogs', 'chase', 'cats', '.']);
      assertMatchesEngine(typed, sentence, DEFAULT);

      for (const dk of [16, 4]) {
        await page
          .locator(`${SLIDE} .qkv-dks .qkv-choice`, { hasText: new RegExp(`^${dk}$`) })
          .click();
        const wider = await readFigure(page);
        assert.notDeepEqual(wider.scoreCells, typed.scoreCells, 'new widths, new scores');
        assertMatchesEngine(wider, sentence, { ...DEFAULT, dk });
      }

      await page.locator(`${SLIDE} .qkv-seed`).fill('4294967294');
      const reseeded = await readFigure(page);
      assertMatchesEngine(reseeded, sentence, { kind: 'random', seed: 4294967294, dk: 4 });
      assert.notDeepEqual(reseeded.tables[1].values, before.tables[1].values, 'a new W_Q');
    });
  });

  test('identity projections make Q, K and V the word vectors, with d_k = 100', async () => {
    await withFigure(async (page) => {
      await page.locator(`${SLIDE} .qkv-kinds .qkv-choice`, { hasText: 'Identity' }).click();
      const shown = await readFigure(page);
      assert.equal(shown.seedDisabled, true, 'the seed does not apply');
      assert.equal(await page.locator(`${SLIDE} .qkv-dks input:disabled`).count(), 3);
      assertMatchesEngine(shown, SENTENCE, { kind: 'identity' });

      // A seed the engine would refuse does not matter to the identity.
      const alert = page.locator(`${SLIDE} .qkv-error`);
      await page.locator(`${SLIDE} .qkv-kinds .qkv-choice`, { hasText: 'Seeded' }).click();
      await page.locator(`${SLIDE} .qkv-seed`).fill('-1');
      assert.equal(await alert.isVisible(), true);
      await page.locator(`${SLIDE} .qkv-kinds .qkv-choice`, { hasText: 'Identity' }).click();
      assert.equal(await alert.isVisible(), false);
      assertMatchesEngine(await readFigure(page), SENTENCE, { kind: 'identity' });
      await page.locator(`${SLIDE} .qkv-kinds .qkv-choice`, { hasText: 'Seeded' }).click();
      assert.equal((await readFigure(page)).shown, false, 'the seed matters again');
      await page.locator(`${SLIDE} .qkv-seed`).fill('12');
      assertMatchesEngine(await readFigure(page), SENTENCE, { ...DEFAULT, seed: 12 });
    });
  });

  test('pointing at a score writes out q_i · k_j and outlines row i of Q and row j of K', async () => {
    await withFigure(async (page) => {
      const want = expected(SENTENCE, DEFAULT);
      const readout = page.locator(`${SLIDE} .qkv-readout`);
      const hint = await readout.textContent();
      for (const [i, j] of [
        [1, 4],
        [5, 0],
      ]) {
        await page
          .locator(`${SLIDE} .qkv-scores [role="gridcell"]`)
          .nth(i * want.n + j)
          .hover();
        assert.equal((await readout.textContent()).replace(/\s+/g, ' '), explanation(want, i, j));
        const [x, q, k, v] = await outlined(page);
        assert.deepEqual([x.bands, v.bands], [0, 0], 'only Q and K are outlined');
        assert.deepEqual(q, { bands: 1, labels: [want.tokens[i]], rows: [i * want.dk] });
        assert.deepEqual(k, { bands: 1, labels: [want.tokens[j]], rows: [j * want.dk] });
      }
      await page.locator(`${SLIDE} .slide-heading`).hover();
      assert.equal(await readout.textContent(), hint, 'the read-out lets go');
      assert.equal(
        (await outlined(page)).reduce((sum, tile) => sum + tile.bands, 0),
        0,
      );
    });
  });

  test('with the identity, both rows are outlined in X, which is Q and K', async () => {
    await withFigure(async (page) => {
      await page.locator(`${SLIDE} .qkv-kinds .qkv-choice`, { hasText: 'Identity' }).click();
      const want = expected(SENTENCE, { kind: 'identity' });
      await page
        .locator(`${SLIDE} .qkv-scores [role="gridcell"]`)
        .nth(2 * want.n + 3)
        .hover();
      const readout = (await page.locator(`${SLIDE} .qkv-readout`).textContent()).replace(
        /\s+/g,
        ' ',
      );
      assert.equal(readout, explanation(want, 2, 3));
      const [x] = await outlined(page);
      assert.deepEqual(x, {
        bands: 2,
        labels: [want.tokens[2], want.tokens[3]],
        rows: [2 * D, 3 * D],
      });
    });
  });

  test('the keyboard alone reaches the scores and explains them; arrows keep the slide', async () => {
    await withFigure(async (page) => {
      const want = expected(SENTENCE, DEFAULT);
      await page.locator(`${SLIDE} .qkv-scores [role="gridcell"][tabindex="0"]`).focus();
      await page.keyboard.press('ArrowRight');
      await page.keyboard.press('ArrowDown');
      await page.keyboard.press('ArrowDown');
      const readout = page.locator(`${SLIDE} .qkv-readout`);
      assert.equal((await readout.textContent()).replace(/\s+/g, ' '), explanation(want, 2, 1));
      const [, q, k] = await outlined(page);
      assert.deepEqual([q.labels, k.labels], [[want.tokens[2]], [want.tokens[1]]]);
      assert.equal(await currentSlide(page), 'query-key-value');

      // The radio groups take arrow keys too, without moving the slide.
      await page.locator(`${SLIDE} .qkv-dks input:checked`).focus();
      await page.keyboard.press('ArrowRight');
      assertMatchesEngine(await readFigure(page), SENTENCE, { ...DEFAULT, dk: 16 });
      await page.locator(`${SLIDE} .qkv-kinds input:checked`).focus();
      await page.keyboard.press('ArrowLeft');
      assertMatchesEngine(await readFigure(page), SENTENCE, { kind: 'identity' });
      assert.equal(await currentSlide(page), 'query-key-value');
    });
  });

  test('empty text gets a prompt; a long sentence is cut to eight tokens, with a notice', async () => {
    await withFigure(async (page) => {
      const status = page.locator(`${SLIDE} .qkv-status`);
      await page.locator(`${SLIDE} .qkv-sentence`).fill('  \n ');
      assert.match(await status.textContent(), /Type a short sentence/);
      assert.equal((await readFigure(page)).shown, false);
      assert.equal(await page.locator(`${SLIDE} .qkv-error`).isVisible(), false);

      const long = 'The cat sat on the mat because it was tired.';
      await page.locator(`${SLIDE} .qkv-sentence`).fill(long);
      assert.equal(await status.textContent(), 'Showing the first 8 of 11 tokens.');
      assertMatchesEngine(await readFigure(page), long, DEFAULT);
    });
  });

  test('markup is shown as text; emoji, Chinese and Hebrew work, unknown tokens are marked', async () => {
    await withFigure(async (page) => {
      const markup = '<img src=x onerror=alert(1)><b>bold</b>';
      await page.locator(`${SLIDE} .qkv-sentence`).fill(markup);
      const shown = await readFigure(page);
      assert.deepEqual(shown.tables[0].rows, sentenceTokens(engine, markup).slice(0, MAX_TOKENS));
      assert.equal(await page.locator(`${SLIDE} img, ${SLIDE} b`).count(), 0);
      assertMatchesEngine(shown, markup, DEFAULT);

      const mixed = 'שלום 🙂 猫 and cats';
      await page.locator(`${SLIDE} .qkv-sentence`).fill(mixed);
      assertMatchesEngine(await readFigure(page), mixed, DEFAULT);
      const unknown = sentenceTokens(engine, mixed).filter((t) => !engine.embed([t]).known[0]);
      assert.ok(unknown.length > 0, 'the sentence has tokens outside the vocabulary');
      const marked = await page
        .locator(`${SLIDE} .qkv-x .row-label.unknown`)
        .evaluateAll((labels) => labels.map((l) => l.textContent));
      assert.deepEqual(marked, unknown);
      assert.match(
        await page.locator(`${SLIDE} .qkv-unknown`).textContent(),
        /Not in the vocabulary/,
      );

      const none = 'zqxv blorpt';
      await page.locator(`${SLIDE} .qkv-sentence`).fill(none);
      assertMatchesEngine(await readFigure(page), none, DEFAULT);
      assert.equal(await page.locator(`${SLIDE} .qkv-x .row-label.unknown`).count(), 2);
    });
  });

  test('a seed out of range is named and hides the figure until it is fixed', async () => {
    await withFigure(async (page) => {
      const seed = page.locator(`${SLIDE} .qkv-seed`);
      const alert = page.locator(`${SLIDE} .qkv-error`);
      for (const bad of ['-3', '2.5', '4294967296']) {
        await seed.fill(bad);
        assert.match(await alert.textContent(), /whole number from 0 to 4294967295/);
        assert.equal((await readFigure(page)).shown, false);
      }
      await seed.fill('7');
      assert.equal(await alert.isVisible(), false);
      assertMatchesEngine(await readFigure(page), SENTENCE, { ...DEFAULT, seed: 7 });
    });
  });

  test('leaving the slide and coming back keeps the sentence, projection, seed and d_k', async () => {
    await withFigure(async (page) => {
      await page.locator(`${SLIDE} .qkv-sentence`).fill('Birds sing');
      await page.locator(`${SLIDE} .qkv-seed`).fill('5');
      await page.locator(`${SLIDE} .qkv-dks .qkv-choice`, { hasText: /^4$/ }).click();
      await page.locator(`${SLIDE} .slide-heading`).click();
      await page.keyboard.press('ArrowRight');
      await page.waitForFunction(
        () => document.querySelector('.reveal .slides > section.present')?.id !== 'query-key-value',
      );
      assert.equal(await page.locator(`${SLIDE} .qkv`).count(), 0, 'the left slide lets go');
      await page.keyboard.press('ArrowLeft');
      await waitForSlide(page, 'query-key-value');
      await page.locator(`${SLIDE} .qkv-scores svg.heatmap-svg`).waitFor({ timeout: TIMEOUT });
      assert.equal(await page.locator(`${SLIDE} .qkv-sentence`).inputValue(), 'Birds sing');
      assertMatchesEngine(await readFigure(page), 'Birds sing', { kind: 'random', seed: 5, dk: 4 });
    });
  });

  for (const colorScheme of /** @type {const} */ (['light', 'dark'])) {
    test(`axe finds nothing on the slide, hovered, with its tables open (${colorScheme})`, async () => {
      await withFigure(
        async (page) => {
          // A short sentence and narrow projections keep the grids and tables small for axe.
          await page.locator(`${SLIDE} .qkv-sentence`).fill('Dogs chase cats.');
          await page.locator(`${SLIDE} .qkv-dks .qkv-choice`, { hasText: /^4$/ }).click();
          await page.locator(`${SLIDE} .qkv-scores [role="gridcell"]`).nth(3).hover();
          await page.locator(`${SLIDE} .qkv-tables summary`).click();
          assert.deepEqual(await axeFindings(page, colorScheme, SLIDE), []);
        },
        { colorScheme },
      );
    });
  }
});
