// End-to-end tests of the self-attention slide's untrained figure (its second view, which the
// address names; the trained model's view is tested in language-model.test.js): two sentences that share "bank", each
// drawing the followed word's row of self-attention weights as bars with the engine's own numbers
// (recomputed here in Node from the same word vectors), and the cosine similarity of that word's
// input vectors (the same) and of its outputs (not the same); choosing a word or editing a
// sentence redraws; bad text gets a clear answer; keys inside the figure keep the slide; the
// learner's inputs survive leaving the slide. The cost panel times the engine live: timing is not
// deterministic, so its test checks the shape (positive times, a slope printed, the table, the
// chart and the slope agreeing, the page answering while it measures, the measurement kept
// through a visit elsewhere), never the slope's value.
// axe finds nothing, in light and dark.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { loadEngine } from 'attention-lab';

import { sentenceTokens } from '../../web/src/widgets/shared/token-matrix.js';
import { axeFindings } from './axe.js';
import { currentSlide, useSite, visitNextSlideAndBack, waitForSlide } from './browser.js';

const TIMEOUT = 15_000;
const SLIDE = '#self-attention';
const SIDE = { A: `${SLIDE} .sap-side[data-side="A"]`, B: `${SLIDE} .sap-side[data-side="B"]` };
const RIVER = 'I sat on the river bank';
const LOAN = 'I took a loan from the bank';
/** Cosines are computed in double precision from the same float32 numbers on both sides. */
const COSINE_TOLERANCE = 1e-12;

const engine = await loadEngine();
engine.loadEmbeddings(
  readFileSync(new URL('../../web/public/embeddings/en-20k-100d.bin', import.meta.url)),
);
const site = useSite();

/**
 * The engine's self-attention of a sentence (Q = K = V = X, the word vectors), up to 16 tokens.
 * @param {string} sentence
 */
function expected(sentence) {
  const tokens = sentenceTokens(engine, sentence).slice(0, 16);
  const { vectors: x, known, d } = engine.embed(tokens);
  const n = tokens.length;
  const { weights, output } = engine.attention({ q: x, k: x, v: x, nq: n, nk: n, dk: d, dv: d });
  const row = (m, i, w) => Array.from(m.subarray(i * w, (i + 1) * w));
  return {
    tokens,
    unknown: Array.from(known, (flag) => flag === 0),
    weightsOf: (i) => row(weights, i, n),
    inputOf: (i) => row(x, i, d),
    outputOf: (i) => row(output, i, d),
  };
}

/** @param {number[]} a @param {number[]} b */
function cosine(a, b) {
  let ab = 0;
  let aa = 0;
  let bb = 0;
  for (let k = 0; k < a.length; k++) {
    ab += a[k] * b[k];
    aa += a[k] * a[k];
    bb += b[k] * b[k];
  }
  return ab / Math.sqrt(aa * bb);
}

/**
 * Opens the deck on the slide, waits for both bar charts, runs `body`; the page must stay clean.
 * @param {(page: import('playwright-core').Page) => Promise<void>} body
 * @param {import('./browser.js').PageOptions} [options]
 */
function withFigure(body, options) {
  return site.visit(
    'index.html?figure=self-attention&show=self-attention-pair#/self-attention',
    async (page) => {
      await waitForSlide(page, 'self-attention');
      for (const side of Object.values(SIDE)) {
        await page.locator(`${side} .sap-bars svg.chart-svg`).waitFor({ timeout: TIMEOUT });
      }
      await body(page);
    },
    options,
  );
}

/**
 * What one side shows: its sentence, the word menu, the bars' table and tick labels, the status.
 * @param {import('playwright-core').Page} page
 * @param {'A' | 'B'} name
 */
function readSide(page, name) {
  return page.locator(SIDE[name]).evaluate((side) => {
    const select = side.querySelector('.sap-word');
    const figure = side.querySelector('.sap-figure');
    return {
      sentence: side.querySelector('.sap-sentence').value,
      options: Array.from(select.options, (o) => o.textContent),
      chosen: select.selectedIndex,
      drawn: !figure.hidden,
      status: side.querySelector('.sap-status').hidden
        ? ''
        : side.querySelector('.sap-status').textContent,
      labels: Array.from(side.querySelectorAll('.sap-bars tbody th'), (th) => th.textContent),
      values: Array.from(side.querySelectorAll('.sap-bars tbody td'), (td) =>
        Number(td.dataset.value),
      ),
      texts: Array.from(side.querySelectorAll('.sap-bars tbody td'), (td) => td.textContent),
      bars: side.querySelectorAll('.sap-bars .chart-bar').length,
      unknown: side.querySelector('.sap-unknown').hidden
        ? ''
        : side.querySelector('.sap-unknown').textContent,
    };
  });
}

/** @param {import('playwright-core').Page} page */
function readCompare(page) {
  return page.locator(`${SLIDE} .sap-compare`).evaluate((box) => {
    const cell = (key) => box.querySelector(`tr[data-key="${key}"] td`);
    return {
      caption: box.querySelector('caption')?.textContent ?? '',
      input: cell('input') ? Number(cell('input').dataset.value) : null,
      output: cell('output') ? Number(cell('output').dataset.value) : null,
      inputText: cell('input')?.textContent ?? '',
      verdict: box.querySelector('.sap-verdict').textContent,
    };
  });
}

/**
 * Checks one side against the engine: one bar per token, the followed token's row of weights.
 * @param {Awaited<ReturnType<typeof readSide>>} shown
 * @param {ReturnType<typeof expected>} want
 * @param {number} index the followed token
 */
function assertSide(shown, want, index) {
  const marked = want.tokens.map((t, i) => (want.unknown[i] ? `${t}*` : t));
  assert.deepEqual(shown.labels, marked, 'one bar per token, unknown ones marked');
  assert.equal(shown.bars, want.tokens.length);
  assert.equal(shown.chosen, index, 'the followed token is selected');
  assert.deepEqual(shown.values, want.weightsOf(index), 'its row of the engine’s weights');
  const sum = shown.values.reduce((s, v) => s + v, 0);
  assert.ok(Math.abs(sum - 1) < 1e-5, `the row sums to ${sum}`);
}

describe('the self-attention pair figure', () => {
  test('“bank” attends over each sentence with the engine’s weights; one input, two outputs', async () => {
    await withFigure(async (page) => {
      const [a, b] = [await readSide(page, 'A'), await readSide(page, 'B')];
      assert.equal(a.sentence, RIVER);
      assert.equal(b.sentence, LOAN);
      const [wantA, wantB] = [expected(RIVER), expected(LOAN)];
      const [iA, iB] = [wantA.tokens.indexOf('bank'), wantB.tokens.indexOf('bank')];
      assertSide(a, wantA, iA);
      assertSide(b, wantB, iB);
      assert.deepEqual(a.options, wantA.tokens);
      assert.match(a.texts[iA], /^\.\d{3}$/, 'weights are written with three decimals');

      const shown = await readCompare(page);
      assert.match(shown.caption, /^“bank” in A and in B/);
      assert.deepEqual(wantA.inputOf(iA), wantB.inputOf(iB), 'one vector for “bank”');
      assert.equal(shown.input, 1);
      assert.match(shown.inputText, /^1\.000$/);
      const out = cosine(wantA.outputOf(iA), wantB.outputOf(iB));
      assert.ok(Math.abs(shown.output - out) < COSINE_TOLERANCE, `${shown.output} vs ${out}`);
      assert.ok(shown.output < 1, 'the two outputs differ');
      assert.match(shown.verdict, /same vector goes in/);
    });
  });

  test('choosing another word redraws its row, and the comparison names both words', async () => {
    await withFigure(async (page) => {
      const before = await readSide(page, 'A');
      const want = expected(RIVER);
      const river = want.tokens.indexOf('river');
      await page.locator(`${SIDE.A} .sap-word`).selectOption(String(river));
      const after = await readSide(page, 'A');
      assert.notDeepEqual(after.values, before.values);
      assertSide(after, want, river);

      const wantB = expected(LOAN);
      const bank = wantB.tokens.indexOf('bank');
      const shown = await readCompare(page);
      assert.match(shown.caption, /^“river” in A, “bank” in B/);
      const input = cosine(want.inputOf(river), wantB.inputOf(bank));
      const output = cosine(want.outputOf(river), wantB.outputOf(bank));
      assert.ok(Math.abs(shown.input - input) < COSINE_TOLERANCE, 'input cosine');
      assert.ok(Math.abs(shown.output - output) < COSINE_TOLERANCE, 'output cosine');
      assert.ok(shown.input < 1, 'two different words, two different vectors');
      assert.match(shown.verdict, /different vectors go in/);
    });
  });

  test('a new sentence redraws its side with the engine’s numbers, still following “bank”', async () => {
    await withFigure(async (page) => {
      const sentence = 'The bank raised the interest on my loan.';
      await page.locator(`${SIDE.B} .sap-sentence`).fill(sentence);
      const want = expected(sentence);
      const shown = await readSide(page, 'B');
      assert.deepEqual(shown.options, [
        'the #1',
        'bank',
        'raised',
        'the #2',
        'interest',
        'on',
        'my',
        'loan',
        '.',
      ]);
      assertSide(shown, want, want.tokens.indexOf('bank'));
      const a = expected(RIVER);
      const out = cosine(a.outputOf(a.tokens.indexOf('bank')), want.outputOf(1));
      const compare = await readCompare(page);
      assert.ok(Math.abs(compare.output - out) < COSINE_TOLERANCE, 'output cosine');

      // Seventeen tokens and more: the first sixteen are drawn, with a notice.
      const long = Array.from({ length: 20 }, (_, i) => (i === 3 ? 'bank' : 'money')).join(' ');
      await page.locator(`${SIDE.B} .sap-sentence`).fill(long);
      const cut = await readSide(page, 'B');
      assert.equal(cut.bars, 16);
      assert.match(cut.status, /first 16 of 20 tokens/);
      assertSide(cut, expected(long), 3);
    });
  });

  test('empty text asks for a sentence; markup stays text; any script draws, unknown words marked', async () => {
    await withFigure(async (page) => {
      await page.locator(`${SIDE.A} .sap-sentence`).fill('   ');
      const empty = await readSide(page, 'A');
      assert.equal(empty.drawn, false);
      assert.match(empty.status, /Type a sentence/);
      assert.deepEqual(empty.options, []);
      assert.match((await readCompare(page)).verdict, /Give both sentences a word/);
      assert.equal((await readSide(page, 'B')).drawn, true, 'the other side stays');

      for (const markup of [
        '<img src=x onerror=alert(1)> bank',
        '<script>alert(2)</script> bank',
      ]) {
        await page.locator(`${SIDE.A} .sap-sentence`).fill(markup);
        const shown = await readSide(page, 'A');
        assert.equal(await page.locator(`${SLIDE} .sap img, ${SLIDE} .sap script`).count(), 0);
        const want = expected(markup);
        assertSide(shown, want, want.tokens.indexOf('bank'));
        assert.ok(shown.labels.includes('<'), 'the angle brackets are tokens, shown as text');
        assert.ok(
          shown.options.some((o) => /^< ?(#1)?$/.test(o)),
          'and listed as text in the word menu',
        );
      }

      const mixed = 'I 💙 東京 שלום bank zzqxv';
      await page.locator(`${SIDE.A} .sap-sentence`).fill(mixed);
      const want = expected(mixed);
      assert.ok(want.unknown.some(Boolean), 'the sentence has words outside the vocabulary');
      const drawn = await readSide(page, 'A');
      assertSide(drawn, want, want.tokens.indexOf('bank'));
      assert.ok(drawn.labels.includes('💙*') && drawn.labels.includes('zzqxv*'));
      assert.match(drawn.unknown, /Marked \*, not in the vocabulary: .*“zzqxv”/);

      await page.locator(`${SIDE.A} .sap-sentence`).fill('zzqxv blorfq');
      const none = await readSide(page, 'A');
      assert.deepEqual(none.labels, ['zzqxv*', 'blorfq*']);
      assert.equal(none.chosen, 1, 'no “bank”: the last token is followed');
      assertSide(none, expected('zzqxv blorfq'), 1);
    });
  });

  test('keys inside the figure keep the slide; a bar reads out on focus; inputs survive a visit', async () => {
    await withFigure(async (page) => {
      const input = page.locator(`${SIDE.B} .sap-sentence`);
      await input.fill('The bank by the river');
      await input.press('ArrowLeft');
      await input.press('End');
      const select = page.locator(`${SIDE.B} .sap-word`);
      await select.focus();
      await page.keyboard.press('ArrowDown');
      await page.keyboard.press('ArrowDown');
      const moved = await readSide(page, 'B');
      assert.equal(moved.chosen, 3, 'two steps down from “bank”: the second “the”');
      assert.deepEqual(moved.values, expected('The bank by the river').weightsOf(3));

      const stops = page.locator(`${SIDE.A} .chart-stop`);
      await stops.first().focus();
      await page.keyboard.press('ArrowRight');
      await page.keyboard.press('End');
      const focused = await page.evaluate(() => document.activeElement?.getAttribute('aria-label'));
      const a = await readSide(page, 'A');
      assert.equal(focused, `key “bank”: weight ${a.texts.at(-1)}`);
      const readout = await page.locator(`${SIDE.A} .chart-readout`).textContent();
      assert.equal(readout, focused);
      assert.equal(await currentSlide(page), 'self-attention');
      assert.match(page.url(), /#\/self-attention$/);

      await visitNextSlideAndBack(page, 'self-attention');
      await page.locator(`${SIDE.B} .sap-bars svg.chart-svg`).waitFor({ timeout: TIMEOUT });
      const back = await readSide(page, 'B');
      assert.equal(back.sentence, 'The bank by the river');
      assert.equal(back.chosen, 3, 'the chosen word is kept');
    });
  });

  test('Measure times n = 32 to 1024 without freezing the page and prints the chart’s slope', async () => {
    await withFigure(async (page) => {
      const status = page.locator(`${SLIDE} .sap-cost-status`);
      assert.match(await status.textContent(), /Press Measure/);
      assert.equal(await page.locator(`${SLIDE} .sap-cost-figure`).isVisible(), false);
      // A timer that should fire every 5 ms: the longest gap is the longest the page was busy.
      await page.evaluate(() => {
        const w = /** @type {any} */ (window);
        w.gaps = [];
        let last = performance.now();
        w.ticker = setInterval(() => {
          const now = performance.now();
          w.gaps.push(now - last);
          last = now;
        }, 5);
      });
      const measure = page.locator(`${SLIDE} .sap-measure`);
      await measure.focus();
      const started = await page.evaluate(() => performance.now());
      await page.keyboard.press('Enter');
      // The chart grows a length at a time, the slope not yet printed.
      const midway = await page.waitForFunction(
        (slide) => {
          const rows = document.querySelectorAll(`${slide} .sap-lines tbody tr`).length;
          if (rows < 1 || rows >= 6 || document.querySelector(`${slide} .sap-slope`)) return false;
          return {
            status: document.querySelector(`${slide} .sap-cost-status`).textContent,
            disabled: document.querySelector(`${slide} .sap-measure`).ariaDisabled,
          };
        },
        SLIDE,
        { timeout: TIMEOUT, polling: 'raf' },
      );
      const seen = await midway.jsonValue();
      assert.match(seen.status, /^Timing n = \d+ \([2-6] of 6\)…$/);
      assert.equal(seen.disabled, 'true', 'the button is marked busy but keeps its focus');
      assert.equal(
        await currentSlide(page),
        'self-attention',
        'Enter on the button kept the slide',
      );
      await page.locator(`${SLIDE} .sap-slope`).waitFor({ timeout: 60_000 });
      const busy = await page.evaluate((start) => {
        const w = /** @type {any} */ (window);
        clearInterval(w.ticker);
        return { longest: Math.max(...w.gaps), total: performance.now() - start };
      }, started);
      assert.ok(
        busy.longest < busy.total / 2,
        `the page answered while measuring: longest pause ${busy.longest} ms of ${busy.total} ms`,
      );
      assert.equal(await measure.getAttribute('aria-disabled'), 'false');
      assert.equal(await measure.textContent(), 'Measure again');

      const chart = await page.locator(`${SLIDE} .sap-lines`).evaluate((box) => ({
        columns: Array.from(box.querySelectorAll('thead th'), (th) => th.textContent),
        rows: Array.from(box.querySelectorAll('tbody tr'), (tr) => ({
          n: Number(tr.querySelector('th').textContent),
          values: Array.from(tr.querySelectorAll('td'), (td) => Number(td.dataset.value)),
          texts: Array.from(tr.querySelectorAll('td'), (td) => td.textContent),
        })),
        stops: Array.from(box.querySelectorAll('.chart-stop'), (s) => s.getAttribute('aria-label')),
        markers: box.querySelectorAll('svg.chart-svg .chart-marker.series-0').length,
      }));
      assert.deepEqual(chart.columns, ['n', 'measured', 'n² guide']);
      assert.deepEqual(
        chart.rows.map((r) => r.n),
        [32, 64, 128, 256, 512, 1024],
      );
      assert.equal(chart.markers, 6, 'one point per length');
      const times = chart.rows.map((r) => r.values[0]);
      for (const t of times) assert.ok(t > 0 && Number.isFinite(t), `${t} ms`);
      chart.rows.forEach((row, i) => {
        // The chart's stops say what the table says.
        assert.equal(
          chart.stops[i],
          `n = ${row.n}: measured ${row.texts[0]}, n² guide ${row.texts[1]}`,
        );
        const guide = times[5] * (row.n / 1024) ** 2;
        assert.ok(Math.abs(row.values[1] - guide) <= 1e-9 * guide, 'the guide grows as n²');
      });

      // The slope printed is the least-squares fit of the table's times for n >= 128.
      const fit = chart.rows.filter((r) => r.n >= 128);
      const lx = fit.map((r) => Math.log(r.n));
      const ly = fit.map((r) => Math.log(r.values[0]));
      const mean = (v) => v.reduce((s, x) => s + x, 0) / v.length;
      const [mx, my] = [mean(lx), mean(ly)];
      const slope =
        lx.reduce((s, x, i) => s + (x - mx) * (ly[i] - my), 0) /
        lx.reduce((s, x) => s + (x - mx) ** 2, 0);
      const line = page.locator(`${SLIDE} .sap-slope`);
      const printed = Number(await line.getAttribute('data-slope'));
      assert.ok(Math.abs(printed - slope) < 1e-9, `printed ${printed}, fitted ${slope}`);
      const text = (await line.textContent()).replace(/\s+/g, ' ');
      assert.match(
        text,
        /^slope (\d\.\d): time grows about as n(\d(\.\d)?) for n ≥ 128; doubling n multiplies it by about (\d+\.\d)\.$/,
      );
      assert.equal(text.match(/^slope (\d\.\d)/)[1], slope.toFixed(1));
      assert.equal(text.match(/by about (\d+\.\d)/)[1], (2 ** slope).toFixed(1));
      // The slope's value depends on the machine and its load: bench/ measures speed, this test
      // checks only that the figure reports its own measurements faithfully.
      assert.match(
        await page.locator(`${SLIDE} .sap-cost-why`).textContent(),
        /O\(n2d\)/,
        'the cost is said to be O(n²d)',
      );

      // The measurement ended on a timer, not on a learner's event; the widget handed it to the
      // deck all the same, so a visit elsewhere does not lose it.
      await visitNextSlideAndBack(page, 'self-attention');
      await page.locator(`${SLIDE} .sap-slope`).waitFor({ timeout: TIMEOUT });
      assert.equal(Number(await line.getAttribute('data-slope')), printed, 'the same measurement');
      assert.equal(await measure.textContent(), 'Measure again');
    });
  });

  for (const colorScheme of /** @type {const} */ (['light', 'dark'])) {
    test(`axe finds nothing on the slide, measured and with its tables open (${colorScheme})`, async () => {
      await withFigure(
        async (page) => {
          await page.locator(`${SLIDE} .sap-measure`).click();
          await page.locator(`${SLIDE} .sap-slope`).waitFor({ timeout: 60_000 });
          for (const summary of await page.locator(`${SLIDE} .chart-details summary`).all()) {
            await summary.click();
          }
          await page.locator(`${SIDE.A} .chart-stop`).nth(2).focus();
          assert.deepEqual(await axeFindings(page, colorScheme, SLIDE), []);
        },
        { colorScheme },
      );
    });
  }

  test('on a phone the figure stacks under the text without sideways scrolling', async () => {
    await withFigure(
      async (page) => {
        const sideways = await page.evaluate((slide) => {
          const section = document.querySelector(slide);
          return section.scrollWidth - section.clientWidth;
        }, SLIDE);
        assert.equal(sideways, 0);
        await page.locator(`${SIDE.A} .sap-sentence`).fill('I sat on the river bank 💙 東京 שלום');
        await page.locator(`${SLIDE} .sap-measure`).click();
        await page.locator(`${SLIDE} .sap-slope`).waitFor({ timeout: 60_000 });
        const after = await page.evaluate((slide) => {
          const section = document.querySelector(slide);
          return section.scrollWidth - section.clientWidth;
        }, SLIDE);
        assert.equal(after, 0);
      },
      { viewport: { width: 360, height: 740 }, colorScheme: 'dark' },
    );
  });
});
