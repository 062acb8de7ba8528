// The cross-attention widget's logic (web/src/widgets/cross-attention/math.js and text.js) with
// real engine and the lesson's word vectors: queries from one sentence and keys and values from
// another give an n_q x n_k grid equal to softmax(Q K^T / sqrt(d)) computed here independently;
// the seeded projections are X W with the widget's seeds; self-attention of either sentence is
// square; and the words on the page follow the engine's shapes and the input's problems.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { loadEngine } from 'attention-lab';

import {
  MODES,
  ROW_SUM_TOLERANCE,
  crossAttention,
  modeOf,
  rowSumError,
  sidesOf,
} from '../../web/src/widgets/cross-attention/math.js';
import {
  axisNames,
  captionText,
  cutText,
  promptText,
  shapeName,
  shapeNote,
  shapesText,
  titleText,
  unknownNote,
} from '../../web/src/widgets/cross-attention/text.js';
import { selfAttention } from '../../web/src/widgets/shared/self-attention.js';
import { sentenceTokens } from '../../web/src/widgets/shared/token-matrix.js';
import { assertClose } from './helpers.js';

const engine = await loadEngine();
engine.loadEmbeddings(
  readFileSync(new URL('../../web/public/embeddings/en-20k-100d.bin', import.meta.url)),
);

const A = sentenceTokens(engine, 'The cat sat on the mat');
const B = sentenceTokens(engine, 'A dog slept on the old sofa by the door.');

/**
 * softmax(Q K^T / sqrt(d)) and its product with V, in float64, from the rows given.
 * @param {ArrayLike<number>} q (nq, d)
 * @param {ArrayLike<number>} k (nk, d)
 * @param {ArrayLike<number>} v (nk, d)
 * @param {number} nq
 * @param {number} nk
 * @param {number} d
 */
function reference(q, k, v, nq, nk, d) {
  const weights = [];
  const output = [];
  for (let i = 0; i < nq; i++) {
    const scores = Array.from({ length: nk }, (_, j) => {
      let dot = 0;
      for (let c = 0; c < d; c++) dot += q[i * d + c] * k[j * d + c];
      return dot / Math.sqrt(d);
    });
    const top = Math.max(...scores);
    const exps = scores.map((s) => Math.exp(s - top));
    const total = exps.reduce((sum, e) => sum + e, 0);
    const row = exps.map((e) => e / total);
    weights.push(...row);
    for (let c = 0; c < d; c++) {
      let sum = 0;
      for (let j = 0; j < nk; j++) sum += row[j] * v[j * d + c];
      output.push(sum);
    }
  }
  return { weights, output };
}

/**
 * X W in float64: (n, d) times (d, d), the row-vector convention of the engine's projections.
 * @param {ArrayLike<number>} x
 * @param {ArrayLike<number>} w
 * @param {number} n
 * @param {number} d
 */
function project(x, w, n, d) {
  const out = [];
  for (let i = 0; i < n; i++) {
    for (let c = 0; c < d; c++) {
      let sum = 0;
      for (let r = 0; r < d; r++) sum += x[i * d + r] * w[r * d + c];
      out.push(sum);
    }
  }
  return out;
}

describe('cross-attention numbers', () => {
  test('queries from one sentence and keys from another give an n_q x n_k grid', () => {
    const result = crossAttention(engine, A, B, null);
    assert.notEqual(A.length, B.length, 'the two sentences differ in length');
    assert.equal(result.nq, A.length);
    assert.equal(result.nk, B.length);
    assert.equal(result.weights.length, A.length * B.length);
    assert.equal(result.dv, result.d);
    assert.equal(result.output.length, A.length * result.d);
  });

  test('without projections the weights are softmax(X_A X_B^T / sqrt(d)) and the output W X_B', () => {
    const result = crossAttention(engine, A, B, null);
    const xa = engine.embed(A).vectors;
    const xb = engine.embed(B).vectors;
    const want = reference(xa, xb, xb, A.length, B.length, result.d);
    assertClose(result.weights, want.weights, 'weights');
    assertClose(result.output, want.output, 'output');
  });

  test('every row of the weights sums to 1, and rowSumError measures how far one misses', () => {
    const result = crossAttention(engine, A, B, null);
    assert.ok(result.rowError <= ROW_SUM_TOLERANCE, `rows miss 1 by ${result.rowError}`);
    assert.equal(result.rowError, rowSumError(result.weights, result.nq, result.nk));
    const broken = Float32Array.from(result.weights);
    broken[B.length + 2] += 0.25;
    assert.ok(Math.abs(rowSumError(broken, A.length, B.length) - 0.25) < 1e-6);
  });

  test('a seed projects Q, K and V with Glorot-uniform W drawn from it and the next two seeds', () => {
    const seed = 7;
    const result = crossAttention(engine, A, B, seed);
    const d = result.d;
    const [wq, wk, wv] = [0, 1, 2].map((k) => engine.glorotUniform(d, d, seed + k));
    const xa = engine.embed(A).vectors;
    const xb = engine.embed(B).vectors;
    const q = project(xa, wq, A.length, d);
    const k = project(xb, wk, B.length, d);
    const v = project(xb, wv, B.length, d);
    const want = reference(q, k, v, A.length, B.length, d);
    assertClose(result.weights, want.weights, 'projected weights');
    assertClose(result.output, want.output, 'projected output');
    const plain = crossAttention(engine, A, B, null);
    assert.ok(
      result.weights.some((w, i) => Math.abs(w - plain.weights[i]) > 1e-3),
      'projections change the weights',
    );
    const other = crossAttention(engine, A, B, seed + 1);
    assert.notDeepEqual(Array.from(other.weights), Array.from(result.weights), 'seeds differ');
  });

  test('the same sentence on both sides is the heatmap widget’s self-attention: a square', () => {
    for (const tokens of [A, B]) {
      const result = crossAttention(engine, tokens, tokens, null);
      assert.equal(result.nq, result.nk);
      assert.deepEqual(result.weights, selfAttention(engine, tokens, false).weights);
    }
  });

  test('tokens outside the vocabulary are flagged on their own side', () => {
    const queries = sentenceTokens(engine, 'the zqxv cat');
    const keys = sentenceTokens(engine, 'vvqz on mat');
    const result = crossAttention(engine, queries, keys, null);
    const flags = (tokens) => Array.from(engine.embed(tokens).known, (k) => k === 0);
    assert.deepEqual(result.unknownQueries, flags(queries));
    assert.deepEqual(result.unknownKeys, flags(keys));
    assert.ok(result.unknownQueries[1] && result.unknownKeys[0], 'the made-up words are flagged');
    assert.ok(result.rowError <= ROW_SUM_TOLERANCE, 'unknown words still draw a valid grid');
  });
});

describe('cross-attention inputs', () => {
  test('the modes wire the sentences as named; anything else falls back to cross', () => {
    assert.deepEqual(sidesOf('cross'), { queries: 'a', keys: 'b' });
    assert.deepEqual(sidesOf('self-a'), { queries: 'a', keys: 'a' });
    assert.deepEqual(sidesOf('self-b'), { queries: 'b', keys: 'b' });
    assert.deepEqual(
      MODES.map((m) => m.key),
      ['cross', 'self-a', 'self-b'],
    );
    for (const bad of [undefined, '', 'self', 'CROSS', 3]) assert.equal(modeOf(bad), 'cross');
    assert.equal(modeOf('self-b'), 'self-b');
  });
});

describe('cross-attention wording', () => {
  test('the line of shapes reads the counts of the engine’s result', () => {
    const cross = crossAttention(engine, A, B, null);
    const [nq, nk] = [A.length, B.length];
    assert.equal(
      shapesText(sidesOf('cross'), cross),
      `Queries: ${nq} tokens of sentence A; keys and values: ${nk} tokens of sentence B; ` +
        `weights ${nq} \u00d7 ${nk}, each row sums to 1.`,
    );
    const self = crossAttention(engine, B, B, null);
    assert.equal(
      shapesText(sidesOf('self-b'), self),
      `Queries, keys and values: ${nk} tokens of sentence B; weights ${nk} \u00d7 ${nk}, ` +
        'each row sums to 1.',
    );
    const one = crossAttention(engine, ['cat'], ['dog'], null);
    assert.match(
      shapesText(sidesOf('cross'), one),
      /^Queries: 1 token of sentence A; .* 1 token of/,
    );
    assert.match(shapesText(sidesOf('cross'), { nq: 2, nk: 3, rowError: 0.01 }), /miss a sum of 1/);
  });

  test('the shape is named a rectangle or a square, with the reason', () => {
    assert.equal(shapeName(6, 9), 'Rectangle, 6 \u00d7 9:');
    assert.equal(shapeName(4, 4), 'Square, 4 \u00d7 4:');
    assert.match(shapeNote(sidesOf('cross'), 6, 9), /need not be square/);
    assert.match(shapeNote(sidesOf('cross'), 6, 6), /only by chance \(6 tokens each\)/);
    assert.match(shapeNote(sidesOf('self-a'), 6, 6), /always/);
  });

  test('rows and columns are named after their sentence and role', () => {
    assert.deepEqual(axisNames(sidesOf('cross')), { rowName: 'A query', colName: 'B key' });
    assert.deepEqual(axisNames(sidesOf('self-b')), { rowName: 'B query', colName: 'B key' });
    assert.match(
      captionText(sidesOf('cross'), 6, 9),
      /^Cross-attention weights, 6 by 9\. .*sentence A.*B/,
    );
    assert.match(
      captionText(sidesOf('self-a'), 5, 5),
      /^Self-attention weights of sentence A, 5 by 5/,
    );
    assert.match(titleText(sidesOf('cross')), /A asks, sentence B answers/);
    assert.equal(titleText(sidesOf('self-b')), 'Self-attention of sentence B');
  });

  test('an empty sentence the mode needs gets a prompt; one it does not need is ignored', () => {
    assert.equal(promptText(sidesOf('cross'), { a: 3, b: 4 }), '');
    assert.match(promptText(sidesOf('cross'), { a: 0, b: 0 }), /both sentences/);
    assert.match(promptText(sidesOf('cross'), { a: 0, b: 4 }), /^Type sentence A: .*queries/);
    assert.match(
      promptText(sidesOf('cross'), { a: 3, b: 0 }),
      /^Type sentence B: .*keys and values/,
    );
    assert.match(
      promptText(sidesOf('self-a'), { a: 0, b: 4 }),
      /^Type sentence A to see it attend/,
    );
    assert.equal(promptText(sidesOf('self-a'), { a: 2, b: 0 }), '');
    assert.equal(promptText(sidesOf('self-b'), { a: 0, b: 1 }), '');
  });

  test('a cut sentence is announced; the unknown words are named once each', () => {
    assert.equal(cutText('b', 20, 16), 'Sentence B: showing the first 16 of 20 tokens.');
    assert.equal(cutText('a', 16, 16), '');
    assert.equal(unknownNote(['a', 'b'], [false, false]), '');
    assert.equal(
      unknownNote(['zq', 'the', 'zq'], [true, false, true]),
      'Not in the vocabulary (dotted underline): \u201czq\u201d; it gets a stand-in vector with no meaning.',
    );
    const many = Array.from({ length: 9 }, (_, i) => `w${i}`);
    assert.match(
      unknownNote(
        many,
        many.map(() => true),
      ),
      /\u201cw5\u201d and 3 more; each gets/,
    );
  });
});
