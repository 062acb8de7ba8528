// End-to-end tests of the multi-head figure on its slide (the figure's Untrained view, which the
// address names; the trained model's view is tested in language-model.test.js): the head counts offered are the divisors
// of d_model; choosing one, typing a sentence or a seed redraws one heatmap per head and the
// combined output, with the engine's own numbers (recomputed here in Node: the projections are
// seeded); d_k and the two parameter counts are shown and equal; cells read out on hover; arrow
// keys in the figure keep the slide; a sentence of up to 64 tokens is drawn whole, a longer one is
// cut there and says so; grids too large for an element per cell are pictures, one pixel per
// value in the colours of the cells, read with the pointer and the keys; a redraw keeps the
// drawing, its focus and its active cell, comes once per frame, and tables are built only while
// open; words outside the vocabulary are marked; every head count fits the slide's frame (1280 x
// 720) and a phone scrolls nothing sideways; axe finds nothing, in light and dark, with pictures
// shown.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { loadEngine } from 'attention-lab';

import { symmetricRange, weightRange } from '../../web/src/widgets/shared/figure-range.js';
import {
  embeddingWidth,
  sentenceTokens,
  tokenMatrix,
} from '../../web/src/widgets/shared/token-matrix.js';
import { axeFindings } from './axe.js';
import {
  afterFrame,
  currentSlide,
  openTables,
  readPicture,
  useSite,
  waitForSlide,
} from './browser.js';

const TIMEOUT = 15_000;
const SLIDE = '#multi-head';
/** The most tokens the figure draws, as in the lesson's other figures. */
const MAX_TOKENS = 64;
/** The disclosure of the tables, built when it is opened. */
const TABLES = `${SLIDE} .mh-tables details`;
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
    'index.html?figure=multi-head&show=multi-head#/multi-head',
    async (page) => {
      await waitForSlide(page, 'multi-head');
      await page.locator(`${SLIDE} .mh-out svg.heatmap-svg`).waitFor({ timeout: TIMEOUT });
      await body(page);
    },
    options,
  );
}

/**
 * Everything the figure shows once it has drawn the latest input: the head counts offered and
 * chosen, d_k, the parameter counts, the tiles, every table's rows and values (opening the
 * tables, as a learner would), and the output grid's cell values, or its size when it is a
 * picture.
 * @param {import('playwright-core').Page} page
 */
async function readFigure(page) {
  await afterFrame(page);
  await openTables(page, TABLES);
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
    outPicture: slide.querySelector('.mh-out svg.pixels image[href^="data:image/"]')
      ? [
          slide.querySelector('.mh-out svg').getAttribute('data-rows'),
          slide.querySelector('.mh-out svg').getAttribute('data-cols'),
        ].join('x')
      : null,
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
  if (shown.outPicture) {
    // Too many cells for an element each: a picture, whose cells the read-out names (below).
    assert.equal(shown.outPicture, `${want.tokens.length}x${d}`, 'one pixel per output value');
    assert.deepEqual(shown.outCells, []);
  } else {
    assert.deepEqual(shown.outCells, want.tables.at(-1), 'the output grid draws the same numbers');
  }
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
        assert.notDeepEqual(shown.tables.at(-1), before.tables.at(-1), 'the output changed');
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
      await afterFrame(page);
      assert.equal(
        await status.textContent(),
        `Showing the first ${MAX_TOKENS} of ${all.length} tokens.`,
      );
      const cut = await readFigure(page);
      assert.deepEqual(cut.rows, all.slice(0, MAX_TOKENS));
      assertMatchesEngine(cut, LONGER, 1);

      // Too many rows for labels: the output's cells still name their token, under the pointer.
      const want = expected(LONGER, 10, 1);
      await hoverCell(page, `${SLIDE} .mh-out svg`, MAX_TOKENS - 1, d - 1, MAX_TOKENS, d);
      const value = want.tables.at(-1)[MAX_TOKENS * d - 1];
      assert.equal(
        await page.locator(`${SLIDE} .mh-readout`).textContent(),
        `token “${all[MAX_TOKENS - 1]}”, feature “${d - 1}”: output value ${value.toFixed(3)}`,
      );
    });
  });

  test(`at ${MAX_TOKENS} tokens the grids are pictures with the cells’ colours, read by pointer and keys`, async () => {
    await withFigure(async (page) => {
      await page.locator(`${SLIDE} .mh-choice`, { hasText: /^10$/ }).click();
      await page.locator(`${SLIDE} .mh-sentence`).fill(LONG);
      const shown = await readFigure(page);
      assertMatchesEngine(shown, LONG, 1);
      const want = expected(LONG, 10, 1);
      const n = want.tokens.length;
      const grids = await page.locator(`${SLIDE} svg.heatmap-svg`).evaluateAll((svgs) =>
        svgs.map((svg) => ({
          picture: svg.classList.contains('pixels'),
          role: svg.getAttribute('role'),
          tabindex: svg.getAttribute('tabindex'),
          name: svg.getAttribute('aria-label'),
          cells: svg.querySelectorAll('[role="gridcell"]').length,
        })),
      );
      assert.equal(grids.length, 11, 'ten heads and the output');
      for (const grid of grids) {
        assert.deepEqual(
          [grid.picture, grid.role, grid.tabindex, grid.cells],
          [true, 'img', '0', 0],
        );
        assert.match(grid.name, /A picture of 64 by (64|100) .*the table has the numbers/);
      }

      // The pixels: one per weight, in the colour CSS gives that weight (a mix in Oklab).
      const head = await readPicture(page, `${SLIDE} .mh-tile:nth-child(3) svg`);
      assert.equal(head.pixels.length, n * n);
      const weights = want.tables[2];
      const [, hi] = weightRange(want.tables.slice(0, -1));
      const out = await readPicture(page, `${SLIDE} .mh-out svg`);
      const output = want.tables.at(-1);
      const [lo2, hi2] = symmetricRange(output);
      const samples = [
        { pixel: head.pixels, values: weights, k: argmax(weights), range: [0, hi] },
        { pixel: head.pixels, values: weights, k: argmin(weights), range: [0, hi] },
        { pixel: out.pixels, values: output, k: argmax(output), range: [lo2, hi2] },
        { pixel: out.pixels, values: output, k: argmin(output), range: [lo2, hi2] },
        { pixel: out.pixels, values: output, k: 1234, range: [lo2, hi2] },
      ];
      for (const { pixel, values, k, range: r } of samples) {
        const css = await cssColour(page, values[k], /** @type {[number, number]} */ (r));
        pixel[k].forEach((channel, c) =>
          assert.ok(Math.abs(channel - css[c]) <= 2, `pixel ${k}: ${pixel[k]} vs CSS ${css}`),
        );
      }

      // The pointer: the cell under it, anywhere in a tile.
      await hoverCell(page, `${SLIDE} .mh-tile:nth-child(3) svg`, 5, 7, n, n);
      const readout = page.locator(`${SLIDE} .mh-readout`);
      const [q, k] = [want.tokens[5], want.tokens[7]];
      assert.equal(
        await readout.textContent(),
        `Head 3: query “${q}” to key “${k}”: weight ${weights[5 * n + 7].toFixed(3)}`,
      );

      // The keys: one Tab stop, the arrows move the active cell, its ring and the read-out,
      // which a live region says; the slide stays.
      await page.mouse.move(0, 0);
      const tile = page.locator(`${SLIDE} .mh-tile:nth-child(3) svg`);
      await tile.focus();
      for (const key of ['Control+Home', 'ArrowRight', 'ArrowRight', 'ArrowDown', 'End']) {
        await page.keyboard.press(key);
      }
      const said = `Head 3: query “${want.tokens[1]}” to key “${want.tokens[n - 1]}”: weight ${weights[
        2 * n - 1
      ].toFixed(3)}`;
      assert.equal(await readout.textContent(), said);
      assert.equal(
        await page.locator(`${SLIDE} .mh-tile:nth-child(3) .heatmap-live`).textContent(),
        said,
      );
      const ring = await tile.evaluate((svg) => ({
        shown: svg.querySelector('.cell-ring').getAttribute('visibility'),
        x: Number(svg.querySelector('.cell-ring').getAttribute('x')),
        right:
          Number(svg.querySelector('image').getAttribute('x')) +
          Number(svg.querySelector('image').getAttribute('width')),
        width: Number(svg.querySelector('.cell-ring').getAttribute('width')),
      }));
      assert.equal(ring.shown, 'visible');
      assert.ok(
        Math.abs(ring.x + ring.width - ring.right) < 1e-6,
        'the ring is on the last column',
      );
      await page.keyboard.press('ArrowLeft');
      assert.equal(await currentSlide(page), 'multi-head', 'the arrows kept the slide');
      await page.keyboard.press('Tab');
      assert.equal(
        await page.evaluate(
          () =>
            document.activeElement?.closest('.mh-tile')?.querySelector('.mh-tile-name')
              ?.textContent,
        ),
        'Head 4',
        'Tab goes on to the next head: one stop per grid',
      );
    });
  });

  test('a redraw keeps the drawing, its focus and its active cell, once per frame', async () => {
    await withFigure(async (page) => {
      await page.locator(`${SLIDE} .mh-sentence`).fill(LONG);
      await afterFrame(page);
      const out = page.locator(`${SLIDE} .mh-out svg`);
      await out.focus();
      await page.keyboard.press('Control+Home');
      await page.keyboard.press('ArrowDown');
      await page.keyboard.press('ArrowRight');
      await out.evaluate((svg) => {
        window['drawnBefore'] = svg;
        window['redraws'] = 0;
        new PerformanceObserver((list) => {
          window['redraws'] += list.getEntriesByName('multi-head redraw').length;
        }).observe({ type: 'measure' });
      });
      // Several inputs within one frame: the figure is drawn once, for the last of them.
      await page.locator(SLIDE).evaluate((slide) => {
        const seed = slide.querySelector('.mh-seed');
        for (const value of ['11', '12', '13']) {
          seed.value = value;
          seed.dispatchEvent(new Event('input', { bubbles: true }));
        }
      });
      await afterFrame(page);
      await afterFrame(page);
      const after = await out.evaluate((svg) => ({
        same: window['drawnBefore'] === svg,
        focused: document.activeElement === svg,
        redraws: window['redraws'],
      }));
      assert.deepEqual(after, { same: true, focused: true, redraws: 1 });
      const want = expected(LONG, 4, 13);
      assert.equal(
        await page.locator(`${SLIDE} .mh-readout`).textContent(),
        `token “${want.tokens[1]}”, feature “1”: output value ${want.tables.at(-1)[d + 1].toFixed(3)}`,
        'the active cell stays, with its new value',
      );
    });
  });

  test('the tables are built when opened, and follow the figure only while open', async () => {
    await withFigure(async (page) => {
      const tables = () => page.locator(`${SLIDE} .mh-tables table`).count();
      assert.equal(await tables(), 0, 'closed: no tables yet');
      await openTables(page, TABLES);
      assert.equal(await tables(), 5, 'four heads and the output');
      assert.equal(
        await page.evaluate(() => document.activeElement?.tagName),
        'SUMMARY',
        'the summary keeps its focus as the tables come',
      );
      await page.keyboard.press('ArrowLeft');
      assert.equal(await currentSlide(page), 'multi-head', 'keys on the summary keep the slide');
      assertMatchesEngine(await readFigure(page), SENTENCE, 1);
      await page.locator(`${SLIDE} .mh-sentence`).fill('Dogs chase cats.');
      assertMatchesEngine(await readFigure(page), 'Dogs chase cats.', 1);
      await page.locator(`${SLIDE} .mh-tables summary`).click();
      await page.locator(`${SLIDE} .mh-seed`).fill('5');
      await afterFrame(page);
      assert.equal(await tables(), 0, 'closed again: the redraw leaves no tables behind');
      assertMatchesEngine(await readFigure(page), 'Dogs chase cats.', 5);
    });
  });

  test('words outside the vocabulary are marked in the labels, the read-out, the tables and a note', async () => {
    await withFigure(async (page) => {
      const sentence = 'The zyxwv sat on qwvzt.';
      await page.locator(`${SLIDE} .mh-sentence`).fill(sentence);
      const shown = await readFigure(page);
      assertMatchesEngine(shown, sentence, 1);
      const marked = await page.locator(SLIDE).evaluate((slide) => ({
        rows: Array.from(slide.querySelectorAll('.mh-out .row-label'), (t) =>
          t.classList.contains('unknown'),
        ),
        headers: Array.from(
          [...slide.querySelectorAll('.mh-tables table')].at(-1).querySelectorAll('th.unknown'),
          (th) => th.textContent,
        ),
        note: slide.querySelector('.mh-unknown').hidden
          ? null
          : slide.querySelector('.mh-unknown').textContent,
      }));
      assert.deepEqual(marked.rows, [false, true, false, false, true, false]);
      assert.deepEqual(marked.headers, ['zyxwv', 'qwvzt']);
      assert.match(marked.note ?? '', /^Not in the vocabulary .*“zyxwv”, “qwvzt”\./);
      const cell = page.locator(`${SLIDE} .mh-tile`).first().locator('[role="gridcell"]').nth(1);
      await cell.hover();
      assert.match(
        await page.locator(`${SLIDE} .mh-readout`).textContent(),
        /^Head 1: query “the” to key “zyxwv” \(not in the vocabulary\): weight 0\.\d{3}$/,
      );

      await page.locator(`${SLIDE} .mh-sentence`).fill(SENTENCE);
      await afterFrame(page);
      assert.equal(await page.locator(`${SLIDE} .mh-unknown`).isVisible(), false);
    });
  });

  test('with every head count, short or long sentence, the slide fits 1280 x 720', async () => {
    await withFigure(
      async (page) => {
        for (const sentence of [SENTENCE, LONG]) {
          await page.locator(`${SLIDE} .mh-sentence`).fill(sentence);
          for (const h of [1, 2, 4, 5, 10]) {
            await page.locator(`${SLIDE} .mh-choice`, { hasText: new RegExp(`^${h}$`) }).click();
            await afterFrame(page);
            assert.equal(
              await page.locator(`${SLIDE} .mh-tile svg.heatmap-svg`).count(),
              h,
              `${h} heads drawn`,
            );
            const fit = await readFit(page);
            const where = `${h} heads, ${sentenceTokens(engine, sentence).length} tokens`;
            assert.ok(fit.over <= 6, `${where}: the slide spills ${fit.over}px out of its frame`);
            assert.equal(fit.sideways, 0, where);
            assert.ok(
              fit.tileOverhang <= 0.5,
              `${where}: a head is cut off by ${fit.tileOverhang}px`,
            );
          }
        }
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
      await afterFrame(page);
      const alert = page.locator(`${SLIDE} .mh-error`);
      assert.match(await alert.textContent(), /whole number from 0 to 4294967295/);
      assert.equal(await page.locator(`${SLIDE} .mh-result`).isVisible(), false);
      await seed.fill('7');
      await afterFrame(page);
      assert.equal(await alert.isVisible(), false);
      assertMatchesEngine(await readFigure(page), SENTENCE, 7);
    });
  });

  test('a cell names its head, tokens and weight on hover; arrow keys keep the slide', async () => {
    await withFigure(async (page) => {
      await openTables(page, TABLES);
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
    test(`axe finds nothing with pictures shown and the tables open (${colorScheme})`, async () => {
      await withFigure(
        async (page) => {
          await page.locator(`${SLIDE} .mh-choice`, { hasText: /^10$/ }).click();
          await page.locator(`${SLIDE} .mh-sentence`).fill(LONG);
          await afterFrame(page);
          assert.equal(await page.locator(`${SLIDE} svg.heatmap-svg.pixels`).count(), 11);
          await page.locator(`${SLIDE} .mh-out svg`).focus();
          await page.keyboard.press('ArrowRight');
          await page.locator(`${SLIDE} .mh-tables summary`).click();
          assert.deepEqual(await axeFindings(page, colorScheme, SLIDE), []);
        },
        { colorScheme },
      );
    });
  }
});

/** @param {number[]} values @returns {number} the index of the largest */
function argmax(values) {
  return values.reduce((best, v, k) => (v > values[best] ? k : best), 0);
}

/** @param {number[]} values @returns {number} the index of the smallest */
function argmin(values) {
  return values.reduce((best, v, k) => (v < values[best] ? k : best), 0);
}

/**
 * Moves the pointer to the middle of cell (i, j) of a heatmap drawn as a picture.
 * @param {import('playwright-core').Page} page
 * @param {string} svgSelector
 * @param {number} i
 * @param {number} j
 * @param {number} rows
 * @param {number} cols
 */
async function hoverCell(page, svgSelector, i, j, rows, cols) {
  const box = await page.locator(`${svgSelector} image`).boundingBox();
  assert.ok(box, 'the picture is on the page');
  await page.mouse.move(
    box.x + ((j + 0.5) * box.width) / cols,
    box.y + ((i + 0.5) * box.height) / rows,
  );
}

/**
 * The colour CSS gives a value on the page's scale, as the grid of cells draws it: a mix in
 * Oklab of the scale's stops (diverging when the range spans 0), as [r, g, b].
 * @param {import('playwright-core').Page} page
 * @param {number} value
 * @param {[number, number]} range
 * @returns {Promise<number[]>}
 */
function cssColour(page, value, [lo, hi]) {
  const t = Math.min(1, Math.max(0, (value - lo) / (hi - lo)));
  const [low, mid, high] =
    lo < 0 && hi > 0
      ? ['--div-neg', '--div-mid', '--div-pos']
      : ['--heat-0', '--heat-1', '--heat-2'];
  const mix =
    t <= 0.5
      ? `color-mix(in oklab, var(${mid}) ${t * 200}%, var(${low}))`
      : `color-mix(in oklab, var(${high}) ${(t - 0.5) * 200}%, var(${mid}))`;
  return page.evaluate((colour) => {
    const probe = document.createElement('div');
    probe.style.color = colour;
    document.body.append(probe);
    const computed = getComputedStyle(probe).color;
    probe.remove();
    const canvas = document.createElement('canvas');
    canvas.width = 1;
    canvas.height = 1;
    const context = /** @type {CanvasRenderingContext2D} */ (canvas.getContext('2d'));
    context.fillStyle = computed;
    context.fillRect(0, 0, 1, 1);
    return Array.from(context.getImageData(0, 0, 1, 1).data.slice(0, 3));
  }, mix);
}
