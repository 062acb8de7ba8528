// The attention-steps widget's pure parts, with the real engine and word vectors: the padded
// length, the trace of one attention call with [pad] rows and the masks (checked against a plain
// double-precision computation), what each step hands the heatmap view, and the words that
// describe it. The drawing itself is checked in the browser (tests/e2e/attention-steps).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { before, describe, test } from 'node:test';
import { loadEngine } from 'attention-lab';

import {
  finiteRange,
  hasMinusInfinity,
  stepData,
} from '../../web/src/widgets/attention-steps/figures.js';
import {
  PAD,
  PAD_MULTIPLE,
  STEPS,
  attentionSteps,
  padRows,
  paddedLength,
  stepNumber,
} from '../../web/src/widgets/attention-steps/math.js';
import {
  MINUS_INFINITY,
  padText,
  shapeText,
  stepText,
} from '../../web/src/widgets/attention-steps/text.js';
import { sentenceTokens } from '../../web/src/widgets/shared/token-matrix.js';
import { FLOAT32_TOLERANCE, assertClose } from './helpers.js';

/** @type {import('attention-lab').Engine} */
let engine;
before(async () => {
  engine = await loadEngine();
  engine.loadEmbeddings(
    readFileSync(new URL('../../web/public/embeddings/en-20k-100d.bin', import.meta.url)),
  );
});

const SENTENCE = 'The cook tasted the soup and added more salt.';

/**
 * Scaled dot-product self-attention in double precision, written out loop by loop: X (m, d) with
 * the rows given, Q = K = V = X, query i hidden from key j when `hidden(i, j)`.
 * @param {number[][]} x m rows of d numbers
 * @param {(i: number, j: number) => boolean} hidden
 */
function reference(x, hidden) {
  const m = x.length;
  const d = x[0].length;
  const dot = (a, b) => a.reduce((sum, value, k) => sum + value * b[k], 0);
  const scores = x.flatMap((q) => x.map((k) => dot(q, k)));
  const scaled = scores.map((s) => s / Math.sqrt(d));
  const masked = scaled.map((s, index) =>
    hidden(Math.floor(index / m), index % m) ? -Infinity : s,
  );
  const weights = [];
  for (let i = 0; i < m; i++) {
    const row = masked.slice(i * m, (i + 1) * m);
    const top = Math.max(...row);
    const e = row.map((s) => (s === -Infinity ? 0 : Math.exp(s - top)));
    const total = e.reduce((a, b) => a + b, 0);
    weights.push(...e.map((v) => v / total));
  }
  const output = [];
  for (let i = 0; i < m; i++) {
    for (let c = 0; c < d; c++) {
      let sum = 0;
      for (let j = 0; j < m; j++) sum += weights[i * m + j] * x[j][c];
      output.push(sum);
    }
  }
  return { scores, scaled, masked, weights, output };
}

/**
 * The sentence's word vectors as rows, with `pads` rows of zeros after them.
 * @param {string[]} tokens
 * @param {number} pads
 */
function rowsOf(tokens, pads) {
  const { vectors, d } = engine.embed(tokens);
  const rows = tokens.map((_, i) => Array.from(vectors.subarray(i * d, (i + 1) * d)));
  for (let p = 0; p < pads; p++) rows.push(new Array(d).fill(0));
  return rows;
}

describe('padding', () => {
  test('a sequence pads to the next multiple of 4 above its length, so at least one [pad]', () => {
    for (let n = 0; n <= 40; n++) {
      const m = paddedLength(n);
      assert.equal(m % PAD_MULTIPLE, 0, `${n} pads to a multiple of ${PAD_MULTIPLE}`);
      assert.ok(m > n && m <= n + PAD_MULTIPLE, `${n} pads to ${m}`);
    }
    assert.deepEqual([1, 3, 4, 10, 12].map(paddedLength), [4, 4, 8, 12, 16]);
  });

  test('the [pad] rows are zeros after an unchanged copy of X', () => {
    const x = Float32Array.from([1, 2, 3, 4, 5, 6]);
    const padded = padRows(x, 4, 3);
    assert.deepEqual(Array.from(padded), [1, 2, 3, 4, 5, 6, 0, 0, 0, 0, 0, 0]);
    assert.deepEqual(Array.from(x), [1, 2, 3, 4, 5, 6], 'X itself is left alone');
  });
});

describe('steps', () => {
  test('a step number is a whole number from 1 to 5; anything else falls back', () => {
    assert.equal(STEPS.length, 5);
    assert.deepEqual(
      STEPS.map((step) => step.key),
      ['scores', 'scaled', 'masked', 'weights', 'output'],
    );
    assert.deepEqual(
      [1, 5, '3', 3.0].map((v) => stepNumber(v)),
      [1, 5, 3, 3],
    );
    assert.deepEqual(
      [0, 6, 2.5, 'two', null, undefined, NaN].map((v) => stepNumber(v, 4)),
      [4, 4, 4, 4, 4, 4, 4],
    );
  });
});

describe('the trace of one sentence', () => {
  for (const [causal, padding] of [
    [false, false],
    [true, false],
    [false, true],
    [true, true],
  ]) {
    test(`causal ${causal}, padding ${padding}: every step matches attention written out by hand`, () => {
      const words = sentenceTokens(engine, SENTENCE);
      const result = attentionSteps(engine, words, { causal, padding });
      const n = words.length;
      const m = padding ? paddedLength(n) : n;
      assert.equal(result.n, n);
      assert.equal(result.m, m);
      assert.equal(result.d, 100);
      assert.deepEqual(result.tokens, [...words, ...new Array(m - n).fill(PAD)]);
      assert.deepEqual(
        result.padded,
        result.tokens.map((_, i) => i >= n),
      );
      const hidden = (i, j) => (causal && j > i) || (padding && j >= n);
      const want = reference(rowsOf(words, m - n), hidden);
      for (const key of ['scores', 'scaled', 'weights', 'output']) {
        assertClose(result.trace[key], want[key], key);
      }
      // The masked scores: -Infinity exactly where a mask hides a key, the scaled scores elsewhere.
      assertClose(result.trace.masked, want.masked, 'masked');
      for (let i = 0; i < m; i++) {
        const row = result.trace.weights.subarray(i * m, (i + 1) * m);
        const sum = row.reduce((a, b) => a + b, 0);
        assert.ok(Math.abs(sum - 1) <= FLOAT32_TOLERANCE.abs, `row ${i} sums to ${sum}`);
        row.forEach((w, j) => {
          if (hidden(i, j)) assert.equal(w, 0, `weight (${i}, ${j}) is exactly 0`);
        });
      }
    });
  }

  test('unknown words are flagged, [pad] tokens never are', () => {
    const words = sentenceTokens(engine, 'zqxj the blorpt');
    const result = attentionSteps(engine, words, { causal: false, padding: true });
    assert.deepEqual(result.unknown, [true, false, true, false]);
    assert.deepEqual(result.tokens, ['zqxj', 'the', 'blorpt', PAD]);
  });
});

describe('what each step draws', () => {
  const setup = (causal, padding) => {
    const words = sentenceTokens(engine, SENTENCE);
    return attentionSteps(engine, words, { causal, padding });
  };

  test('each step hands the view its own matrix of the trace, with token labels', () => {
    const result = setup(true, true);
    STEPS.forEach((step, i) => {
      const data = stepData(result, i + 1);
      assert.equal(data.values, result.trace[step.key], `step ${i + 1} shows ${step.key}`);
      assert.deepEqual(data.rowLabels, result.tokens);
      const cols = step.key === 'output' ? result.d : result.m;
      assert.equal(data.colLabels.length, cols);
      assert.equal(data.values.length, result.m * cols);
      assert.match(data.caption, new RegExp(`^Step ${i + 1},`));
    });
  });

  test('raw and scaled scores use a diverging range around 0 that holds every score', () => {
    const result = setup(false, false);
    for (const step of [1, 2]) {
      const { range, values, masked } = stepData(result, step);
      assert.ok(range, `step ${step} has a range`);
      const [lo, hi] = range;
      assert.equal(lo, -hi, 'symmetric');
      assert.ok(hi > 0);
      for (const v of values) assert.ok(v >= lo && v <= hi, `${v} is inside [${lo}, ${hi}]`);
      assert.equal(masked, undefined, 'the mask comes later');
    }
    const [, raw] = stepData(result, 1).range;
    const [, scaled] = stepData(result, 2).range;
    assert.ok(raw > 5 * scaled, `dividing by 10 shrinks the range (${raw} vs ${scaled})`);
  });

  test('the masked step marks exactly the -Infinity cells; the weights step the same cells', () => {
    const result = setup(true, true);
    const masked = stepData(result, 3);
    const flags = Array.from(result.trace.masked, (v) => v === -Infinity);
    assert.ok(flags.some(Boolean) && !flags.every(Boolean));
    assert.deepEqual(Array.from(masked.masked ?? []), flags);
    assert.deepEqual(Array.from(stepData(result, 4).masked ?? []), flags);
    assert.ok(masked.range?.every(Number.isFinite), 'the range ignores -Infinity');
    assert.equal(hasMinusInfinity(masked), true);
    assert.equal(hasMinusInfinity(stepData(result, 4)), false, 'weights are 0, not -Infinity');
    assert.equal(
      hasMinusInfinity(stepData(setup(false, false), 3)),
      false,
      'no mask, no -Infinity',
    );
    // The view writes a hidden score as minus infinity (names, read-out, table, legend); a
    // hidden weight keeps the view's own wording, 0.
    assert.equal(masked.maskedText, MINUS_INFINITY);
    for (const step of [1, 2, 4, 5]) assert.equal(stepData(result, step).maskedText, undefined);
  });

  test('the finite range ignores -Infinity and is never narrower than [-0.5, 0.5]', () => {
    assert.deepEqual(finiteRange([-Infinity, 1.2, -3.7]), [-4, 4]);
    assert.deepEqual(finiteRange([-Infinity, -Infinity]), [-0.5, 0.5]);
  });
});

describe('the words beside the figure', () => {
  test('the mask step counts the hidden cells and names why they are hidden', () => {
    const words = sentenceTokens(engine, SENTENCE);
    const both = attentionSteps(engine, words, { causal: true, padding: true });
    const hidden = Array.from(both.trace.masked).filter((v) => v === -Infinity).length;
    const text = stepText(both, 3, true);
    assert.ok(text.includes(`${MINUS_INFINITY} to ${hidden} of ${both.m * both.m} cells`), text);
    assert.match(text, /keys after their query and every \[pad\] key/);
    const none = attentionSteps(engine, words, { causal: false, padding: false });
    assert.match(stepText(none, 3, false), /No mask is on/);
  });

  test('the scale step names sqrt(d_k) of the word vectors', () => {
    const words = sentenceTokens(engine, SENTENCE);
    const result = attentionSteps(engine, words, { causal: false, padding: false });
    assert.match(stepText(result, 2, false), /√100 = 10/);
  });

  test('the shape is n × n for the scores and weights, n × d for the output', () => {
    const words = sentenceTokens(engine, SENTENCE);
    const result = attentionSteps(engine, words, { causal: false, padding: true });
    assert.equal(shapeText(result, 1), `${result.m} × ${result.m}`);
    assert.equal(shapeText(result, 5), `${result.m} × ${result.d}`);
  });

  test('the padding note says how many [pad] tokens reach which length, only with padding', () => {
    const words = sentenceTokens(engine, SENTENCE);
    const padded = attentionSteps(engine, words, { causal: false, padding: true });
    const pads = padded.m - padded.n;
    assert.match(
      padText(padded),
      new RegExp(`^${pads} \\[pad\\] tokens pad the ${padded.n} to ${padded.m}`),
    );
    assert.equal(padText(attentionSteps(engine, words, { causal: false, padding: false })), '');
  });
});
