// What every translation guarantees, whichever model wrote it: shared by the recurrent models'
// tests (translator.test.js) and the Transformer's (transformer.test.js).
import assert from 'node:assert/strict';

/** The most German words a translation of n English tokens may write (docs/engine-api.md). */
export const maxWords = (/** @type {number} */ n) => Math.min(127, 2 * n + 10);

/**
 * Asserts what every translation guarantees: the source as the figures tokenize it, one flag per
 * token, German words as strings within the word limit, and for a model that attends (target.length,
 * source.length) weights and a </s> row, every row a distribution: entries in [0, 1] summing to 1
 * within 1e-5 (a float32 softmax over at most 64 entries rounds each term by about 6e-8, so the
 * sum is off by at most a few 1e-6); and the same translation id by id (pieces): the words' pieces
 * in order, each step's scores of whose softmax, row by row, is its row of weights within 1e-6
 * (the core's float32 softmax against this one in double), and each word's row the mean of its
 * pieces' rows. The Transformer has no scores before its softmax (its pieces' scores are empty); it
 * keeps every other guarantee.
 * @param {import('attention-lab').Translator} translator
 * @param {import('attention-lab').Translation} result
 */
export function assertTranslation(translator, result) {
  const n = result.source.length;
  const m = result.target.length;
  assert.ok(n >= 1 && n <= translator.info.maxSourceTokens, `${n} source tokens`);
  assert.equal(result.known.length, n);
  assert.ok(result.known.every((flag) => typeof flag === 'boolean'));
  assert.ok(m <= maxWords(n), `${m} words for ${n} tokens`);
  assert.ok(result.target.every((word) => typeof word === 'string' && word.length > 0));
  assert.ok(!result.target.includes('</s>') && !result.target.includes('<s>'));
  assert.ok(Number.isFinite(result.logProbability) && result.logProbability <= 0);
  assert.ok(result.weights instanceof Float32Array && result.end instanceof Float32Array);
  const { pieces } = result;
  const p = pieces.text.length;
  assert.ok(pieces.scores instanceof Float32Array && pieces.weights instanceof Float32Array);
  assert.equal(pieces.firstPiece.length, m + 1);
  // A translation of no word (nothing written, or word-start marks alone) is firstPiece [p].
  assert.equal(pieces.firstPiece[0], m === 0 ? p : 0);
  assert.equal(pieces.firstPiece[m], p);
  for (let w = 0; w < m; w++) assert.ok(pieces.firstPiece[w] < pieces.firstPiece[w + 1]);
  assert.equal(result.copied.length, m);
  assert.equal(result.output.length, m);
  if (translator.info.model === 'fixed-vector') {
    assert.equal(result.weights.length, 0);
    assert.equal(result.end.length, 0);
    assert.equal(pieces.weights.length, 0);
    assert.equal(pieces.scores.length, 0);
    return;
  }
  assert.equal(result.weights.length, m * n);
  assert.equal(result.end.length, n);
  assert.equal(pieces.weights.length, p * n);
  if (translator.info.model === 'transformer') assert.equal(pieces.scores.length, 0);
  else assert.equal(pieces.scores.length, p * n);
  for (let t = 0; t < p && pieces.scores.length > 0; t++) {
    const scores = pieces.scores.subarray(t * n, (t + 1) * n);
    const top = Math.max(...scores);
    const exps = Array.from(scores, (e) => Math.exp(e - top));
    const total = exps.reduce((a, b) => a + b, 0);
    exps.forEach((e, j) => {
      const w = pieces.weights[t * n + j];
      assert.ok(Math.abs(e / total - w) < 1e-6, `row ${t}: softmax ${e / total}, weight ${w}`);
    });
  }
  for (let w = 0; w < m; w++) {
    const [first, end] = [pieces.firstPiece[w], pieces.firstPiece[w + 1]];
    for (let j = 0; j < n; j++) {
      let mean = 0;
      for (let t = first; t < end; t++) mean += pieces.weights[t * n + j];
      mean /= end - first;
      assert.ok(Math.abs(mean - result.weights[w * n + j]) < 1e-6, `word ${w}, English ${j}`);
    }
  }
  const rows = [
    ...Array.from({ length: m }, (_, t) => result.weights.subarray(t * n, (t + 1) * n)),
  ];
  rows.push(result.end);
  rows.forEach((row, t) => {
    let sum = 0;
    for (const w of row) {
      assert.ok(w >= 0 && w <= 1, `row ${t} has a weight ${w}`);
      sum += w;
    }
    assert.ok(Math.abs(sum - 1) < 1e-5, `row ${t} of ${m + 1} sums to ${sum}`);
  });
}
