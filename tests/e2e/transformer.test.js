// End-to-end tests of the transformer figures, lesson 2's Transformer translator: on the heads
// slide the German it writes and the chosen cross-attention head's weights, each head's score
// from its report; the search between greedy and the measured beam; on the comparison slide the
// three translators' German and their BLEU by English length from the two reports; on the
// encoder-layer slide the chosen encoder head's weights, each head with where its largest weights
// fell on the test split; on the add-and-norm slide every word's residual stream by each measure.
// Every translation and weight shown equals what the same engine computes here in Node for the
// same text; bad input gets a message, never an error; nothing reaches outside the origin (site.visit
// checks that, and that the console stayed clean, after every page).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { loadTranslator } from 'attention-lab';

import { axeFindings } from './axe.js';
import { assertBadSentences } from './bad-sentences.js';
import { readChart, useSite, waitForSlide } from './browser.js';

const TIMEOUT = 20_000;
const read = (path) => JSON.parse(readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8'));
const REPORT = read('web/public/models/transformer.json');
const LESSON_1 = read('web/public/models/translation.json');
const MEASURED = REPORT.models.transformer;
const transformer = await loadTranslator({ model: 'transformer' });
const attention = await loadTranslator();
const fixedVector = await loadTranslator({ model: 'fixed-vector' });
const BEAM = { beam: transformer.info.measuredBeam };
const site = useSite();

/**
 * Opens lesson 2's deck on a slide and waits for its Transformer figure.
 * @param {string} id the slide
 * @param {(page: import('playwright-core').Page, slide: string) => Promise<void>} body
 */
function withSlide(id, body) {
  return site.visit(`index.html?lesson=transformer#/${id}`, async (page) => {
    await waitForSlide(page, id);
    await drawn(page, `#${id}`);
    await body(page, `#${id}`);
  });
}

/**
 * @param {import('playwright-core').Page} page
 * @param {string} slide
 */
function drawn(page, slide) {
  return page
    .locator(`${slide} .tf[data-state="drawn"] .tf-result:not([hidden])`)
    .waitFor({ timeout: TIMEOUT });
}

/**
 * The heads view's matrix as its table gives it, and the state it was drawn in.
 * @param {import('playwright-core').Page} page
 * @param {string} slide
 */
async function readMatrix(page, slide) {
  const details = page.locator(`${slide} .tf-tables details`);
  if (!(await details.evaluate((node) => /** @type {HTMLDetailsElement} */ (node).open))) {
    await details.locator('summary').click();
  }
  return page.locator(`${slide} .tf`).evaluate((root) => {
    const table = /** @type {HTMLTableElement} */ (root.querySelector('.tf-tables table'));
    return {
      head: root.getAttribute('data-head'),
      beam: Number(root.getAttribute('data-beam')),
      german: root.querySelector('.tf-words')?.textContent ?? '',
      columns: Array.from(table.querySelectorAll('thead th'), (th) => th.textContent).slice(1),
      rows: Array.from(table.querySelectorAll('tbody tr'), (tr) =>
        Array.from(tr.querySelectorAll('td'), (td) => Number(td.dataset.value)),
      ),
      facts: root.querySelector('.tf-head-facts')?.textContent ?? '',
      split: root.querySelector('.tf-split')?.textContent ?? '',
    };
  });
}

/**
 * Waits until the figure is drawn for the head and beam given.
 * @param {import('playwright-core').Page} page
 * @param {string} slide
 * @param {string} head
 * @param {number} beam
 */
function waitForHead(page, slide, head, beam) {
  return page.waitForFunction(
    ([scope, key, width]) => {
      const root = document.querySelector(`${scope} .tf`);
      return (
        root?.getAttribute('data-state') === 'drawn' &&
        root.getAttribute('data-head') === key &&
        root.getAttribute('data-beam') === String(width)
      );
    },
    [slide, head, beam],
    { timeout: TIMEOUT },
  );
}

/**
 * Asserts that the matrix shown is `expected`, row by row, and that every row adds up to 1.
 * @param {number[][]} rows
 * @param {ArrayLike<number>} expected (rows, columns) row-major
 * @param {string} what
 */
function assertRows(rows, expected, what) {
  const n = rows[0].length;
  rows.forEach((row, t) => {
    row.forEach((value, j) => {
      assert.ok(Math.abs(value - expected[t * n + j]) < 1e-6, `${what} (${t}, ${j})`);
    });
    const sum = row.reduce((a, b) => a + b, 0);
    assert.ok(Math.abs(sum - 1) < 1e-5, `${what}: row ${t} adds up to ${sum}`);
  });
}

describe('heads slide: every decoder head, one at a time', () => {
  test('draws the chosen head, and another head redraws with its own score', async () => {
    await withSlide('heads', async (page, slide) => {
      const sentence = await page.locator(`${slide} .tf-sentence`).inputValue();
      const run = transformer.translate(sentence, BEAM);
      const cross = /** @type {NonNullable<typeof run.crossAttention>} */ (run.crossAttention);
      const size = run.target.length * run.source.length;
      const map = (layer, head) =>
        cross.weights.subarray(
          (layer * cross.heads + head) * size,
          (layer * cross.heads + head + 1) * size,
        );

      // The slide opens on head 1.1 (layer 1, head 1) with the measured beam.
      await waitForHead(page, slide, '1.1', BEAM.beam);
      let shown = await readMatrix(page, slide);
      assert.equal(shown.german, run.output.join(' '));
      assert.deepEqual(shown.columns, run.source);
      assertRows(shown.rows, map(0, 0), 'head 1.1');
      const scoreOf = (h) => (h.aligned / h.checkable).toFixed(3);
      assert.ok(shown.facts.includes(`(${scoreOf(MEASURED.heads[0])})`), shown.facts);

      // Every head is offered with its measured score.
      const labels = await page.locator(`${slide} .tf-head-choice`).allTextContents();
      MEASURED.heads.forEach((h, i) => {
        assert.equal(
          labels[i].replace(/\s+/g, ' ').trim(),
          `layer ${h.layer + 1} \u00b7 head ${h.head + 1} ${(h.aligned / h.checkable).toFixed(2)} aligned`,
        );
      });

      // Another head: its map, and its own numbers under it.
      const other = MEASURED.heads.find((h) => h.layer === 1 && h.head === 1);
      await page.getByRole('radio', { name: /^layer 2 · head 2\b/ }).check();
      await waitForHead(page, slide, '2.2', BEAM.beam);
      shown = await readMatrix(page, slide);
      assertRows(shown.rows, map(1, 1), 'head 2.2');
      assert.match(shown.facts, /^Layer 2 · head 2 on the test split/);
      assert.ok(shown.facts.includes(`${other.aligned.toLocaleString('en')} of`), shown.facts);
      assert.ok(shown.facts.includes(`(${scoreOf(other)})`), shown.facts);

      // The last layer's mean: the rows the report's alignment score measures.
      await page.getByRole('radio', { name: /^mean of the last layer/ }).check();
      await waitForHead(page, slide, 'mean', BEAM.beam);
      shown = await readMatrix(page, slide);
      assertRows(shown.rows, run.weights, 'mean');
      assert.ok(shown.facts.includes(`(${scoreOf(MEASURED.alignment)})`), shown.facts);
      const weakest = MEASURED.heads.reduce((a, b) => (b.score < a.score ? b : a));
      if (weakest.score <= MEASURED.alignment.diagonalScore) {
        assert.match(
          shown.split,
          new RegExp(
            `No better than it: [^.]*layer ${weakest.layer + 1} · head ${weakest.head + 1}`,
          ),
        );
      }
    });
  });

  test('the search chooses greedy decoding or the measured beam', async () => {
    await withSlide('decoding', async (page, slide) => {
      const sentence = await page.locator(`${slide} .tf-sentence`).inputValue();
      // The decoding slide opens on greedy decoding and the mean.
      await waitForHead(page, slide, 'mean', 1);
      const greedy = transformer.translate(sentence, { beam: 1 });
      let shown = await readMatrix(page, slide);
      assert.equal(shown.german, greedy.output.join(' '));
      assertRows(shown.rows, greedy.weights, 'greedy');
      assert.equal(await page.getByRole('radio', { name: 'greedy' }).isChecked(), true);

      await page.getByRole('radio', { name: `beam ${BEAM.beam}` }).check();
      await waitForHead(page, slide, 'mean', BEAM.beam);
      const beam = transformer.translate(sentence, BEAM);
      shown = await readMatrix(page, slide);
      assert.equal(shown.german, beam.output.join(' '));
      assertRows(shown.rows, beam.weights, 'beam');
    });
  });
});

describe('three-translators slide: Figure 2 with a third line', () => {
  test('three translators’ German, and all three’s BLEU by English length', async () => {
    await withSlide('three-translators', async (page, slide) => {
      const sentence = await page.locator(`${slide} .tf-sentence`).inputValue();
      const german = (selector) => page.locator(`${slide} ${selector}`).textContent();
      const words = (model) =>
        model.translate(sentence, { beam: model.info.measuredBeam }).output.join(' ');
      assert.equal(await german('.tf-fixed-vector'), words(fixedVector));
      assert.equal(await german('.tf-attention'), words(attention));
      assert.equal(await german('.tf-transformer'), words(transformer));

      const chart = await readChart(page, `${slide} .tf-chart`);
      assert.deepEqual(chart.columns.slice(1), [
        'One fixed vector',
        'With attention',
        'Transformer',
      ]);
      assert.deepEqual(
        chart.rows,
        MEASURED.bleu.buckets.map((b, i) => [
          LESSON_1.models['fixed-vector'].bleu.buckets[i].bleu,
          LESSON_1.models.attention.bleu.buckets[i].bleu,
          b.bleu,
        ]),
      );
      const lines = await page
        .locator(`${slide} .tf-chart svg .chart-line`)
        .evaluateAll((paths) => new Set(paths.map((path) => path.getAttribute('class'))).size);
      assert.equal(lines, 3, 'three lines');
      const caption =
        (await page
          .locator(`${slide} .tf-chart figcaption, ${slide} .tf-chart caption`)
          .first()
          .textContent()) ?? '';
      assert.match(
        caption,
        new RegExp(`same ${REPORT.corpus.testPairs.toLocaleString('en')} held-out test pairs`),
      );

      // The learner's sentence: all three translate it.
      const next = 'The house is very old.';
      await page.locator(`${slide} .tf-sentence`).fill(next);
      await page.waitForFunction(
        ([scope, text]) => document.querySelector(`${scope} .tf-transformer`)?.textContent === text,
        [slide, transformer.translate(next, BEAM).output.join(' ')],
        { timeout: TIMEOUT },
      );
      assert.equal(
        await german('.tf-attention'),
        attention.translate(next, { beam: attention.info.measuredBeam }).output.join(' '),
      );
    });
  });
});

/**
 * Waits until the figure is drawn with its attribute `name` (data-head, data-measure) at `value`.
 * @param {import('playwright-core').Page} page
 * @param {string} slide
 * @param {string} name
 * @param {string} value
 */
function waitForDrawn(page, slide, name, value) {
  return page.waitForFunction(
    ([scope, attribute, expected]) => {
      const root = document.querySelector(`${scope} .tf`);
      return (
        root?.getAttribute('data-state') === 'drawn' && root.getAttribute(attribute) === expected
      );
    },
    [slide, name, value],
    { timeout: TIMEOUT },
  );
}

/**
 * A (rows, n) stage- or sublayer-major array of the trace as the figure draws it: a word a row.
 * @param {Float32Array} values
 * @param {number} n
 * @returns {number[][]}
 */
function byWord(values, n) {
  const rows = values.length / n;
  return Array.from({ length: n }, (_, i) =>
    Array.from({ length: rows }, (_, r) => values[r * n + i]),
  );
}

describe('encoder-layer and add-and-norm slides: inside the encoder', () => {
  test('the encoder-layer slide draws the chosen self-attention head, each with its shares', async () => {
    await withSlide('encoder-layer', async (page, slide) => {
      const sentence = await page.locator(`${slide} .tf-sentence`).inputValue();
      const run = transformer.translate(sentence);
      const encoder = /** @type {NonNullable<typeof run.encoder>} */ (run.encoder);
      const n = run.source.length;
      const map = (layer, head) =>
        encoder.weights.subarray(
          (layer * encoder.heads + head) * n * n,
          (layer * encoder.heads + head + 1) * n * n,
        );
      const { heads } = MEASURED.encoder;

      // The slide opens on the head of layer 2 that reads the word before.
      await waitForDrawn(page, slide, 'data-head', '2.1');
      let shown = await readMatrix(page, slide);
      assert.deepEqual(shown.columns, run.source);
      assertRows(shown.rows, map(1, 0), 'head 2.1');
      const percent = (x) => `${Math.round(x * 100)}%`;
      const first = heads.find((h) => h.layer === 1 && h.head === 0);
      assert.match(shown.facts, /^Layer 2 · head 1 on the [\d,]+ test sentences/);
      assert.ok(
        shown.facts.includes(`the word before for ${percent(first.previous)}`),
        shown.facts,
      );

      // Every encoder head is offered with its largest share.
      const labels = await page.locator(`${slide} .tf-head-choice`).allTextContents();
      assert.equal(labels.length, heads.length);
      heads.forEach((h, i) => {
        const largest = Math.max(h.previous, h.self, h.next);
        assert.ok(
          labels[i]
            .replace(/\s+/g, ' ')
            .trim()
            .startsWith(
              `layer ${h.layer + 1} \u00b7 head ${h.head + 1} ${largest.toFixed(2)} word`,
            ),
          labels[i],
        );
      });

      // Another head redraws with its own map and shares.
      await page.getByRole('radio', { name: /^layer 1 · head 2\b/ }).check();
      await waitForDrawn(page, slide, 'data-head', '1.2');
      shown = await readMatrix(page, slide);
      assertRows(shown.rows, map(0, 1), 'head 1.2');
      assert.match(shown.facts, /^Layer 1 · head 2 on/);
    });
  });

  test('the add-and-norm slide draws each word\u2019s stream by the measure chosen', async () => {
    await withSlide('add-and-norm', async (page, slide) => {
      const sentence = await page.locator(`${slide} .tf-sentence`).inputValue();
      const run = transformer.translate(sentence);
      const encoder = /** @type {NonNullable<typeof run.encoder>} */ (run.encoder);
      const n = run.source.length;
      const close = (rows, expected, what) => {
        assert.equal(rows.length, expected.length, what);
        rows.forEach((row, i) =>
          row.forEach((value, j) =>
            assert.ok(Math.abs(value - expected[i][j]) < 1e-6, `${what} (${i}, ${j})`),
          ),
        );
      };
      const expected = {
        size: byWord(encoder.streamRms, n),
        read: byWord(encoder.readRms, n),
        write: byWord(encoder.writeRms, n),
        kept: byWord(encoder.inputCosine, n),
      };
      await waitForDrawn(page, slide, 'data-measure', 'size');
      let shown = await readMatrix(page, slide);
      assert.deepEqual(shown.columns, ['input', '+ attn 1', '+ FFN 1', '+ attn 2', '+ FFN 2']);
      close(shown.rows, expected.size, 'size');
      const stages = MEASURED.encoder.stages.map((stage) => stage.streamRms.toFixed(2));
      assert.ok(shown.facts.includes(stages.join(', ')), shown.facts);

      for (const [measure, name] of /** @type {const} */ ([
        ['read', 'Sublayer reads'],
        ['write', 'Sublayer adds'],
        ['kept', 'Input kept'],
      ])) {
        await page.getByRole('radio', { name }).check();
        await waitForDrawn(page, slide, 'data-measure', measure);
        shown = await readMatrix(page, slide);
        close(shown.rows, expected[measure], measure);
      }
      const lead = await page.locator(`${slide} .tf-lead`).textContent();
      assert.match(lead ?? '', /^After both layers the words’ streams have a cosine of/);
    });
  });
});

describe('access', () => {
  test('every view passes axe, every control labelled', async () => {
    for (const id of ['heads', 'three-translators', 'encoder-layer', 'add-and-norm']) {
      await withSlide(id, async (page, slide) => {
        assert.deepEqual(await axeFindings(page, 'light', `${slide} .widget-host`), [], id);
      });
    }
  });
});

describe('bad input', () => {
  test('empty text, 5,000 words, markup and odd Unicode get a message, never an error, in the decoder and encoder views', async () => {
    for (const id of ['heads', 'encoder-layer']) {
      await withSlide(id, (page, slide) => assertBadSentences(page, slide, 'tf'));
    }
  });
});
