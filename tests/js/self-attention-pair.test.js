// The numbers behind the self-attention-pair widget, on the real engine and word vectors: one
// sentence's self-attention (Q = K = V = X) gives the heatmap's weights and outputs that are those
// weights times X; "bank" has one input vector in both lesson sentences but two outputs; the cosine
// similarity and the choice of the followed token.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';

import { loadEngine } from 'attention-lab';

import {
  attendSentence,
  cosineSimilarity,
  followedIndex,
  rowOf,
  sameVector,
} from '../../web/src/widgets/self-attention-pair/math.js';
import { selfAttention } from '../../web/src/widgets/shared/self-attention.js';
import { sentenceTokens } from '../../web/src/widgets/shared/token-matrix.js';
import { assertClose, rowSums } from './helpers.js';

const engine = await loadEngine();
engine.loadEmbeddings(
  readFileSync(new URL('../../web/public/embeddings/en-20k-100d.bin', import.meta.url)),
);

const RIVER = 'I sat on the river bank';
const LOAN = 'I took a loan from the bank';

/** A row of float32 weights sums to 1 up to a few roundings per term. */
const SUM_TOLERANCE = 1e-5;

/**
 * cos(a, b) written out the plain way, for comparison.
 * @param {ArrayLike<number>} a
 * @param {ArrayLike<number>} b
 */
function plainCosine(a, b) {
  const dot = (u, v) => Array.from(u).reduce((s, x, k) => s + x * v[k], 0);
  return dot(a, b) / Math.sqrt(dot(a, a) * dot(b, b));
}

describe('one sentence attends to itself', () => {
  test('its weights are the heatmap widget’s, and every row sums to 1', () => {
    const tokens = sentenceTokens(engine, RIVER);
    assert.deepEqual(tokens, ['i', 'sat', 'on', 'the', 'river', 'bank']);
    const result = attendSentence(engine, tokens);
    assert.deepEqual(result.weights, selfAttention(engine, tokens, false).weights);
    assert.equal(result.n, 6);
    assert.equal(result.d, 100);
    for (const sum of rowSums(result.weights, 6, 6)) {
      assert.ok(Math.abs(sum - 1) < SUM_TOLERANCE, `row sum ${sum}`);
    }
  });

  test('output row i is the weighted sum of the word vectors with row i of the weights', () => {
    const tokens = sentenceTokens(engine, LOAN);
    const { n, d, x, weights, output } = attendSentence(engine, tokens);
    const expected = new Float64Array(n * d);
    for (let i = 0; i < n; i++)
      for (let j = 0; j < n; j++)
        for (let k = 0; k < d; k++) expected[i * d + k] += weights[i * n + j] * x[j * d + k];
    assertClose(output, expected, 'weights · X');
  });

  test('unknown tokens are flagged and still get a row', () => {
    const tokens = sentenceTokens(engine, 'the zzqxv bank');
    const { unknown, weights } = attendSentence(engine, tokens);
    assert.deepEqual(unknown, [false, true, false]);
    assert.equal(weights.length, 9);
  });
});

describe('“bank” in the two lesson sentences', () => {
  const sides = [RIVER, LOAN].map((sentence) => {
    const tokens = sentenceTokens(engine, sentence);
    return { tokens, index: tokens.indexOf('bank'), result: attendSentence(engine, tokens) };
  });
  const rows = (key) => sides.map(({ result, index }) => rowOf(result[key], index, result.d));

  test('goes in as one and the same vector', () => {
    const [a, b] = rows('x');
    assert.ok(sameVector(a, b));
    assert.ok(Math.abs(cosineSimilarity(a, b) - 1) < 1e-12);
  });

  test('comes out as two different vectors: its context moved it', () => {
    const [a, b] = rows('output');
    assert.ok(!sameVector(a, b));
    const cos = cosineSimilarity(a, b);
    assert.ok(cos < 1 - 1e-4, `the outputs' cosine ${cos} is below 1`);
    assert.ok(Math.abs(cos - plainCosine(a, b)) < 1e-12);
  });

  test('leans towards “river” in the river sentence and towards “loan” in the loan one', () => {
    const [outA, outB] = rows('output');
    const vector = (word) => engine.embed([word]).vectors;
    for (const [word, near, far] of [
      ['river', outA, outB],
      ['loan', outB, outA],
    ]) {
      const [toNear, toFar] = [near, far].map((out) => cosineSimilarity(out, vector(word)));
      assert.ok(toNear > toFar, `“${word}”: cosine ${toNear} with its own sentence, ${toFar}`);
    }
  });
});

describe('cosine similarity', () => {
  test('it is 1 for the same direction, 0 at right angles and −1 for opposite ones', () => {
    assert.equal(cosineSimilarity([1, 2, 3], [2, 4, 6]), 1);
    assert.equal(cosineSimilarity([1, 0], [0, 5]), 0);
    assert.equal(cosineSimilarity([1, -2], [-3, 6]), -1);
    const a = engine.unitNormal(1, 100, 7);
    const b = engine.unitNormal(1, 100, 8);
    assert.ok(Math.abs(cosineSimilarity(a, b) - plainCosine(a, b)) < 1e-12);
  });

  test('it has no value for a zero vector and needs equal lengths', () => {
    assert.ok(Number.isNaN(cosineSimilarity([0, 0], [1, 2])));
    assert.throws(() => cosineSimilarity([1, 2], [1, 2, 3]), /lengths 2 and 3/);
  });
});

describe('the followed token', () => {
  const tokens = ['the', 'bank', 'by', 'the', 'river', 'bank'];

  test('it starts on the default word, the one nearest the end when it repeats', () => {
    assert.equal(followedIndex(tokens, {}, 'bank'), 5);
    assert.equal(followedIndex(['a', 'b'], {}, 'bank'), 1, 'no default word: the last token');
  });

  test('a chosen word is kept, at its occurrence nearest where it was', () => {
    assert.equal(followedIndex(tokens, { index: 4, word: 'river' }, 'bank'), 4);
    assert.equal(followedIndex(tokens, { index: 0, word: 'the' }, 'bank'), 0);
    assert.equal(followedIndex(['a', ...tokens], { index: 0, word: 'the' }, 'bank'), 1);
    assert.equal(followedIndex(tokens, { index: 2, word: 'bank' }, 'bank'), 1);
  });

  test('when the chosen word is gone it falls back to the default word, then to its place', () => {
    assert.equal(followedIndex(tokens, { index: 2, word: 'loan' }, 'bank'), 1);
    assert.equal(followedIndex(['a', 'b', 'c'], { index: 1, word: 'loan' }, 'bank'), 1);
    assert.equal(followedIndex(['a', 'b'], { index: 9, word: 'loan' }, 'bank'), 1);
    assert.equal(followedIndex([], { index: 0, word: 'bank' }, 'bank'), -1);
  });
});
