// The translation models' scores (tools/translation/): corpus BLEU-4 worked out by hand on small
// corpora, with every n-gram count written out; BLEU by English source length at the bucket
// edges; the alignment score and the diagonal guess on a sentence worked by hand; and corpus BLEU
// against NLTK's on random corpora (tests/fixtures/corpus_bleu.json, tools/make_bleu_fixture.py).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import {
  alignmentRows,
  alignmentScore,
  diagonalPosition,
  isMarker,
  readDictionary,
} from '../../tools/translation/alignment-score.js';
import { LENGTH_BUCKETS, bleuByLength, corpusBleu } from '../../tools/translation/bleu.js';

import { loadFixture } from './helpers.js';

/**
 * @param {number} got
 * @param {number} want
 * @param {number} tolerance
 */
function near(got, want, tolerance) {
  assert.ok(Math.abs(got - want) <= tolerance, `${got} is not ${want} (within ${tolerance})`);
}

// BLEU is 100 · exp of a mean of logarithms: computed that way and in a closed form such as
// 100 · (product)^(1/4), float64 results part in the last few bits, near 1e-14 on the 0..100
// scale. 1e-12 allows that and nothing a wrong count could produce.
const BLEU_TOLERANCE = 1e-12;

/** @param {string} text */
const words = (text) => (text === '' ? [] : text.split(' '));

/**
 * @param {string} hypothesis
 * @param {string} reference
 */
const pair = (hypothesis, reference) => ({
  hypothesis: words(hypothesis),
  reference: words(reference),
});

describe('corpusBleu', () => {
  test('clips the repeated "the" of Papineni et al. to its two occurrences in the reference', () => {
    const result = corpusBleu([pair('the the the the the the the', 'the cat is on the mat')]);
    // Unigrams: "the" 7 times in the hypothesis, twice in the reference: min(7, 2) = 2 of 7.
    // Bigrams: "the the" 6 times, never in the reference: 0 of 6. Trigrams 0 of 5, 4-grams 0 of 4.
    assert.deepEqual(result.matches, [2, 0, 0, 0]);
    assert.deepEqual(result.totals, [7, 6, 5, 4]);
    assert.deepEqual(result.precisions, [2 / 7, 0, 0, 0]);
    // c = 7 >= r = 6: no penalty. A zero precision makes the whole score 0 (no smoothing).
    assert.equal(result.hypothesisLength, 7);
    assert.equal(result.referenceLength, 6);
    assert.equal(result.brevityPenalty, 1);
    assert.equal(result.bleu, 0);
    // With unigrams alone the score is the clipped precision itself: 100 · 2/7.
    const unigrams = corpusBleu([pair('the the the the the the the', 'the cat is on the mat')], {
      maxOrder: 1,
    });
    near(unigrams.bleu, (100 * 2) / 7, BLEU_TOLERANCE);
  });

  test('gives exactly 100 to a hypothesis equal to its reference', () => {
    const result = corpusBleu([pair('the cat is on the mat', 'the cat is on the mat')]);
    // 6 unigrams, 5 bigrams, 4 trigrams, 3 4-grams, all matched; c = r = 6.
    assert.deepEqual(result.matches, [6, 5, 4, 3]);
    assert.deepEqual(result.totals, [6, 5, 4, 3]);
    assert.deepEqual(result.precisions, [1, 1, 1, 1]);
    assert.equal(result.brevityPenalty, 1);
    assert.equal(result.bleu, 100);
  });

  test('charges a hypothesis shorter than its reference the brevity penalty exp(1 - r/c)', () => {
    const result = corpusBleu([pair('the cat is on the', 'the cat is on the mat')]);
    // Every n-gram of the hypothesis is in the reference: "the" twice (the reference has it
    // twice too), "cat", "is", "on": 5 of 5; "the cat", "cat is", "is on", "on the": 4 of 4;
    // 3 of 3 trigrams; "the cat is on", "cat is on the": 2 of 2. All precisions are 1.
    assert.deepEqual(result.matches, [5, 4, 3, 2]);
    assert.deepEqual(result.totals, [5, 4, 3, 2]);
    // c = 5 < r = 6: BP = exp(1 - 6/5) = exp(-0.2) = 0.818730753..., and BLEU = 100 · BP.
    assert.equal(result.hypothesisLength, 5);
    assert.equal(result.referenceLength, 6);
    near(result.brevityPenalty, Math.exp(-0.2), 1e-15);
    near(result.bleu, 81.87307530779819, BLEU_TOLERANCE);
  });

  test('pools the counts of a corpus instead of averaging its sentence scores', () => {
    // A: "the cat sat down" against itself: 4/4, 3/3, 2/2, 1/1, sentence BLEU 100.
    const a = pair('the cat sat down', 'the cat sat down');
    // B: "a dog ran into a park" against "a dog ran into the park" (c = r = 6).
    //   unigrams: a ×2 (reference has 1: clipped to 1), dog, ran, into, park    5 of 6
    //   bigrams:  a dog ✓, dog ran ✓, ran into ✓, into a ✗, a park ✗            3 of 5
    //   trigrams: a dog ran ✓, dog ran into ✓, ran into a ✗, into a park ✗      2 of 4
    //   4-grams:  a dog ran into ✓, dog ran into a ✗, ran into a park ✗          1 of 3
    // Sentence BLEU = 100 · (5/6 · 3/5 · 2/4 · 1/3)^(1/4) = 100 · (1/12)^(1/4) = 53.73...
    const b = pair('a dog ran into a park', 'a dog ran into the park');
    assert.equal(corpusBleu([a]).bleu, 100);
    const sentenceB = corpusBleu([b]);
    assert.deepEqual(sentenceB.matches, [5, 3, 2, 1]);
    assert.deepEqual(sentenceB.totals, [6, 5, 4, 3]);
    near(sentenceB.bleu, 100 * (1 / 12) ** 0.25, BLEU_TOLERANCE);

    // The corpus adds the counts first: 9/10, 6/8, 4/6, 2/4, whose product is 0.225, so
    // BLEU = 100 · 0.225^(1/4) = 68.87..., well below the mean of the sentence scores, 76.86...:
    // in the mean, A's perfect score weighs as much as B's, though A holds 1 of the corpus's 4
    // 4-grams (and 4 of its 10 unigrams).
    const corpus = corpusBleu([a, b]);
    assert.deepEqual(corpus.matches, [9, 6, 4, 2]);
    assert.deepEqual(corpus.totals, [10, 8, 6, 4]);
    assert.deepEqual(corpus.precisions, [9 / 10, 6 / 8, 4 / 6, 2 / 4]);
    near(corpus.bleu, 100 * 0.225 ** 0.25, BLEU_TOLERANCE);
    const mean = (100 + sentenceB.bleu) / 2;
    near(mean, 76.86, 0.01);
    near(corpus.bleu, 68.87, 0.01);
  });

  test('is 0 when no 4-gram matches, however well the shorter n-grams do', () => {
    const result = corpusBleu([pair('the cat sat the mat on', 'the cat sat on the mat')]);
    // unigrams: the ×2 (reference 2), cat, sat, mat, on: 6 of 6
    // bigrams:  the cat ✓, cat sat ✓, sat the ✗, the mat ✓, mat on ✗: 3 of 5
    // trigrams: the cat sat ✓, cat sat the ✗, sat the mat ✗, the mat on ✗: 1 of 4
    // 4-grams:  the cat sat the ✗, cat sat the mat ✗, sat the mat on ✗: 0 of 3
    assert.deepEqual(result.matches, [6, 3, 1, 0]);
    assert.deepEqual(result.totals, [6, 5, 4, 3]);
    assert.equal(result.bleu, 0);
  });

  test('gives 0 to a perfect sentence of three words alone, which has no 4-gram', () => {
    const result = corpusBleu([pair('guten morgen tom', 'guten morgen tom')]);
    assert.deepEqual(result.matches, [3, 2, 1, 0]);
    assert.deepEqual(result.totals, [3, 2, 1, 0]);
    assert.deepEqual(result.precisions, [1, 1, 1, 0]);
    assert.equal(result.bleu, 0);
  });

  test('gives 0 to an empty hypothesis corpus', () => {
    const empty = corpusBleu([pair('', 'the cat')]);
    assert.equal(empty.bleu, 0);
    assert.equal(empty.brevityPenalty, 0);
    assert.deepEqual(empty.totals, [0, 0, 0, 0]);
    assert.equal(empty.referenceLength, 2);
    const none = corpusBleu([]);
    assert.equal(none.bleu, 0);
    assert.equal(none.hypothesisLength, 0);
  });

  test('never lets an n-gram cross from one sentence into the next', () => {
    // Joined, the hypotheses would hold the reference bigram "b c"; apart they do not.
    const result = corpusBleu([pair('a b', 'a b c d'), pair('c d', 'x y')], { maxOrder: 2 });
    assert.deepEqual(result.totals, [4, 2]);
    assert.deepEqual(result.matches, [2, 1]);
  });

  test('tells a non-array, a non-string token and a bad maxOrder apart', () => {
    assert.throws(() => corpusBleu(/** @type {any} */ ('the cat')), {
      name: 'TypeError',
      message: /corpusBleu: pairs must be an array/,
    });
    assert.throws(() => corpusBleu([/** @type {any} */ ({ hypothesis: 'a b', reference: [] })]), {
      name: 'TypeError',
      message: /pairs\[0\]\.hypothesis must be an array of strings, got the string "a b"/,
    });
    assert.throws(
      () => corpusBleu([/** @type {any} */ ({ hypothesis: ['a'], reference: ['a', 3] })]),
      {
        name: 'TypeError',
        message: /pairs\[0\]\.reference\[1\] must be a string, got number 3/,
      },
    );
    assert.throws(() => corpusBleu([{ hypothesis: ['a', ''], reference: ['a'] }]), {
      name: 'RangeError',
      message: /pairs\[0\]\.hypothesis\[1\] is an empty string/,
    });
    assert.throws(() => corpusBleu([], { maxOrder: 0 }), {
      name: 'RangeError',
      message: /maxOrder must be a whole number >= 1, got 0/,
    });
  });

  test("agrees with NLTK's corpus_bleu on random corpora", () => {
    // Both compute in float64 from the same whole-number counts; the scores part only in the
    // order the four logarithms are summed (NLTK uses math.fsum), a few units in the 14th digit.
    for (const { name, input, expected } of loadFixture('corpus_bleu').cases) {
      const result = corpusBleu(input.pairs);
      assert.deepEqual(result.matches, expected.matches, name);
      assert.deepEqual(result.totals, expected.totals, name);
      near(result.brevityPenalty, expected.brevityPenalty, 1e-15);
      near(result.bleu, expected.bleu, BLEU_TOLERANCE);
    }
  });
});

describe('bleuByLength', () => {
  // Each item's hypothesis has its own length, so a bucket's hypothesisLength says which items
  // it took.
  const item = (/** @type {number} */ sourceLength, /** @type {number} */ hypothesisWords) => ({
    sourceLength,
    hypothesis: new Array(hypothesisWords).fill('wort'),
    reference: ['wort'],
  });

  test('puts 5 into 1-5, 6 into 6-10, 30 into 21-30 and 31 into 31+', () => {
    const items = [item(5, 1), item(6, 2), item(30, 4), item(31, 8), item(0, 16)];
    const { overall, buckets, outside } = bleuByLength(items);
    assert.deepEqual(
      buckets.map(({ from, to, sentences, hypothesisLength }) => [
        from,
        to,
        sentences,
        hypothesisLength,
      ]),
      [
        [1, 5, 1, 1],
        [6, 10, 1, 2],
        [11, 15, 0, 0],
        [16, 20, 0, 0],
        [21, 30, 1, 4],
        [31, Infinity, 1, 8],
      ],
    );
    // A source of no words lies in no bucket: it counts in the overall score only.
    assert.equal(outside, 1);
    assert.equal(overall.sentences, 5);
    assert.equal(overall.hypothesisLength, 31);
    // A bucket without sentences scores 0, as an empty corpus does.
    assert.equal(buckets[2].bleu, 0);
  });

  test('scores each bucket and the whole as corpusBleu does', () => {
    const a = { sourceLength: 4, ...pair('the cat sat down', 'the cat sat down') };
    const b = { sourceLength: 7, ...pair('a dog ran into a park', 'a dog ran into the park') };
    const c = { sourceLength: 3, ...pair('the the the the the the the', 'the cat is on the mat') };
    const { overall, buckets } = bleuByLength([a, b, c]);
    const { sentences, ...overallBleu } = overall;
    assert.equal(sentences, 3);
    assert.deepEqual(overallBleu, corpusBleu([a, b, c]));
    const { from, to, sentences: n, ...first } = buckets[0];
    assert.deepEqual([from, to, n], [1, 5, 2]);
    assert.deepEqual(first, corpusBleu([a, c]));
    assert.equal(buckets[1].bleu, corpusBleu([b]).bleu);
  });

  test('takes buckets of its own and refuses overlapping ones', () => {
    const items = [item(2, 1), item(3, 2)];
    const { buckets } = bleuByLength(items, [
      [1, 2],
      [3, 3],
    ]);
    assert.deepEqual(
      buckets.map((b) => b.hypothesisLength),
      [1, 2],
    );
    assert.throws(
      () =>
        bleuByLength(items, [
          [1, 5],
          [5, 10],
        ]),
      { name: 'RangeError', message: /buckets\[1\] \[5, 10\] overlaps buckets\[0\] \[1, 5\]/ },
    );
    assert.throws(() => bleuByLength(items, [[6, 5]]), { name: 'RangeError' });
    assert.throws(() => bleuByLength([{ ...item(2, 1), sourceLength: 2.5 }]), {
      name: 'RangeError',
      message: /items\[0\]\.sourceLength must be a whole number >= 0, got 2.5/,
    });
    assert.throws(() => bleuByLength([/** @type {any} */ ({ ...item(2, 1), sourceLength: '2' })]), {
      name: 'TypeError',
      message: /items\[0\]\.sourceLength must be a number/,
    });
  });

  test('has the report buckets as its default, frozen', () => {
    assert.deepEqual(LENGTH_BUCKETS, [
      [1, 5],
      [6, 10],
      [11, 15],
      [16, 20],
      [21, 30],
      [31, Infinity],
    ]);
    assert.ok(Object.isFrozen(LENGTH_BUCKETS) && Object.isFrozen(LENGTH_BUCKETS[0]));
  });
});

// The dictionary of the hand-worked sentence, with what readDictionary skips around it: a blank
// line, a line without a tab, one with two tabs, an empty field and a phrase.
const DICTIONARY_TSV = [
  'she\tsie',
  '',
  'Her\tSie\r',
  'her\tihren',
  ' sees \t sieht ',
  'dog\thund',
  'no tab here',
  'a\tb\tc',
  '\tleer',
  'ice cream\teis',
].join('\n');

// English "she sees her dog", and the model writes "sie sieht hund" (3 x 4 weights).
//   row 0 "sie":   pairs with "she" (0) and "her" (2): two positions, not checkable
//   row 1 "sieht": pairs with "sees" (1) only; largest weight 0.4 at 1 and at 2, the first
//                  counts: 1, aligned
//   row 2 "hund":  pairs with "dog" (3) only; largest weight 0.6 at 3, aligned
// Attention: 2 aligned of 2 checkable. Diagonal, d(t) = round((t + 0.5) · 4/3 - 0.5):
//   d(0) = round(0.1667) = 0; d(1) = round(1.5) = 2 (a half, rounded up); d(2) = round(2.8333) = 3
// so the diagonal misses "sieht" (2, not 1) and hits "hund" (3): 1 of 2.
const SENTENCE = {
  source: ['she', 'sees', 'her', 'dog'],
  target: ['sie', 'sieht', 'hund'],
  weights: Float32Array.from(
    [
      [0.1, 0.2, 0.6, 0.1],
      [0.1, 0.4, 0.4, 0.1],
      [0.1, 0.1, 0.2, 0.6],
    ].flat(),
  ),
};

describe('readDictionary', () => {
  test('maps each German word to its English words, lower-cased, skipping malformed lines', () => {
    const dictionary = readDictionary(DICTIONARY_TSV);
    assert.deepEqual(
      dictionary,
      new Map([
        ['sie', new Set(['she', 'her'])],
        ['ihren', new Set(['her'])],
        ['sieht', new Set(['sees'])],
        ['hund', new Set(['dog'])],
      ]),
    );
    assert.deepEqual(readDictionary(''), new Map());
    assert.throws(() => readDictionary(/** @type {any} */ (null)), { name: 'TypeError' });
  });
});

describe('alignmentScore', () => {
  const dictionary = readDictionary(DICTIONARY_TSV);

  test('scores the 3 x 4 sentence worked by hand, with its diagonal guess', () => {
    assert.deepEqual(alignmentRows(SENTENCE, dictionary), [
      { token: 'sie', positions: [0, 2], attended: 2, diagonal: 0 },
      { token: 'sieht', positions: [1], attended: 1, diagonal: 2 },
      { token: 'hund', positions: [3], attended: 3, diagonal: 3 },
    ]);
    assert.deepEqual(alignmentScore([SENTENCE], dictionary), {
      checkable: 2,
      aligned: 2,
      score: 1,
      diagonalAligned: 1,
      diagonalScore: 0.5,
    });
  });

  test('sums the counts over sentences instead of averaging their scores', () => {
    // "he sees" -> "sie sieht": "sie" pairs with nothing here ("she" and "her" are absent), and
    // "sieht" (at 1) gets its largest weight at 0: attention 0 of 1. The diagonal puts row 1 at
    // d(1) = floor(3 · 2 / 4) = 1: 1 of 1.
    const wrong = {
      source: ['he', 'sees'],
      target: ['sie', 'sieht'],
      weights: [0.9, 0.1, 0.7, 0.3],
    };
    assert.deepEqual(alignmentScore([wrong], dictionary), {
      checkable: 1,
      aligned: 0,
      score: 0,
      diagonalAligned: 1,
      diagonalScore: 1,
    });
    // With the hand-worked sentence (attention 2 of 2, diagonal 1 of 2): attention 2 of 3 and
    // diagonal 2 of 3, where the means of the sentence scores would be 1/2 and 3/4.
    assert.deepEqual(alignmentScore([SENTENCE, wrong], dictionary), {
      checkable: 3,
      aligned: 2,
      score: 2 / 3,
      diagonalAligned: 2,
      diagonalScore: 2 / 3,
    });
  });

  test('never checks the row of an end marker or an unknown word, nor pairs a source marker', () => {
    // Even a dictionary that lists the markers does not make them checkable.
    const withMarkers = new Map([
      ...dictionary,
      ['<unk>', new Set(['<unk>'])],
      ['</s>', new Set(['</s>'])],
    ]);
    const sentence = {
      source: ['she', 'sees', '<unk>', '</s>'],
      target: ['sie', '<unk>', '</s>'],
      weights: new Float32Array([0.7, 0.1, 0.1, 0.1, 0, 0, 1, 0, 0, 0, 0, 1]),
    };
    const rows = alignmentRows(sentence, withMarkers);
    assert.deepEqual(
      rows.map((row) => row.positions),
      [[0], [], []],
    );
    assert.deepEqual(alignmentScore([sentence], withMarkers), {
      checkable: 1,
      aligned: 1,
      score: 1,
      diagonalAligned: 1,
      diagonalScore: 1,
    });
    assert.ok(isMarker('<unk>') && isMarker('</s>') && isMarker('<eos>'));
    assert.ok(!isMarker('<') && !isMarker('<>') && !isMarker('tom'));
  });

  test('pairs identical tokens with a letter or a digit only when asked', () => {
    const sentence = {
      source: ['tom', 'sees', '3', 'dogs', '.'],
      target: ['tom', 'sieht', '3', 'hunde', '.'],
      // The identity: every row's largest weight on its own position.
      weights: Float32Array.from({ length: 25 }, (_, k) => (k % 6 === 0 ? 1 : 0)),
    };
    const small = new Map([
      ['sieht', new Set(['sees'])],
      ['hunde', new Set(['dogs'])],
    ]);
    // By default only "sieht" and "hunde" are checkable; with pairIdentical "tom" and "3" too,
    // and "." never.
    assert.equal(alignmentScore([sentence], small).checkable, 2);
    assert.equal(alignmentScore([sentence], small, { pairIdentical: true }).checkable, 4);
    // A false friend: German "was" is English "what"; pairing identical spellings gives it a
    // second position, "was", and it is no longer checkable.
    const what = {
      source: ['what', 'was', 'that'],
      target: ['was', 'war', 'das'],
      weights: new Float32Array(9).fill(1 / 3),
    };
    const dictionaryWas = new Map([['was', new Set(['what'])]]);
    assert.deepEqual(alignmentRows(what, dictionaryWas)[0].positions, [0]);
    assert.deepEqual(
      alignmentRows(what, dictionaryWas, { pairIdentical: true })[0].positions,
      [0, 1],
    );
  });

  test('says NaN when nothing is checkable', () => {
    const result = alignmentScore([], dictionary);
    assert.equal(result.checkable, 0);
    assert.ok(Number.isNaN(result.score) && Number.isNaN(result.diagonalScore));
  });

  test('refuses weights of the wrong size or not finite, and a dictionary that is no Map', () => {
    assert.throws(
      () => alignmentScore([{ ...SENTENCE, weights: new Float32Array(11) }], dictionary),
      {
        name: 'RangeError',
        message: /items\[0\]\.weights has 11 entries; target x source is 3 x 4 = 12/,
      },
    );
    const weights = Float32Array.from(SENTENCE.weights);
    weights[5] = NaN;
    assert.throws(() => alignmentScore([{ ...SENTENCE, weights }], dictionary), {
      name: 'RangeError',
      message: /weights\[5\] \(row 1, column 1\) must be finite, got NaN/,
    });
    assert.throws(() => alignmentScore([SENTENCE], /** @type {any} */ ({ sie: ['she'] })), {
      name: 'TypeError',
      message: /dictionary must be a Map/,
    });
    assert.throws(
      () =>
        alignmentScore(
          [/** @type {any} */ ({ ...SENTENCE, target: ['sie', 7, 'hund'] })],
          dictionary,
        ),
      { name: 'TypeError', message: /items\[0\]\.target\[1\] must be a string/ },
    );
  });
});

describe('diagonalPosition', () => {
  test('is the source cell that holds the middle of each output cell', () => {
    // floor((2t + 1) · n_src / (2 · n_tgt)) = j exactly when
    // 2 j n_tgt <= (2t + 1) n_src < 2 (j + 1) n_tgt, checked in whole numbers.
    for (let nSource = 1; nSource <= 40; nSource++) {
      for (let nTarget = 1; nTarget <= 40; nTarget++) {
        for (let t = 0; t < nTarget; t++) {
          const j = diagonalPosition(t, nSource, nTarget);
          const middle = (2 * t + 1) * nSource;
          assert.ok(j >= 0 && j < nSource);
          assert.ok(2 * j * nTarget <= middle && middle < 2 * (j + 1) * nTarget);
        }
      }
    }
    // round((t + 0.5) · n_src / n_tgt - 0.5) with halves up: 4 over 2 gives 0.5 -> 1, 2.5 -> 3.
    assert.deepEqual(
      [0, 1].map((t) => diagonalPosition(t, 4, 2)),
      [1, 3],
    );
    assert.throws(() => diagonalPosition(3, 4, 3), { name: 'RangeError' });
  });
});
