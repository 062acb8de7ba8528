// End-to-end tests of the weighted-retrieval figure on its slide: the dot, general and additive
// scores of a query word against a sentence side by side, with the engine's own scores, weights
// (as bars, summing to 1) and context vectors (recomputed here in Node from the same word vectors
// and seeded parameters); a new sentence, query word or seed redraws them; the drag mode's sliders
// set the scores and the weights follow the softmax; bad input gets words, not a broken figure;
// keys in the figure keep the slide; the learner's inputs survive leaving the slide; axe finds
// nothing, in light and dark.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { loadEngine } from 'attention-lab';

import { sentenceTokens } from '../../web/src/widgets/shared/token-matrix.js';
import { axeFindings } from './axe.js';
import { currentSlide, useSite, waitForSlide } from './browser.js';

const TIMEOUT = 15_000;
const SLIDE = '#weighted-retrieval';
const KINDS = ['dot', 'general', 'additive'];
const SENTENCE = 'The cat sat on the mat';
const engine = await loadEngine();
engine.loadEmbeddings(
  readFileSync(new URL('../../web/public/embeddings/en-20k-100d.bin', import.meta.url)),
);
const site = useSite();

/**
 * What the engine gives for the figure's inputs: s and h_j from the lesson's word vectors; W
 * (general) Glorot-uniform from the seed; W_s, W_h (additive, d_a = 32) Glorot-uniform from the
 * two seeds after it and v unit-normal from the third.
 * @param {string} sentence
 * @param {string} query
 * @param {number} seed
 */
function expected(sentence, query, seed) {
  const tokens = sentenceTokens(engine, sentence).slice(0, 8);
  const { vectors: h, known, d } = engine.embed(tokens);
  const s = engine.embed([sentenceTokens(engine, query)[0]]).vectors;
  const da = 32;
  const base = { s, h, n: tokens.length, ds: d, dh: d };
  const results = {
    dot: engine.score({ kind: 'dot', ...base }),
    general: engine.score({ kind: 'general', ...base, w: engine.glorotUniform(d, d, seed) }),
    additive: engine.score({
      ...{ kind: 'additive', ...base, da },
      ws: engine.glorotUniform(da, d, seed + 1),
      wh: engine.glorotUniform(da, d, seed + 2),
      v: engine.unitNormal(da, 1, seed + 3),
    }),
  };
  return { tokens, known: Array.from(known), results };
}

/** @param {(page: import('playwright-core').Page) => Promise<void>} body */
function withFigure(body, options) {
  return site.visit(
    'index.html?figure=weighted-retrieval&show=weighted-retrieval#/weighted-retrieval',
    async (page) => {
      await waitForSlide(page, 'weighted-retrieval');
      await page.locator(`${SLIDE} .wr-card svg.chart-svg`).first().waitFor({ timeout: TIMEOUT });
      await body(page);
    },
    options,
  );
}

/**
 * Everything one figure shows: per card the bar labels, the weights in the bars' table, the
 * written sum and its exact value, the scores table, the context cells; and the context tables.
 * @param {import('playwright-core').Page} page
 */
function readFigure(page) {
  return page.locator(SLIDE).evaluate((slide) => {
    const numbers = (nodes) => Array.from(nodes, (node) => Number(node.dataset.value));
    const texts = (nodes) => Array.from(nodes, (node) => node.textContent);
    const card = (kind) => {
      const root = slide.querySelector(`.wr-card[data-kind="${kind}"]`);
      return {
        shown: !root.closest('[hidden]'),
        labels: texts(root.querySelectorAll('.chart-table tbody th')),
        weights: numbers(root.querySelectorAll('.chart-table td')),
        sumText: root.querySelector('.wr-sum-value')?.textContent,
        sum: Number(root.querySelector('.wr-sum').dataset.sum ?? NaN),
        tokens: texts(root.querySelectorAll('.wr-scores-table thead th')).slice(1),
        scores: numbers(root.querySelectorAll('.wr-scores-table td')),
        context: numbers(root.querySelectorAll('.wr-context [role="gridcell"]')),
      };
    };
    return {
      cards: Object.fromEntries(
        ['dot', 'general', 'additive', 'drag'].map((kind) => [kind, card(kind)]),
      ),
      tables: Array.from(slide.querySelectorAll('.wr-tables table'), (table) =>
        numbers(table.querySelectorAll('td')),
      ),
      status: slide.querySelector('.wr-status').hidden
        ? ''
        : slide.querySelector('.wr-status').textContent,
      error: slide.querySelector('.wr-error').hidden
        ? ''
        : slide.querySelector('.wr-error').textContent,
      unknown: slide.querySelector('.wr-unknown').hidden
        ? ''
        : slide.querySelector('.wr-unknown').textContent,
      result: !slide.querySelector('.wr-result').hidden,
    };
  });
}

/**
 * @param {Awaited<ReturnType<typeof readFigure>>} shown
 * @param {string} sentence
 * @param {string} query
 * @param {number} seed
 */
function assertMatchesEngine(shown, sentence, query, seed) {
  const want = expected(sentence, query, seed);
  const marked = want.tokens.map((token, j) => (want.known[j] ? token : `${token}*`));
  assert.equal(shown.tables.length, 3, 'a context table per scoring function');
  KINDS.forEach((kind, i) => {
    const card = shown.cards[kind];
    const result = want.results[kind];
    assert.ok(card.shown, `${kind} is shown`);
    assert.deepEqual(card.labels, marked, `${kind}: one bar per token`);
    assert.deepEqual(card.tokens, want.tokens, `${kind}: one score per token`);
    assert.deepEqual(card.scores, Array.from(result.scores), `${kind} scores`);
    assert.deepEqual(card.weights, Array.from(result.weights), `${kind} weights`);
    assert.deepEqual(card.context, Array.from(result.context), `${kind} context cells`);
    assert.deepEqual(shown.tables[i], Array.from(result.context), `${kind} context table`);
    const sum = Array.from(result.weights).reduce((a, b) => a + b, 0);
    assert.equal(card.sum, sum, `${kind}: the sum of the engine's weights`);
    assert.equal(card.sumText, sum.toFixed(6));
    assert.equal(card.sumText, '1.000000', `${kind}: the weights add up to 1`);
  });
  assert.equal(shown.cards.drag.shown, false, 'the drag figure waits for its mode');
}

describe('the weighted-retrieval figure', () => {
  test('it scores “kitten” against the sentence three ways with the engine’s numbers', async () => {
    await withFigure(async (page) => {
      const shown = await readFigure(page);
      assertMatchesEngine(shown, SENTENCE, 'kitten', 1);
      const top = shown.cards.dot.weights.indexOf(Math.max(...shown.cards.dot.weights));
      assert.equal(shown.cards.dot.labels[top], 'cat', 'the dot score finds the nearest word');
      assert.equal(shown.status, '');
      assert.equal(shown.unknown, '');
    });
  });

  test('a new sentence, query word and seed redraw it with the engine’s numbers', async () => {
    await withFigure(async (page) => {
      const slide = page.locator(SLIDE);
      const sentence = 'Dogs chase cats across the floor.';
      await slide.locator('.wr-sentence').fill(sentence);
      const resentenced = await readFigure(page);
      assert.deepEqual(resentenced.cards.dot.tokens, [
        ...['dogs', 'chase', 'cats', 'across', 'the', 'floor', '.'],
      ]);
      assertMatchesEngine(resentenced, sentence, 'kitten', 1);

      await slide.locator('.wr-query').fill('carpet');
      const requeried = await readFigure(page);
      assert.notDeepEqual(requeried.cards.dot.scores, resentenced.cards.dot.scores);
      assertMatchesEngine(requeried, sentence, 'carpet', 1);

      await slide.locator('.wr-seed').fill('4294967290');
      const reseeded = await readFigure(page);
      assert.deepEqual(reseeded.cards.dot.scores, requeried.cards.dot.scores, 'dot has no seed');
      assert.notDeepEqual(reseeded.cards.general.scores, requeried.cards.general.scores);
      assert.notDeepEqual(reseeded.cards.additive.scores, requeried.cards.additive.scores);
      assertMatchesEngine(reseeded, sentence, 'carpet', 4294967290);
    });
  });

  test('dragging a score moves the softmax weights and the context', async () => {
    await withFigure(async (page) => {
      const slide = page.locator(SLIDE);
      await slide.locator('.wr-mode-choice', { hasText: 'Drag' }).click();
      const tokens = sentenceTokens(engine, SENTENCE);
      const n = tokens.length;
      const sliders = slide.getByRole('slider');
      assert.equal(await sliders.count(), n, 'one slider per token');
      assert.equal(await slide.getByRole('slider', { name: 'cat' }).count(), 1);

      const start = (await readFigure(page)).cards.drag;
      assert.ok(start.shown);
      assert.equal((await readFigure(page)).cards.dot.shown, false);
      for (const weight of start.weights) assert.equal(weight, start.weights[0], 'equal at 0');

      // Touch-free and mouse-free: the keyboard sets e_2 to 4 x 0.25 = 1.
      await sliders.nth(2).focus();
      for (let k = 0; k < 4; k++) await page.keyboard.press('ArrowRight');
      assert.equal(await currentSlide(page), 'weighted-retrieval', 'the keys stay in the figure');
      const scores = [0, 0, 1, 0, 0, 0];
      const raised = (await readFigure(page)).cards.drag;
      const alpha = Array.from(engine.softmax(scores, 1, n));
      assert.deepEqual(raised.weights, alpha, 'the weights are the engine’s softmax');
      assert.ok(raised.weights[2] > start.weights[2], 'the raised score gains weight');
      for (const j of [0, 1, 3, 4, 5]) assert.ok(raised.weights[j] < start.weights[j], `${j}`);
      assert.equal(raised.sumText, '1.000000');

      const { vectors: h, d } = engine.embed(tokens);
      const identity = Array.from({ length: n * n }, (_, i) => (i % (n + 1) === 0 ? 1 : 0));
      const { output } = engine.attention({
        ...{ q: scores, k: identity, v: h, nq: 1, nk: n, dk: n, dv: d, scale: false },
      });
      assert.deepEqual(raised.context, Array.from(output), 'c = softmax(e) H');
      for (let k = 0; k < d; k++) {
        const blend = alpha.reduce((sum, a, j) => sum + a * h[j * d + k], 0);
        assert.ok(Math.abs(raised.context[k] - blend) < 1e-5, `c[${k}]`);
      }
      const text = await sliders.nth(2).getAttribute('aria-valuetext');
      assert.equal(text, `score 1.00, weight ${alpha[2].toFixed(3)}`);

      await slide.getByRole('button', { name: /every score to 0/ }).click();
      assert.deepEqual((await readFigure(page)).cards.drag.weights, start.weights);
    });
  });

  test('the sentence, query, seed, mode and dragged scores survive leaving the slide', async () => {
    await withFigure(async (page) => {
      const slide = page.locator(SLIDE);
      await slide.locator('.wr-sentence').fill('Birds fly south');
      await slide.locator('.wr-query').fill('winter');
      await slide.locator('.wr-seed').fill('5');
      await slide.locator('.wr-mode-choice', { hasText: 'Drag' }).click();
      await slide.getByRole('slider').first().focus();
      await page.keyboard.press('End');
      const before = await readFigure(page);
      await page.keyboard.press('Escape');
      await page.keyboard.press('ArrowRight');
      await page.waitForFunction(
        (id) => document.querySelector('.reveal .slides > section.present')?.id !== id,
        'weighted-retrieval',
      );
      assert.equal(await slide.locator('.wr').count(), 0, 'the left slide lets go');
      await page.keyboard.press('ArrowLeft');
      await waitForSlide(page, 'weighted-retrieval');
      await slide.locator('.wr-card[data-kind="drag"] svg.chart-svg').waitFor({ timeout: TIMEOUT });
      assert.equal(await slide.locator('.wr-sentence').inputValue(), 'Birds fly south');
      assert.equal(await slide.locator('.wr-query').inputValue(), 'winter');
      assert.equal(await slide.locator('.wr-seed').inputValue(), '5');
      assert.equal(await slide.getByRole('slider').first().inputValue(), '6');
      assert.deepEqual(await readFigure(page), before);

      await slide.locator('.wr-mode-choice', { hasText: 'Three' }).click();
      assertMatchesEngine(await readFigure(page), 'Birds fly south', 'winter', 5);
    });
  });

  test('empty text, an empty query and a bad seed get words instead of a figure', async () => {
    await withFigure(async (page) => {
      const slide = page.locator(SLIDE);
      await slide.locator('.wr-sentence').fill('   \n ');
      let shown = await readFigure(page);
      assert.match(shown.status, /Type a short source sentence/);
      assert.equal(shown.result, false);

      await slide.locator('.wr-sentence').fill(SENTENCE);
      await slide.locator('.wr-query').fill(' ');
      shown = await readFigure(page);
      assert.match(shown.status, /Type a query word/);
      assert.equal(shown.result, false);

      await slide.locator('.wr-query').fill('dog');
      await slide.locator('.wr-seed').fill('-3');
      shown = await readFigure(page);
      assert.match(shown.error, /whole number from 0 to 4294967295/);
      assert.equal(shown.result, false);
      assert.equal(await slide.getByRole('alert').textContent(), shown.error);

      await slide.locator('.wr-seed').fill('2');
      assertMatchesEngine(await readFigure(page), SENTENCE, 'dog', 2);
    });
  });

  test('HTML is shown as text; emoji, CJK, RTL and unknown words draw, marked', async () => {
    await withFigure(async (page) => {
      const slide = page.locator(SLIDE);
      const sentence = '猫 🐈 שלום <img src=x onerror="window.hacked=1">';
      await slide.locator('.wr-sentence').fill(sentence);
      await slide.locator('.wr-query').fill('<b>zorbly</b> and more');
      const shown = await readFigure(page);
      const first = sentenceTokens(engine, '<b>zorbly</b> and more')[0];
      assertMatchesEngine(shown, sentence, first, 1);
      assert.ok(shown.cards.dot.labels.includes('猫*'), 'unknown tokens are marked');
      assert.match(shown.unknown, /Not in the vocabulary \(marked \*\):.*“猫”/);
      assert.match(shown.status, /Showing the first 8 of \d+ tokens/);
      assert.match(shown.status, /The query is the first word in its box, “<”/);
      assert.equal(await slide.locator('.wr img, .wr b').count(), 0, 'no markup from the text');
      assert.equal(await page.evaluate(() => 'hacked' in window), false);

      await slide.locator('.wr-sentence').fill('zorbly qwxv');
      await slide.locator('.wr-query').fill('vrexil');
      const unknown = await readFigure(page);
      assertMatchesEngine(unknown, 'zorbly qwxv', 'vrexil', 1);
      assert.match(unknown.unknown, /the query “vrexil”, “zorbly” and “qwxv”/);
    });
  });

  test('bars and context cells read out on hover and keyboard focus; keys keep the slide', async () => {
    await withFigure(async (page) => {
      const card = page.locator(`${SLIDE} .wr-card[data-kind="general"]`);
      const weights = (await readFigure(page)).cards.general.weights;
      await card.locator('.chart-stop').nth(5).hover();
      assert.equal(
        await card.locator('.chart-readout').textContent(),
        `token “mat”: weight α ${weights[5].toFixed(3)}`,
      );
      await card.locator('.chart-stop[tabindex="0"]').focus();
      await page.keyboard.press('ArrowRight');
      await page.keyboard.press('ArrowRight');
      await page.mouse.move(0, 0);
      assert.equal(
        await card.locator('.chart-readout').textContent(),
        `token “sat”: weight α ${weights[2].toFixed(3)}`,
      );

      const cell = card.locator('.wr-context [role="gridcell"]').nth(7);
      await cell.focus();
      const value = Number(await cell.getAttribute('data-value'));
      assert.equal(
        await page.locator(`${SLIDE} .wr-readout`).textContent(),
        `General: vector “c”, dimension “7”: context value ${value.toFixed(3)}`,
      );
      await page.keyboard.press('ArrowRight');
      assert.match(await page.locator(`${SLIDE} .wr-readout`).textContent(), /dimension “8”/);

      await page.locator(`${SLIDE} .wr-mode input[value="compare"]`).focus();
      await page.keyboard.press('ArrowRight');
      assert.equal((await readFigure(page)).cards.drag.shown, true, 'arrows choose the mode');
      assert.equal(await currentSlide(page), 'weighted-retrieval');
    });
  });

  test('a link carries the inputs and the dragged scores; junk in it gives the defaults, no error', async () => {
    const settings = 'sentence=Birds+fly+south&query=winter&seed=5&mode=drag&scores=%5B2%2C-1.5%5D';
    await site.visit(
      `index.html?figure=weighted-retrieval&show=weighted-retrieval&${settings}#/weighted-retrieval`,
      async (page) => {
        await waitForSlide(page, 'weighted-retrieval');
        const slide = page.locator(SLIDE);
        await slide
          .locator('.wr-card[data-kind="drag"] svg.chart-svg')
          .waitFor({ timeout: TIMEOUT });
        const sliders = slide.getByRole('slider');
        assert.deepEqual(await sliders.evaluateAll((all) => all.map((s) => s.value)), [
          '2',
          '-1.5',
          '0',
        ]);
        const weights = Array.from(engine.softmax([2, -1.5, 0], 1, 3));
        assert.deepEqual((await readFigure(page)).cards.drag.weights, weights);
        await slide.locator('.wr-mode-choice', { hasText: 'Three' }).click();
        assertMatchesEngine(await readFigure(page), 'Birds fly south', 'winter', 5);
        assert.match(page.url(), /[?&]seed=5/);
      },
    );

    const junk = 'mode=%3Cb%3E&scores=%5B1%2C&seed=%5B1%2C2%5D&query=%3Cimg%3E';
    await site.visit(
      `index.html?figure=weighted-retrieval&show=weighted-retrieval&${junk}#/weighted-retrieval`,
      async (page) => {
        await waitForSlide(page, 'weighted-retrieval');
        const slide = page.locator(SLIDE);
        await slide.locator('.wr-card svg.chart-svg').first().waitFor({ timeout: TIMEOUT });
        // The seed and mode a link gets wrong are the figure's defaults; the query is text.
        assert.equal(await slide.locator('.wr-seed').inputValue(), '1');
        assert.equal(
          await slide.locator('.wr-mode input:checked').getAttribute('value'),
          'compare',
        );
        assertMatchesEngine(await readFigure(page), SENTENCE, '<img>', 1);
      },
    );
  });

  for (const colorScheme of /** @type {const} */ (['light', 'dark'])) {
    test(`axe finds nothing in either mode with the tables open (${colorScheme})`, async () => {
      await withFigure(
        async (page) => {
          const found = [];
          for (const mode of ['Three', 'Drag']) {
            await page.locator(`${SLIDE} .wr-mode-choice`, { hasText: mode }).click();
            for (const summary of await page.locator(`${SLIDE} details:visible > summary`).all()) {
              await summary.click();
            }
            for (const finding of await axeFindings(page, colorScheme, SLIDE)) {
              found.push(`${mode}: ${finding}`);
            }
          }
          assert.deepEqual(found, []);
        },
        { colorScheme },
      );
    });
  }
});
