// The translation figures' words (web/src/widgets/translation/text.js), worked out from a report
// and a translation by hand here: bucket names, Figure 2's series and lead, the facts line, the
// notes on unknown and cut text, and the reading of one decoder step.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import {
  bleuByLength,
  leadText,
  modelFactsText,
  stepText,
} from '../../web/src/widgets/translation/text.js';
import {
  bucketName,
  droppedText,
  stepsOf,
  unknownSourceText,
  unknownTargets,
} from '../../web/src/widgets/shared/translation-text.js';
import { largestInRow } from '../../web/src/engine/translator.js';

const buckets = (values) =>
  values.map((bleu, i) => ({
    from: 1 + 5 * i,
    to: i === values.length - 1 ? null : 5 * (i + 1),
    bleu,
  }));
const info = (bleu, byLength, parameters) => ({
  parameters,
  targetWords: 8004,
  corpus: { trainPairs: 38747, testPairs: 2161 },
  bleu: { overall: { bleu, sentences: 2161 }, buckets: buckets(byLength) },
});
const attention = info(9.33, [10, 9, 8], 1309416);
const fixedVector = info(6.01, [8, 6, 4], 1243624);

describe('Figure 2 from the report', () => {
  test('bucket names: a range, or "and longer" for the last', () => {
    assert.equal(bucketName({ from: 6, to: 10 }), '6\u201310');
    assert.equal(bucketName({ from: 31, to: null }), '31+');
  });

  test('both series by bucket, and the lead on the shortest and longest', () => {
    const series = bleuByLength(attention, fixedVector);
    assert.deepEqual(series, {
      names: ['1\u20135', '6\u201310', '11+'],
      attention: [10, 9, 8],
      fixedVector: [8, 6, 4],
    });
    const lead = leadText(series);
    // 8 -> 4 is half; 10 -> 8 a fifth. Leads 2 and 4.
    assert.equal(
      lead,
      'From 1\u20135 to 11+ English words the fixed vector loses 50% of its BLEU and attention ' +
        '20%, as in Bahdanau and colleagues\u2019 Figure 2; the gap is 2 BLEU at the short end ' +
        'and 4 at the long.',
    );
  });

  test('says so when the numbers do not have Figure 2\u2019s shape', () => {
    const lead = leadText({
      names: ['1\u20135', '6+'],
      attention: [10, 5],
      fixedVector: [6, 4],
    });
    // The fixed vector loses a third, attention a half; the gap shrinks from 4 to 1.
    assert.match(lead, /loses 33% of its BLEU and attention 50%, unlike Bahdanau/);
    assert.match(lead, /the gap is 4 BLEU at the short end and 1 at the long\./);
  });

  test('refuses models scored on different buckets', () => {
    const other = info(6, [8, 6], 1);
    assert.throws(() => bleuByLength(attention, other), /different length buckets/);
  });
});

describe('what the models are', () => {
  test('sizes, data, BLEU on what it was measured, and the words vocabulary', () => {
    const { short, more } = modelFactsText(attention, fixedVector);
    assert.match(short, /1\.31 and 1\.24 million parameters/);
    assert.match(short, /38,747 human translations/);
    assert.match(short, /on 2,161 held-out ones/);
    assert.match(short, /scores 9\.33 BLEU and the fixed-vector model 6\.01/);
    assert.match(short, /about 30 on news, another text\.$/);
    assert.match(more, /; the German is written greedily, the likeliest word at each step\. /);
    const beam = modelFactsText({ ...attention, measuredBeam: 4 }, fixedVector).more;
    assert.match(
      beam,
      /; the German scored and shown \(steps aside\) is a beam search\u2019s, 4 wide\. /,
    );
    assert.match(more, /know 8,000 German words/);
    assert.match(more, /not French/);
    assert.match(more, /fixed-vector model writes <unk>, and the attention model copies/);
  });

  test('a pieces vocabulary and the everyday scores', () => {
    const everyday = { sentences: 50, chrf: 31.2, unknownShare: 0, contentWordRecall: 0.414 };
    const withPieces = { ...attention, targetWords: 8000, targetPieces: true, everyday };
    const { short, more } = modelFactsText(withPieces, { ...fixedVector, targetPieces: true });
    assert.match(more, /On 50 everyday sentences written for this page/);
    assert.match(more, /holds 41% of the content words of a human translation/);
    assert.doesNotMatch(short, /everyday/);
    assert.match(more, /German in 7,996 word pieces/);
    assert.match(more, /can spell any German word/);
    assert.doesNotMatch(more, /know [\d,]+ German words/);
  });
});

describe('notes on one translation', () => {
  // (3, 4): row 0 on "the", row 1 on "house", row 2 on "."
  const weights = new Float32Array([0.7, 0.1, 0.1, 0.1, 0.1, 0.2, 0.6, 0.1, 0.1, 0, 0.2, 0.7]);
  /** @type {import('../../web/src/engine/index.js').Translation} */
  const translation = {
    source: ['the', 'zqx', 'house', '.'],
    known: [true, false, true, true],
    dropped: 0,
    target: ['das', '<unk>', '.'],
    copied: [-1, 2, -1],
    output: ['das', 'house', '.'],
    weights,
    end: new Float32Array([0.25, 0.25, 0.25, 0.25]),
    // A word vocabulary: each step writes one word.
    pieces: {
      text: ['das', '<unk>', '.'],
      firstPiece: [0, 1, 2, 3],
      weights,
      scores: new Float32Array(12),
    },
    logProbability: -3,
  };

  test('names the unknown English words, and says nothing when there are none', () => {
    assert.match(unknownSourceText(translation.source, translation.known), /“zqx”/);
    assert.equal(unknownSourceText(['a'], [true]), '');
    assert.deepEqual(unknownTargets(translation.target), [false, true, false]);
  });

  test('says how much of a long text the models read', () => {
    assert.equal(droppedText(translation), '');
    assert.equal(
      droppedText({ ...translation, dropped: 60 }),
      'The models read the first 4 of 64 tokens.',
    );
  });

  test('reads the steps of a word vocabulary as its words, a copy in place of <unk>', () => {
    assert.deepEqual(stepsOf(translation), [
      { text: 'das', word: 0, joins: false, unknown: false },
      { text: 'house', word: 1, joins: false, unknown: true },
      { text: '.', word: 2, joins: false, unknown: false },
    ]);
  });

  test('reads the steps of pieces: each piece, which word it is part of, whether it joins', () => {
    const rows = new Float32Array([1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]);
    /** @type {import('../../web/src/engine/index.js').Translation} */
    const pieces = {
      ...translation,
      source: ['the', 'cat', 'sleeps', '.'],
      target: ['die', 'katze', 'schläft'],
      copied: [-1, -1, -1],
      output: ['die', 'katze', 'schläft'],
      pieces: {
        text: ['\u2581die', '\u2581katze', '\u2581schläf', 't'],
        firstPiece: [0, 1, 2, 4],
        weights: rows,
        scores: new Float32Array(16),
      },
    };
    assert.deepEqual(
      stepsOf(pieces).map((step) => [step.text, step.word, step.joins]),
      [
        ['die', 0, false],
        ['katze', 1, false],
        ['schläf', 2, false],
        ['t', 2, true],
      ],
    );
    assert.equal(
      stepText(pieces, 3),
      'Step 4 of 4: the decoder writes “t”, part of “schläft”. Its largest weight, 1, is on “.” ' +
        '(English word 4).',
    );
  });

  test('reads a step: the word written and its largest weight', () => {
    assert.deepEqual(largestInRow(translation.weights, 4, 1), {
      column: 2,
      weight: translation.weights[6],
    });
    assert.equal(
      stepText(translation, 0),
      'Step 1 of 3: the decoder writes “das”. Its largest weight, 0.7, is on “the” (English word 1).',
    );
    assert.match(
      stepText(translation, 1),
      /writes a word outside its vocabulary, read as the English “house” it copies/,
    );
  });
});
