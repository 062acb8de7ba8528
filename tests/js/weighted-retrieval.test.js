// The weighted-retrieval widget's numbers, with the real engine and word vectors: the dot, general
// and additive scores of a query word against a sentence, their weights and context vectors, and
// the drag mode's weights and context from hand-set scores, each checked against an independent
// computation here in double precision from the same float32 inputs.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { register } from 'node:module';
import { before, describe, test } from 'node:test';
import { loadEngine } from 'attention-lab';

import {
  ATTENTION_WIDTH,
  KINDS,
  compareScores,
  dragScores,
  fitScores,
  parameterSeeds,
  scoringParameters,
  states,
  weightSum,
} from '../../web/src/widgets/weighted-retrieval/math.js';
import { MAX_SEED } from '../../web/src/widgets/shared/seed.js';
import { assertClose } from './helpers.js';

/**
 * Scores are sums of 100 (dot), 10,000 (general) or 32 tanh (additive) float32 products of
 * magnitude up to a few units; float32 rounding of such sums stays below 1e-5 relative, and the
 * absolute 1e-4 covers scores that cancel to near 0. Weights and context vectors come out of a
 * softmax and a weighted sum of the same inputs, so they carry errors of the same order. A wrong
 * formula, a transposed matrix or a missed parameter changes them by far more.
 */
const TOLERANCE = Object.freeze({ abs: 1e-4, rel: 1e-4 });

const SENTENCE = ['the', 'cat', 'sat', 'on', 'the', 'mat'];

/** @type {any} */
let engine;
before(async () => {
  engine = await loadEngine();
  engine.loadEmbeddings(
    readFileSync(new URL('../../web/public/embeddings/en-20k-100d.bin', import.meta.url)),
  );
});

/**
 * Row r of a row-major (rows, cols) matrix times a vector x (cols), in double precision.
 * @param {ArrayLike<number>} m
 * @param {number} rows
 * @param {number} cols
 * @param {ArrayLike<number>} x
 * @returns {number[]} (rows)
 */
function times(m, rows, cols, x) {
  return Array.from({ length: rows }, (_, r) => {
    let sum = 0;
    for (let c = 0; c < cols; c++) sum += m[r * cols + c] * x[c];
    return sum;
  });
}

/** @param {ArrayLike<number>} a @param {ArrayLike<number>} b */
function dot(a, b) {
  let sum = 0;
  for (let k = 0; k < a.length; k++) sum += a[k] * b[k];
  return sum;
}

/** @param {number[]} e @returns {number[]} softmax(e), in double precision */
function softmax(e) {
  const top = Math.max(...e);
  const exps = e.map((x) => Math.exp(x - top));
  const total = exps.reduce((a, b) => a + b, 0);
  return exps.map((x) => x / total);
}

/**
 * sum_j weights_j h_j.
 * @param {number[]} weights (n)
 * @param {ArrayLike<number>} h (n, d)
 * @param {number} d
 */
function blend(weights, h, d) {
  return Array.from({ length: d }, (_, k) =>
    weights.reduce((sum, w, j) => sum + w * h[j * d + k], 0),
  );
}

/** @param {ArrayLike<number>} h @param {number} j @param {number} d */
const row = (h, j, d) => Array.prototype.slice.call(h, j * d, (j + 1) * d);

describe('the three scoring functions', () => {
  test('score the query against every token as the formulas say, from the same s and h_j', () => {
    const seed = 7;
    const { results, n, d } = compareScores(engine, SENTENCE, 'dog', seed);
    const { s, h } = states(engine, SENTENCE, 'dog');
    const { w, ws, wh, v, da } = scoringParameters(engine, d, seed);
    const hj = (j) => row(h, j, d);
    const wsS = times(ws, da, d, s);
    const want = {
      dot: SENTENCE.map((_, j) => dot(s, hj(j))),
      general: SENTENCE.map((_, j) => dot(s, times(w, d, d, hj(j)))),
      additive: SENTENCE.map((_, j) => {
        const hidden = times(wh, da, d, hj(j)).map((x, k) => Math.tanh(x + wsS[k]));
        return dot(v, hidden);
      }),
    };
    assert.equal(n, SENTENCE.length);
    for (const kind of KINDS) {
      assertClose(results[kind].scores, want[kind], `${kind} scores`, TOLERANCE);
      const alpha = softmax(want[kind]);
      assertClose(results[kind].weights, alpha, `${kind} weights`, TOLERANCE);
      assertClose(results[kind].context, blend(alpha, h, d), `${kind} context`, TOLERANCE);
    }
  });

  test('each set of weights adds up to 1 within float32 rounding', () => {
    const { results } = compareScores(engine, SENTENCE, 'floor', 1);
    for (const kind of KINDS) {
      const sum = weightSum(results[kind].weights);
      assert.ok(Math.abs(sum - 1) < 1e-6, `${kind}: ${sum}`);
      assert.equal(sum.toFixed(6), '1.000000');
    }
  });

  test('the same token scores the same wherever it stands, and the dot score needs no seed', () => {
    const one = compareScores(engine, SENTENCE, 'dog', 1).results;
    const two = compareScores(engine, SENTENCE, 'dog', 2).results;
    // "the" is tokens 0 and 4; the engine may round the two sums in another order.
    for (const kind of KINDS) {
      assertClose([one[kind].scores[4]], [one[kind].scores[0]], `${kind}: “the” twice`, TOLERANCE);
    }
    assert.deepEqual(one.dot.scores, two.dot.scores);
    assert.notDeepEqual(one.general.scores, two.general.scores);
    assert.notDeepEqual(one.additive.scores, two.additive.scores);
  });

  test('the dot score of “kitten” against the sentence puts nearly all the weight on “cat”', () => {
    const { dot: result } = compareScores(engine, SENTENCE, 'kitten', 1).results;
    const top = result.weights.indexOf(Math.max(...result.weights));
    assert.equal(SENTENCE[top], 'cat');
    assert.ok(result.weights[top] > 0.99, String(result.weights[top]));
  });

  test('the parameters have the documented shapes and come from the seed and the three after', () => {
    const d = 100;
    const p = scoringParameters(engine, d, MAX_SEED);
    assert.equal(p.da, ATTENTION_WIDTH);
    assert.equal(p.w.length, d * d);
    assert.equal(p.ws.length, ATTENTION_WIDTH * d);
    assert.equal(p.wh.length, ATTENTION_WIDTH * d);
    assert.equal(p.v.length, ATTENTION_WIDTH);
    assert.deepEqual(parameterSeeds(MAX_SEED), { w: MAX_SEED, ws: 0, wh: 1, v: 2 });
    assert.deepEqual(p.w, engine.glorotUniform(d, d, MAX_SEED));
    assert.deepEqual(p.ws, engine.glorotUniform(ATTENTION_WIDTH, d, 0));
    assert.deepEqual(p.wh, engine.glorotUniform(ATTENTION_WIDTH, d, 1));
    assert.deepEqual(p.v, engine.unitNormal(ATTENTION_WIDTH, 1, 2));
  });

  test('words outside the vocabulary are flagged, the query among them', () => {
    const { unknown, queryUnknown } = compareScores(engine, ['the', 'zorbly', 'cat'], 'qwxv', 1);
    assert.deepEqual(unknown, [false, true, false]);
    assert.equal(queryUnknown, true);
    assert.equal(compareScores(engine, ['cat'], 'dog', 1).queryUnknown, false);
  });
});

describe('the drag mode', () => {
  test('turns hand-set scores into softmax weights and the blend of the encoder states', () => {
    const scores = [0, 2.5, -1, 0, 0.75, -6];
    const result = dragScores(engine, SENTENCE, scores);
    const { h, d } = states(engine, SENTENCE, 'dog');
    assert.deepEqual(Array.from(result.scores), scores);
    assert.deepEqual(result.weights, engine.softmax(scores, 1, SENTENCE.length));
    const alpha = softmax(scores);
    assertClose(result.weights, alpha, 'weights', TOLERANCE);
    assertClose(result.context, blend(alpha, h, d), 'context', TOLERANCE);
  });

  test('equal scores share the weight equally, and c is then the mean of the h_j', () => {
    const result = dragScores(
      engine,
      SENTENCE,
      SENTENCE.map(() => 0),
    );
    const n = SENTENCE.length;
    assertClose(result.weights, new Array(n).fill(1 / n), 'weights', TOLERANCE);
    const { h, d } = states(engine, SENTENCE, 'dog');
    assertClose(result.context, blend(new Array(n).fill(1 / n), h, d), 'mean', TOLERANCE);
  });

  test('raising one score raises its weight and shrinks every other', () => {
    const before = dragScores(engine, SENTENCE, [0, 0, 0, 0, 0, 0]).weights;
    const after = dragScores(engine, SENTENCE, [0, 0, 3, 0, 0, 0]).weights;
    assert.ok(after[2] > before[2]);
    for (const j of [0, 1, 3, 4, 5]) assert.ok(after[j] < before[j], `token ${j}`);
    assert.ok(Math.abs(weightSum(after) - 1) < 1e-6);
  });

  test('a score list of the wrong length is refused', () => {
    assert.throws(() => dragScores(engine, SENTENCE, [1, 2]), /2 scores for 6 tokens/);
  });

  test('kept scores are reused by position, padded with 0 and held to the slider range', () => {
    assert.deepEqual(fitScores([1, -9, 'x', 4], 6, -6, 6), [1, -6, 0, 4, 0, 0]);
    assert.deepEqual(fitScores([1, 2, 3], 2, -6, 6), [1, 2]);
    assert.deepEqual(fitScores(undefined, 3, -6, 6), [0, 0, 0]);
    assert.deepEqual(fitScores([Infinity, NaN, null], 3, -6, 6), [0, 0, 0]);
  });
});

describe('the numbers as the figure writes them', () => {
  // The figure modules import CSS as Vite serves them; these hooks do the same for Node.
  before(() => register('./page-modules.js', import.meta.url));

  test('scores get a true minus sign and fewer decimals from 10 up', async () => {
    const { formatScore, formatSum } =
      await import('../../web/src/widgets/weighted-retrieval/figures.js');
    assert.equal(formatScore(-2.256), '\u22122.26');
    assert.equal(formatScore(24.97), '25.0');
    assert.equal(formatScore(9.996), '10.0');
    assert.equal(formatScore(-0.001), '0.00');
    assert.equal(formatScore(-0.04, 1), '0.0');
    assert.equal(formatScore(3.75, 1), '3.8');
    assert.equal(formatScore(-12.7, 1), '\u221213');
    assert.equal(formatSum(0.99999994), '1.000000');
  });

  test('every query word the box suggests is in the vocabulary', async () => {
    const { SUGGESTIONS } = await import('../../web/src/widgets/weighted-retrieval/markup.js');
    assert.ok(SUGGESTIONS.length > 0);
    assert.deepEqual(
      Array.from(engine.embed(SUGGESTIONS).known),
      SUGGESTIONS.map(() => 1),
    );
  });
});
