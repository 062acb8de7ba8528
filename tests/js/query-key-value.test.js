// The numbers behind the query-key-value figure: the projections Q = X W_Q, K = X W_K, V = X W_V
// and the scores Q K^T, which the widget gets from the engine's attention trace, checked against
// plain float64 products computed here; the identity; the seeds; the terms the figure writes out;
// the colour ranges; and the heatmap options the figure relies on (fixed row heights, row labels
// only, outlined rows).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';

import { loadEngine } from 'attention-lab';
import { layout } from '../../web/src/views/heatmap/layout.js';
import { niceRange } from '../../web/src/widgets/query-key-value/figures.js';
import {
  DK_CHOICES,
  identity,
  leadingTerms,
  project,
  queryKeyValue,
  transpose,
} from '../../web/src/widgets/query-key-value/math.js';
import { sentenceTokens } from '../../web/src/widgets/shared/token-matrix.js';
import { ROOT, assertClose } from './helpers.js';

const engine = await loadEngine();
engine.loadEmbeddings(readFileSync(join(ROOT, 'web/public/embeddings/en-20k-100d.bin')));

/**
 * A (rows, inner) times B (inner, cols), in float64: the reference the engine is checked against.
 * @param {ArrayLike<number>} a
 * @param {ArrayLike<number>} b
 * @param {number} rows
 * @param {number} inner
 * @param {number} cols
 * @returns {number[]} (rows, cols)
 */
function matmul(a, b, rows, inner, cols) {
  const out = new Array(rows * cols).fill(0);
  for (let i = 0; i < rows; i++)
    for (let j = 0; j < cols; j++)
      for (let c = 0; c < inner; c++) out[i * cols + j] += a[i * inner + c] * b[c * cols + j];
  return out;
}

const SENTENCE = 'The cat sat on the mat';
const tokens = sentenceTokens(engine, SENTENCE);

describe('the projections and scores', () => {
  for (const dk of DK_CHOICES) {
    test(`with seeded projections of width ${dk}, Q, K, V are X W and the scores Q K^T`, () => {
      const seed = 11;
      const r = queryKeyValue(engine, tokens, { kind: 'random', seed, dk });
      const n = tokens.length;
      assert.deepEqual([r.n, r.d, r.dk, r.kind], [n, 100, dk, 'random']);
      assert.deepEqual(Array.from(r.x), Array.from(engine.embed(tokens).vectors), 'X');
      // W_Q, W_K, W_V: Glorot-uniform (100, dk) from the seed and the two after it.
      const bound = Math.sqrt(6 / (100 + dk));
      r.w.forEach((w, m) => {
        assert.deepEqual(Array.from(w), Array.from(engine.glorotUniform(100, dk, seed + m)));
        assert.ok(w.every((value) => Math.abs(value) <= bound));
      });
      assert.notDeepEqual(Array.from(r.w[0]), Array.from(r.w[1]), 'W_Q and W_K differ');
      const products = [r.q, r.k, r.v];
      products.forEach((p, m) => {
        assert.equal(p.length, n * dk);
        assertClose(p, matmul(r.x, r.w[m], n, 100, dk), `${'QKV'[m]} = X W_${'QKV'[m]}`);
      });
      const kT = transpose(r.k, n, dk);
      assertClose(r.scores, matmul(r.q, kT, n, dk, n), 'scores = Q K^T');
    });
  }

  test('the identity makes Q, K and V the word vectors themselves, and the scores X X^T', () => {
    const r = queryKeyValue(engine, tokens, { kind: 'identity', seed: 0, dk: 8 });
    const n = tokens.length;
    assert.deepEqual([r.dk, r.kind, r.w.length], [100, 'identity', 3]);
    r.w.forEach((w) => {
      assert.equal(w.length, 100 * 100);
      w.forEach((value, at) => assert.equal(value, at % 101 === 0 ? 1 : 0, `I at ${at}`));
    });
    for (const p of [r.q, r.k, r.v]) assert.deepEqual(Array.from(p), Array.from(r.x));
    assertClose(r.scores, matmul(r.x, transpose(r.x, n, 100), n, 100, n), 'scores = X X^T');
  });

  test('the same seed gives the same bits; another seed other projections', () => {
    const a = queryKeyValue(engine, tokens, { kind: 'random', seed: 3, dk: 4 });
    const b = queryKeyValue(engine, tokens, { kind: 'random', seed: 3, dk: 4 });
    const c = queryKeyValue(engine, tokens, { kind: 'random', seed: 4, dk: 4 });
    assert.deepEqual(Array.from(a.scores), Array.from(b.scores));
    assert.notDeepEqual(Array.from(a.q), Array.from(c.q));
    // Seed 4's W_Q is seed 3's W_K: the three seeds run on from the learner's.
    assert.deepEqual(Array.from(c.w[0]), Array.from(a.w[1]));
  });

  test('a sentence of unknown words still projects, and the flags say so', () => {
    const strange = sentenceTokens(engine, 'zqxv blorpt');
    const r = queryKeyValue(engine, strange, { kind: 'random', seed: 1, dk: 4 });
    assert.deepEqual(r.unknown, [true, true]);
    assert.ok(Array.from(r.scores).every(Number.isFinite));
  });

  test('project multiplies any matrix by any projection through the engine', () => {
    const x = [1, 2, 3, -1, 0.5, 4, 0, -2, 1, 1, 1, 1, 2, 0, -3];
    const w = [0.5, -1, 2, 0, 1, 1, -0.25, 3, 0, 2];
    assertClose(
      project(engine, Float32Array.from(x), 3, 5, Float32Array.from(w), 2),
      [...matmul(x, w, 3, 5, 2)],
      'X W',
    );
  });
});

describe('the pieces the figure writes out', () => {
  test('identity and transpose only move numbers', () => {
    assert.deepEqual(Array.from(identity(3)), [1, 0, 0, 0, 1, 0, 0, 0, 1]);
    assert.deepEqual(Array.from(transpose([1, 2, 3, 4, 5, 6], 2, 3)), [1, 4, 2, 5, 3, 6]);
  });

  test('the leading terms of score (i, j) are the entries of row i of Q and row j of K', () => {
    const r = queryKeyValue(engine, tokens, { kind: 'random', seed: 5, dk: 8 });
    const terms = leadingTerms(r, 1, 4, 3);
    assert.deepEqual(
      terms,
      [0, 1, 2].map((c) => [r.q[8 + c], r.k[4 * 8 + c]]),
    );
    const all = leadingTerms(r, 2, 3, 99);
    assert.equal(all.length, 8, 'never more terms than d_k');
    const sum = all.reduce((total, [a, b]) => total + a * b, 0);
    assertClose([r.scores[2 * r.n + 3]], [sum], 'the terms add up to the score');
  });

  test('colour ranges are symmetric, rounded up to one significant digit', () => {
    assert.deepEqual(niceRange([[0.236, -0.1]]), [-0.3, 0.3]);
    assert.deepEqual(niceRange([[3], [-27.4]]), [-30, 30]);
    assert.deepEqual(niceRange([[4, -1]]), [-4, 4]);
    assert.deepEqual(niceRange([[0, 0]]), [-1, 1]);
  });
});

describe('the heatmap options the figure relies on', () => {
  const features = Array.from({ length: 100 }, (_, c) => String(c));

  test('a fixed row height sets the height of a 100-row grid, whatever its width', () => {
    const data = { rowLabels: features, colLabels: ['0', '1', '2', '3'], compact: true };
    const box = layout({ ...data, labels: false, rowHeight: 0.85 }, 60);
    assert.equal(box.rowHeight, 0.85);
    assert.ok(Math.abs(box.height - (box.top + 100 * 0.85 + 2)) < 1e-9);
    assert.ok(
      layout({ ...data, labels: false }, 60).rowHeight > 0.85,
      'without it, rows follow width',
    );
  });

  test('row labels only: no room above the grid, labels shrunk to the row height', () => {
    const data = { rowLabels: ['the', 'cat'], colLabels: features, compact: true };
    const rows = layout({ ...data, labels: 'rows', rowHeight: 14 }, 400);
    const both = layout({ ...data, rowHeight: 14 }, 400);
    assert.equal(rows.top, 2);
    assert.ok(both.top > 20, 'column labels need room above the grid');
    assert.equal(rows.font, 12);
    assert.ok(rows.left > 2, 'the row labels keep their room');
  });
});
