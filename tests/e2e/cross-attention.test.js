// End-to-end tests of the cross-attention figure on its slide: by default the queries come from
// sentence A and the keys and values from sentence B, and the table holds the engine's weights
// (recomputed here in Node from the same word vectors) with A's tokens as rows and B's as columns;
// a longer sentence B makes the grid a rectangle; the mode switch turns the pair into a square
// self-attention of either sentence; seeded projections give the engine's projected weights; the
// line of shapes follows; bad input gets words, not a broken figure; cells read out on hover and
// focus; keys inside the figure keep the slide; the inputs survive leaving the slide; axe finds
// nothing, in light and dark.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { loadEngine } from 'attention-lab';

import { sentenceTokens } from '../../web/src/widgets/shared/token-matrix.js';
import { axeFindings } from './axe.js';
import { currentSlide, useSite, waitForSlide } from './browser.js';

const TIMEOUT = 15_000;
const ID = 'cross-attention';
const SLIDE = `#${ID}`;
const SENTENCE_A = 'The cat sat on the mat';
const SENTENCE_B = 'A kitten rested on the rug';
const LONGER_B = 'A dog slept on the old sofa by the door.';
const engine = await loadEngine();
engine.loadEmbeddings(
  readFileSync(new URL('../../web/public/embeddings/en-20k-100d.bin', import.meta.url)),
);
const site = useSite();

/**
 * What the engine gives for queries from one text and keys and values from another: the word
 * vectors as Q and K = V, or (with a seed) one head of multi-head attention with Glorot-uniform
 * W_Q, W_K, W_V, W_O from the seed and the three after it.
 * @param {string} queryText
 * @param {string} keyText
 * @param {number | null} [seed]
 */
function expected(queryText, keyText, seed = null) {
  const rows = sentenceTokens(engine, queryText).slice(0, 16);
  const cols = sentenceTokens(engine, keyText).slice(0, 16);
  const q = engine.embed(rows);
  const k = engine.embed(cols);
  const [nq, nk, d] = [rows.length, cols.length, q.d];
  let weights;
  if (seed === null) {
    ({ weights } = engine.attention({
      q: q.vectors,
      k: k.vectors,
      v: k.vectors,
      nq,
      nk,
      dk: d,
      dv: d,
    }));
  } else {
    const [wq, wk, wv, wo] = [0, 1, 2, 3].map((s) => engine.glorotUniform(d, d, seed + s));
    const args = { xq: q.vectors, xkv: k.vectors, nq, nk, dModel: d, heads: 1 };
    ({ weights } = engine.multiHeadAttention({ ...args, wq, wk, wv, wo }).heads[0]);
  }
  const unknown = (known) => Array.from(known, (flag) => flag === 0);
  return {
    rows,
    cols,
    values: Array.from(weights),
    unknownRows: unknown(q.known),
    unknownCols: unknown(k.known),
  };
}

/**
 * @param {(page: import('playwright-core').Page) => Promise<void>} body
 * @param {import('./browser.js').PageOptions} [options]
 */
function withFigure(body, options) {
  return site.visit(
    `index.html?figure=${ID}&show=${ID}#/${ID}`,
    async (page) => {
      await waitForSlide(page, ID);
      await page.locator(`${SLIDE} .xa-figure svg.heatmap-svg`).waitFor({ timeout: TIMEOUT });
      await body(page);
    },
    options,
  );
}

/**
 * Everything the figure shows: the table's column and row headers and values, the grid's cells
 * and marked labels, the line of shapes, the note, the mode chosen and the messages.
 * @param {import('playwright-core').Page} page
 */
function readFigure(page) {
  return page.locator(SLIDE).evaluate((slide) => {
    const table = slide.querySelector('.xa-tables table');
    const texts = (nodes) => Array.from(nodes, (node) => node.textContent);
    const visible = (selector) => {
      const node = slide.querySelector(selector);
      return node && !node.hidden && !node.closest('[hidden]') ? node.textContent : '';
    };
    return {
      mode: slide.querySelector('.xa-choice input:checked')?.value,
      shown: !slide.querySelector('.xa-result').hidden,
      cols: table ? texts(table.querySelectorAll('thead th')).slice(1) : [],
      rows: table ? texts(table.querySelectorAll('tbody th')) : [],
      corner: table?.querySelector('thead th')?.textContent,
      values: table
        ? Array.from(table.querySelectorAll('td'), (td) => Number(td.dataset.value))
        : [],
      cells: Array.from(slide.querySelectorAll('.xa-figure [role="gridcell"]'), (c) =>
        Number(c.dataset.value),
      ),
      unknownRows: Array.from(slide.querySelectorAll('.xa-figure .row-label'), (t) =>
        t.classList.contains('unknown'),
      ),
      unknownCols: Array.from(slide.querySelectorAll('.xa-figure .col-label'), (t) =>
        t.classList.contains('unknown'),
      ),
      shapes: visible('.xa-shapes'),
      note: visible('.xa-note')?.replace(/\s+/g, ' ').trim(),
      status: visible('.xa-status'),
      error: visible('.xa-error'),
    };
  });
}

/**
 * @param {Awaited<ReturnType<typeof readFigure>>} shown
 * @param {ReturnType<typeof expected>} want
 */
function assertMatchesEngine(shown, want) {
  assert.equal(shown.shown, true, 'the figure is shown');
  assert.deepEqual(shown.rows, want.rows, 'one row per query token');
  assert.deepEqual(shown.cols, want.cols, 'one column per key token');
  assert.deepEqual(shown.values, want.values, 'the table holds the engine’s weights');
  assert.deepEqual(shown.cells, want.values, 'the grid draws the same numbers');
  assert.deepEqual(shown.unknownRows, want.unknownRows, 'unknown query tokens are marked');
  assert.deepEqual(shown.unknownCols, want.unknownCols, 'unknown key tokens are marked');
}

/**
 * @param {import('playwright-core').Page} page
 * @param {'Cross' | 'Self: A' | 'Self: B'} name the start of the mode's label
 */
const chooseMode = (page, name) => page.locator(`${SLIDE} .xa-choice`, { hasText: name }).click();

describe('the cross-attention figure', () => {
  test('by default A’s tokens query B’s: the engine’s weights, A rows and B columns', async () => {
    await withFigure(async (page) => {
      const shown = await readFigure(page);
      const want = expected(SENTENCE_A, SENTENCE_B);
      assert.equal(shown.mode, 'cross');
      assertMatchesEngine(shown, want);
      assert.equal(shown.corner, 'A query \\ B key', 'the table names its rows and columns');
      const [nq, nk] = [want.rows.length, want.cols.length];
      assert.equal(
        shown.shapes,
        `Queries: ${nq} tokens of sentence A; keys and values: ${nk} tokens of sentence B; ` +
          `weights ${nq} \u00d7 ${nk}, each row sums to 1.`,
      );
      // The default pair happens to be the same length: the note says so.
      assert.match(shown.note, new RegExp(`^Square, ${nq} \u00d7 ${nk}: only by chance`));
      const missing = want.cols.filter((_, j) => want.unknownCols[j]);
      assert.deepEqual(missing, [], 'every word of the default pair has a real vector');
      assert.doesNotMatch(shown.note, /vocabulary/);
    });
  });

  test('a longer sentence B makes the grid a rectangle, n_q by n_k', async () => {
    await withFigure(async (page) => {
      const before = await readFigure(page);
      await page.locator(`${SLIDE} .xa-b`).fill(LONGER_B);
      const shown = await readFigure(page);
      const want = expected(SENTENCE_A, LONGER_B);
      assert.notEqual(want.rows.length, want.cols.length);
      assertMatchesEngine(shown, want);
      assert.notDeepEqual(shown.cols, before.cols);
      const [nq, nk] = [want.rows.length, want.cols.length];
      assert.match(
        shown.shapes,
        new RegExp(`: ${nk} tokens of sentence B; weights ${nq} \u00d7 ${nk},`),
      );
      assert.match(shown.note, new RegExp(`^Rectangle, ${nq} \u00d7 ${nk}: `));
      assert.equal(shown.cells.length, nq * nk);
    });
  });

  test('the mode switch turns the pair into the square self-attention of either sentence', async () => {
    await withFigure(async (page) => {
      await page.locator(`${SLIDE} .xa-b`).fill(LONGER_B);
      await chooseMode(page, 'Self: A');
      let shown = await readFigure(page);
      const selfA = expected(SENTENCE_A, SENTENCE_A);
      assert.equal(shown.mode, 'self-a');
      assertMatchesEngine(shown, selfA);
      assert.equal(shown.corner, 'A query \\ A key');
      const n = selfA.rows.length;
      assert.equal(
        shown.shapes,
        `Queries, keys and values: ${n} tokens of sentence A; weights ${n} \u00d7 ${n}, each row sums to 1.`,
      );
      assert.match(shown.note, /^Square, .*always/);

      await chooseMode(page, 'Self: B');
      shown = await readFigure(page);
      const selfB = expected(LONGER_B, LONGER_B);
      assertMatchesEngine(shown, selfB);
      assert.equal(shown.rows.length, shown.cols.length, 'a square');
      assert.match(shown.shapes, /^Queries, keys and values: \d+ tokens of sentence B;/);

      await chooseMode(page, 'Cross');
      assertMatchesEngine(await readFigure(page), expected(SENTENCE_A, LONGER_B));
    });
  });

  test('random projections give the engine’s projected weights; a bad seed is named', async () => {
    await withFigure(async (page) => {
      const plain = await readFigure(page);
      const seedBox = page.locator(`${SLIDE} .xa-seed`);
      assert.equal(await seedBox.isDisabled(), true, 'no seed without projections');
      await page.locator(`${SLIDE} .xa-project`).check();
      const projected = await readFigure(page);
      assertMatchesEngine(projected, expected(SENTENCE_A, SENTENCE_B, 1));
      assert.notDeepEqual(projected.values, plain.values, 'projections change the weights');

      await seedBox.fill('4294967290');
      assertMatchesEngine(await readFigure(page), expected(SENTENCE_A, SENTENCE_B, 4294967290));

      await seedBox.fill('-2');
      const refused = await readFigure(page);
      assert.match(refused.error, /whole number from 0 to 4294967295/);
      assert.equal(refused.shown, false, 'no figure for a bad seed');

      await page.locator(`${SLIDE} .xa-project`).uncheck();
      const back = await readFigure(page);
      assert.equal(back.error, '', 'the seed does not matter without projections');
      assertMatchesEngine(back, expected(SENTENCE_A, SENTENCE_B));
    });
  });

  test('an empty sentence gets a prompt, unless the mode does not use it', async () => {
    await withFigure(async (page) => {
      await page.locator(`${SLIDE} .xa-a`).fill('   ');
      let shown = await readFigure(page);
      assert.equal(shown.shown, false);
      assert.match(shown.status, /^Type sentence A/);
      assert.equal(shown.error, '');

      await chooseMode(page, 'Self: B');
      shown = await readFigure(page);
      assert.equal(shown.status, '', 'self-attention of B needs no sentence A');
      assertMatchesEngine(shown, expected(SENTENCE_B, SENTENCE_B));

      await page.locator(`${SLIDE} .xa-b`).fill('');
      shown = await readFigure(page);
      assert.equal(shown.shown, false);
      assert.match(shown.status, /^Type sentence B/);
    });
  });

  test('markup is shown as text; emoji, CJK, RTL and unknown words all draw', async () => {
    await withFigure(async (page) => {
      const markup = '<img src=x onerror="alert(1)"><b>bold</b>';
      await page.locator(`${SLIDE} .xa-a`).fill(markup);
      const shown = await readFigure(page);
      assertMatchesEngine(shown, expected(markup, SENTENCE_B));
      assert.ok(shown.rows.includes('img') && shown.rows.includes('<'), 'tokens of the text');
      assert.equal(await page.locator(`${SLIDE} img, ${SLIDE} b`).count(), 0, 'nothing is run');

      const mixed = 'cats 😀 猫 قطة zzqxv';
      await page.locator(`${SLIDE} .xa-b`).fill(mixed);
      const world = await readFigure(page);
      const want = expected(markup, mixed);
      assertMatchesEngine(world, want);
      assert.ok(want.unknownCols.filter(Boolean).length >= 3, 'several marked tokens');
      assert.match(world.note, /Not in the vocabulary/);

      await page.locator(`${SLIDE} .xa-a`).fill('qqzx vvbnw');
      const none = await readFigure(page);
      assertMatchesEngine(none, expected('qqzx vvbnw', mixed));
      assert.deepEqual(none.unknownRows, [true, true], 'a sentence of unknown words still draws');
    });
  });

  test('more than 16 tokens are cut, with a notice', async () => {
    await withFigure(async (page) => {
      const long = Array.from({ length: 20 }, (_, i) => ['red', 'blue', 'green', 'gold'][i % 4]);
      await page.locator(`${SLIDE} .xa-b`).fill(long.join(' '));
      const shown = await readFigure(page);
      assert.equal(shown.status, 'Sentence B: showing the first 16 of 20 tokens.');
      assertMatchesEngine(shown, expected(SENTENCE_A, long.join(' ')));
      assert.equal(shown.cols.length, 16);
    });
  });

  test('a cell names both tokens and its weight on hover and focus; keys keep the slide', async () => {
    await withFigure(async (page) => {
      const want = expected(SENTENCE_A, SENTENCE_B);
      const nk = want.cols.length;
      const readout = page.locator(`${SLIDE} .xa-readout`);
      const describe = (i, j) => {
        const unknown = want.unknownCols[j] ? ' (not in the vocabulary)' : '';
        const value = want.values[i * nk + j].toFixed(3);
        return `A query \u201c${want.rows[i]}\u201d to B key \u201c${want.cols[j]}\u201d${unknown}: weight ${value}`;
      };
      await page
        .locator(`${SLIDE} .xa-figure [role="gridcell"]`)
        .nth(nk + 1)
        .hover();
      assert.equal(await readout.textContent(), describe(1, 1));

      await page.mouse.move(0, 0);
      await page.locator(`${SLIDE} .xa-figure [role="gridcell"][tabindex="0"]`).focus();
      for (const key of ['ArrowDown', 'ArrowRight', 'ArrowRight', 'ArrowDown']) {
        await page.keyboard.press(key);
      }
      assert.equal(await readout.textContent(), describe(2, 2));
      assert.equal(await currentSlide(page), ID, 'arrow keys in the grid keep the slide');

      await page.locator(`${SLIDE} .xa-choice input:checked`).focus();
      await page.keyboard.press('ArrowRight');
      assert.equal((await readFigure(page)).mode, 'self-a', 'arrow keys move through the modes');
      await page.locator(`${SLIDE} .xa-a`).focus();
      await page.keyboard.press('End');
      await page.keyboard.press('ArrowLeft');
      assert.equal(await currentSlide(page), ID, 'typing keys keep the slide');
    });
  });

  test('leaving the slide and coming back keeps both sentences, the mode and the seed', async () => {
    await withFigure(async (page) => {
      await page.locator(`${SLIDE} .xa-a`).fill('Birds sing');
      await page.locator(`${SLIDE} .xa-b`).fill(LONGER_B);
      await chooseMode(page, 'Self: B');
      await page.locator(`${SLIDE} .xa-project`).check();
      await page.locator(`${SLIDE} .xa-seed`).fill('12');
      await page.locator(`${SLIDE} .slide-heading`).click();
      await page.keyboard.press('ArrowRight');
      await page.waitForFunction(
        (id) => !document.getElementById(id).classList.contains('present'),
        ID,
      );
      await page.keyboard.press('ArrowLeft');
      await waitForSlide(page, ID);
      await page.locator(`${SLIDE} .xa-figure svg.heatmap-svg`).waitFor({ timeout: TIMEOUT });
      assert.equal(await page.locator(`${SLIDE} .xa-a`).inputValue(), 'Birds sing');
      assert.equal(await page.locator(`${SLIDE} .xa-b`).inputValue(), LONGER_B);
      assert.equal(await page.locator(`${SLIDE} .xa-seed`).inputValue(), '12');
      const shown = await readFigure(page);
      assert.equal(shown.mode, 'self-b');
      assertMatchesEngine(shown, expected(LONGER_B, LONGER_B, 12));
    });
  });

  test('on a 360 px phone the figure scrolls with the page, never sideways', async () => {
    await withFigure(
      async (page) => {
        await page.locator(`${SLIDE} .xa-b`).fill(`${LONGER_B} ${LONGER_B}`);
        const sideways = await page.evaluate((id) => {
          const section = document.getElementById(id);
          return Math.max(
            section.scrollWidth - section.clientWidth,
            document.documentElement.scrollWidth - document.documentElement.clientWidth,
          );
        }, ID);
        assert.equal(sideways, 0);
        assertMatchesEngine(
          await readFigure(page),
          expected(SENTENCE_A, `${LONGER_B} ${LONGER_B}`),
        );
      },
      { viewport: { width: 360, height: 740 } },
    );
  });

  for (const colorScheme of /** @type {const} */ (['light', 'dark'])) {
    test(`axe finds nothing on the slide with its table open (${colorScheme})`, async () => {
      await withFigure(
        async (page) => {
          await page.locator(`${SLIDE} .xa-tables summary`).click();
          await page.locator(`${SLIDE} .xa-project`).check();
          assert.deepEqual(await axeFindings(page, colorScheme, SLIDE), []);
        },
        { colorScheme },
      );
    });
  }
});
