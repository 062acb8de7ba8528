// The count-based baselines (tools/ngram.js): probabilities of an interpolated Kneser-Ney bigram
// model worked out by hand on a tiny corpus, discounts from counts of counts, every context's
// distribution summing to 1, add-one unigram probabilities and perplexity.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { addOneUnigram, kneserNeyBigram, perplexity } from '../../tools/ngram.js';

/**
 * @param {number} got
 * @param {number} want
 */
function near(got, want, tolerance = 1e-12) {
  assert.ok(Math.abs(got - want) <= tolerance, `${got} is not ${want}`);
}

/**
 * The model's distribution after `previous`, summed over every id.
 * @param {import('../../tools/ngram.js').Model} model
 * @param {number | null} previous
 * @param {number} classes
 */
function total(model, previous, classes) {
  let sum = 0;
  for (let w = 0; w < classes; w++) sum += model.probability(previous, w);
  return sum;
}

// Five ids; 4 never occurs. Bigrams within samples: (0,1) three times, (1,0) twice, (2,1) and
// (3,0) once; nothing crosses from one sample into the next.
const TINY = [
  [0, 1, 0, 1, 0, 1],
  [2, 1],
  [3, 0],
];

describe('kneserNeyBigram', () => {
  test('gives the probabilities worked out by hand (discount 0.5)', () => {
    const model = kneserNeyBigram(TINY, 5, { discount: 0.5 });
    assert.equal(model.bigramTypes, 4);
    // Continuation counts: N1+(• 0) = 2 (after 1 and 3), N1+(• 1) = 2 (after 0 and 2), 0 for the
    // rest; N1+(• •) = 4 bigram types; T = 2 words continue something; V = 5.
    // P1(w) = max(N1+(• w) - 0.5, 0) / 4 + 0.5 · 2 / 4 / 5.
    const p1 = [1.5 / 4 + 0.05, 1.5 / 4 + 0.05, 0.05, 0.05, 0.05];
    for (let w = 0; w < 5; w++) {
      near(model.probability(null, w), p1[w]);
      near(model.probability(4, w), p1[w]); // a context never seen: P1
    }
    // After 0: c(0) = 3, one distinct follower. P(1|0) = (3 - 0.5)/3 + 0.5 · 1/3 · P1(1).
    near(model.probability(0, 1), 2.5 / 3 + (0.5 / 3) * 0.425);
    near(model.probability(0, 0), (0.5 / 3) * 0.425);
    near(model.probability(0, 3), (0.5 / 3) * 0.05);
    // After 1: c(1) = 2, all of it "0".
    near(model.probability(1, 0), 1.5 / 2 + 0.25 * 0.425);
    near(model.probability(1, 2), 0.25 * 0.05);
    // After 2: c(2) = 1.
    near(model.probability(2, 1), 0.5 + 0.5 * 0.425);
    near(model.probability(2, 0), 0.5 * 0.425);
  });

  test('ranks a frequent word that follows only one word below one with varied contexts', () => {
    // "1" and "2" are equally frequent, but "2" only ever follows "0" while "1" follows five
    // different words: Kneser-Ney's lower order favours "1" after an unseen context.
    const samples = [
      [0, 2],
      [0, 2],
      [0, 2],
      [0, 2],
      [0, 2],
      [3, 1],
      [4, 1],
      [5, 1],
      [6, 1],
      [0, 1],
    ];
    const model = kneserNeyBigram(samples, 8, { discount: 0.75 });
    assert.ok(model.probability(7, 1) > 3 * model.probability(7, 2));
    const unigram = addOneUnigram(samples, 8);
    near(unigram.probability(null, 1), unigram.probability(null, 2));
  });

  test('estimates the discounts from counts of counts', () => {
    // Bigram counts 3, 2, 1, 1, 1: n1 = 3, n2 = 1, D2 = 3 / (3 + 2) = 0.6. Continuation counts
    // N1+(• 0) = 2, N1+(• 1) = 2, N1+(• 3) = 1: n1 = 1, n2 = 2, D1 = 1 / (1 + 4) = 0.2.
    const model = kneserNeyBigram([...TINY, [2, 3]], 5);
    near(model.discounts.bigram, 0.6);
    near(model.discounts.unigram, 0.2);
    // Without doubletons the estimate is not usable; the standard 0.75 stands in.
    const sparse = kneserNeyBigram([[0, 1, 2, 3]], 5);
    assert.deepEqual(sparse.discounts, { bigram: 0.75, unigram: 0.75 });
  });

  test('every context, seen or not, gives a distribution that sums to 1', () => {
    near(total(kneserNeyBigram(TINY, 5, { discount: 0.5 }), 0, 5), 1);
    // A random corpus of 60 ids, with a skewed (Zipf-like) frequency, from a seeded generator.
    let state = 12345;
    const next = () => {
      state = (Math.imul(state, 1103515245) + 12345) >>> 0;
      return state / 2 ** 32;
    };
    const classes = 60;
    const samples = Array.from({ length: 40 }, () =>
      Array.from({ length: 5 + Math.floor(next() * 30) }, () => Math.floor(classes * next() ** 3)),
    );
    for (const options of [{}, { discount: 0.75 }, { discount: 0.1 }]) {
      const model = kneserNeyBigram(samples, classes, options);
      for (const previous of [null, ...Array.from({ length: classes }, (_, v) => v)]) {
        near(total(model, previous, classes), 1, 1e-12);
      }
    }
  });

  test('refuses ids outside the classes and a corpus without a bigram', () => {
    assert.throws(() => kneserNeyBigram([[0, 5]], 5), RangeError);
    assert.throws(() => kneserNeyBigram([[0], [1]], 5), /no bigram/);
    assert.throws(() => kneserNeyBigram(TINY, 5, { discount: 1 }), RangeError);
    assert.throws(() => kneserNeyBigram(TINY, 5).probability(0, 5), RangeError);
  });
});

describe('addOneUnigram', () => {
  test('adds one to every count, the unseen ids included', () => {
    const model = addOneUnigram([[0, 0], [1]], 3); // counts 2, 1, 0; N = 3; V = 3
    near(model.probability(null, 0), 3 / 6);
    near(model.probability(5, 1), 2 / 6); // the previous token does not matter
    near(model.probability(null, 2), 1 / 6);
    near(total(model, null, 3), 1);
  });
});

describe('perplexity', () => {
  test('is the inverse geometric mean of the probabilities of every token', () => {
    const unigram = addOneUnigram([[0, 0], [1]], 3);
    near(perplexity(unigram, [[2]]).perplexity, 6);
    near(perplexity(unigram, [[0], [2]]).perplexity, Math.sqrt(2 * 6), 1e-12);
    // A uniform model over V ids has perplexity V whatever it is evaluated on.
    near(perplexity(addOneUnigram([], 7), [[1, 2, 3], [6]]).perplexity, 7, 1e-9);
    const result = perplexity(unigram, [[0, 1, 2]]);
    assert.equal(result.tokens, 3);
    near(result.crossEntropyBits, Math.log2(result.perplexity), 1e-12);
  });

  test('gives each token the one before it in its own sample as context', () => {
    const model = kneserNeyBigram(TINY, 5, { discount: 0.5 });
    const p = (/** @type {number | null} */ v, /** @type {number} */ w) => model.probability(v, w);
    const expected = Math.exp(
      -(Math.log(p(null, 1)) + Math.log(p(1, 0)) + Math.log(p(null, 0))) / 3,
    );
    near(perplexity(model, [[1, 0], [0]]).perplexity, expected);
  });
});
