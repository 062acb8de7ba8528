// The numbers behind the language-model widget (web/src/widgets/language-model/math.js), on the
// page's trained model where they read a run of it: head names and kinds, the key score of each
// kind, the token a row gives most weight to, the induction score of a run written twice (checked
// against the definition in docs/language-model.md written out here), the seeded random words,
// and the line about the model's training, whose numbers come from its info.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';

import { loadLanguageModel } from 'attention-lab';
import { PREVIOUS_TOKEN_THRESHOLD, kindHead } from '../../web/src/text/heads.js';
import { tokenize } from '../../web/src/text/tokenize.js';
import {
  COMMON_WORDS,
  INDUCTION_THRESHOLD,
  REPEAT_WORDS,
  formatProbability,
  formatScore,
  headIndex,
  headName,
  headsPerLayer,
  inductionHeadIndex,
  inductionScore,
  keyScore,
  kindWords,
  modelFactsText,
  nextWordLabel,
  randomWords,
  readoutText,
  repeatedRunLength,
  repeatedText,
  rowFor,
  scoreName,
  strongestKey,
  unknownText,
} from '../../web/src/widgets/language-model/math.js';
import { ROOT } from './helpers.js';

const model = await loadLanguageModel();
const { info } = model;
const REPORT = JSON.parse(readFileSync(join(ROOT, 'web/public/models/brown-lm.json'), 'utf8'));
const known = (/** @type {string} */ word) =>
  tokenize(word).length === 1 && model.run(word).known[0];
const ANIMAL = "The animal didn't cross the street because it was too tired";

/** @param {Partial<import('attention-lab').HeadScores>} scores @param {string} kind */
function head(kind, scores = {}) {
  return {
    layer: 0,
    head: 0,
    kind,
    scores: { previousToken: 0.1, firstToken: 0.2, self: 0.3, induction: 0.05, ...scores },
  };
}

describe('naming the heads', () => {
  test('heads are named 1-based, layer first, and names are read back to their index', () => {
    assert.equal(headName({ layer: 1, head: 0 }), '2.1');
    assert.equal(headsPerLayer(info), info.heads.length / info.layers);
    const perLayer = headsPerLayer(info);
    info.heads.forEach((h, i) => assert.equal(headIndex(headName(h), info.layers, perLayer), i));
    assert.equal(headIndex(2.3, 2, 4), 6, 'a link reads 2.3 as a number');
  });

  test('a name that is no head of the model gives -1, whatever it is', () => {
    for (const bad of [
      '0.1',
      '3.1',
      '1.5',
      '1.0',
      '1',
      '1.2.3',
      'x',
      '',
      null,
      undefined,
      {},
      [1],
      -1.1,
    ]) {
      assert.equal(headIndex(bad, 2, 4), -1, String(bad));
    }
  });

  test('each kind is said in words, and a kind this page does not know is still said', () => {
    assert.equal(kindWords('previous-token'), 'previous token');
    assert.equal(kindWords('first-token'), 'first token');
    assert.equal(kindWords('induction'), 'induction');
    assert.equal(kindWords('mixed'), 'mixed: no clear pattern');
    assert.equal(kindWords('duplicate-token'), 'duplicate token');
    assert.equal(kindWords('constructor'), 'constructor');
    assert.equal(kindHead('previous-token'), 'previous-token head');
    assert.equal(kindHead('self'), 'head on its own token');
    assert.equal(kindHead('mixed'), 'head with no clear pattern');
    assert.equal(kindHead('duplicate-token'), 'duplicate token head');
  });

  test('the thresholds the page states are the ones the model was named with', () => {
    assert.equal(PREVIOUS_TOKEN_THRESHOLD, REPORT.headMeasurement.patternThreshold);
    assert.equal(INDUCTION_THRESHOLD, REPORT.headMeasurement.inductionThreshold);
  });

  test('the key score is the one the kind is named from; for a mixed head the largest', () => {
    assert.deepEqual(keyScore(head('induction', { induction: 0.8 })), {
      score: 'induction',
      value: 0.8,
    });
    assert.deepEqual(keyScore(head('previous-token', { previousToken: 0.6 })), {
      score: 'previousToken',
      value: 0.6,
    });
    assert.deepEqual(keyScore(head('self', { self: 0.7 })), { score: 'self', value: 0.7 });
    assert.deepEqual(keyScore(head('mixed')), { score: 'self', value: 0.3 });
    assert.deepEqual(keyScore(head('unheard-of', { firstToken: 0.9 })), {
      score: 'firstToken',
      value: 0.9,
    });
    assert.equal(scoreName('previousToken'), 'previous-token');
    for (const h of info.heads) {
      const { value } = keyScore(h);
      assert.ok(Object.values(h.scores).includes(value), `head ${headName(h)}`);
      if (h.kind === 'mixed') assert.equal(value, Math.max(...Object.values(h.scores)));
    }
  });

  test('the induction head is the one with the highest measured induction score', () => {
    const index = inductionHeadIndex(info.heads);
    const best = Math.max(...info.heads.map((h) => h.scores.induction));
    assert.equal(info.heads[index].scores.induction, best);
    assert.equal(inductionHeadIndex([]), -1);
  });

  test('scores and weights are written to 2 decimals, probabilities as percentages', () => {
    assert.equal(formatScore(0.2037), '0.20');
    assert.equal(formatScore(1), '1.00');
    assert.equal(formatProbability(0.254), '25.4%');
    assert.equal(nextWordLabel(null), '(an unknown word)');
    assert.equal(nextWordLabel('the'), 'the');
  });
});

describe('reading a run of the model', () => {
  const run = model.run(ANIMAL);
  const n = run.tokens.length;

  test('the read-out row is the last occurrence of the word, else the last token', () => {
    assert.equal(rowFor(run.tokens, 'it'), run.tokens.indexOf('it'));
    assert.equal(rowFor(run.tokens, ' The '), run.tokens.lastIndexOf('the'));
    assert.equal(rowFor(run.tokens, 'zebra'), n - 1);
    assert.equal(rowFor(run.tokens, undefined), n - 1);
    assert.equal(rowFor(run.tokens, 7), n - 1);
  });

  test('the strongest key of a row is its largest weight, among the tokens up to it', () => {
    const row = rowFor(run.tokens, 'it');
    for (const h of run.heads) {
      const weights = Array.from(h.weights.subarray(row * n, row * n + row + 1));
      const { column, weight } = strongestKey(h.weights, n, row);
      assert.equal(weight, Math.max(...weights));
      assert.equal(column, weights.indexOf(weight));
    }
  });

  test('the read-out names the head, the tokens and the weight', () => {
    const tokens = ['the', 'cat', 'saw', 'the', 'dog'];
    assert.equal(
      readoutText('2.3', tokens, 4, { column: 1, weight: 0.2449 }),
      'In head 2.3, \u201cdog\u201d gives most weight to \u201ccat\u201d (0.24).',
    );
    assert.equal(
      readoutText('1.1', tokens, 4, { column: 4, weight: 0.5 }),
      'In head 1.1, \u201cdog\u201d gives most weight to itself (0.50).',
    );
    assert.equal(
      readoutText('1.1', tokens, 3, { column: 0, weight: 0.5 }),
      'In head 1.1, \u201cthe\u201d (token 4) gives most weight to \u201cthe\u201d (token 1) (0.50).',
    );
  });

  test('the note names the words the model does not know, once each', () => {
    const odd = model.run('The zzqxv saw a zzqxv and a qqzzx.');
    assert.equal(
      unknownText(odd.tokens, odd.known),
      'Not in the model\u2019s vocabulary: \u201czzqxv\u201d, \u201cqqzzx\u201d. ' +
        'The model reads each as the same unknown word.',
    );
    assert.equal(unknownText(run.tokens, run.known), '');
  });
});

describe('the induction demonstration', () => {
  test(`the word list holds 200 distinct single tokens the vocabulary knows`, () => {
    assert.equal(COMMON_WORDS.length, 200);
    assert.equal(new Set(COMMON_WORDS).size, 200);
    for (const word of COMMON_WORDS) assert.ok(known(word), word);
  });

  test(`each seed gives ${REPEAT_WORDS} distinct words, the same every time`, () => {
    const seen = new Set();
    for (let seed = 1; seed <= 20; seed++) {
      const words = randomWords(seed);
      assert.equal(words.length, REPEAT_WORDS);
      assert.equal(new Set(words).size, REPEAT_WORDS);
      assert.deepEqual(randomWords(seed), words);
      for (const word of words) assert.ok(COMMON_WORDS.includes(word));
      seen.add(words.join(' '));
    }
    assert.equal(seen.size, 20, 'another seed, other words');
    const few = randomWords(3, REPEAT_WORDS, (word) => word.startsWith('b'));
    assert.ok(few.length > 0 && few.every((word) => word.startsWith('b')));
    assert.deepEqual(
      randomWords(3, REPEAT_WORDS, () => false),
      [],
    );
  });

  test('a run written twice is recognised, and nothing else is', () => {
    const words = randomWords(1);
    const tokens = tokenize(repeatedText(words));
    assert.equal(tokens.length, 2 * REPEAT_WORDS);
    assert.equal(repeatedRunLength(tokens), REPEAT_WORDS);
    assert.equal(repeatedRunLength(['a', 'b', 'a', 'b']), 2);
    assert.equal(repeatedRunLength(['a', 'a']), 0, 'a run of one token');
    assert.equal(repeatedRunLength(['a', 'b', 'a', 'c']), 0);
    assert.equal(repeatedRunLength(['a', 'b', 'c', 'a', 'b']), 0);
    assert.equal(repeatedRunLength([]), 0);
  });

  test('the induction score is the mean weight on the token after the first occurrence', () => {
    const run = model.run(repeatedText(randomWords(7)));
    const n = run.tokens.length;
    const L = repeatedRunLength(run.tokens);
    assert.equal(L, REPEAT_WORDS);
    for (const h of run.heads) {
      // The definition, written out: each token of the second copy, the weight it gives to the
      // token that followed its first occurrence.
      let sum = 0;
      for (let i = L; i < n; i++) {
        const first = run.tokens.indexOf(run.tokens[i]);
        sum += h.weights[i * n + first + 1];
      }
      const want = sum / L;
      assert.ok(Math.abs(inductionScore(h.weights, n, L) - want) < 1e-12, `head ${headName(h)}`);
    }
    assert.throws(() => inductionScore(new Float32Array(25), 5, 2), /not a run of 2 written twice/);
  });

  test('on repeated random words the model’s induction heads find the repeat', () => {
    const run = model.run(repeatedText(randomWords(1)));
    const n = run.tokens.length;
    const best = run.heads[inductionHeadIndex(info.heads)];
    assert.ok(inductionScore(best.weights, n, n / 2) >= INDUCTION_THRESHOLD);
  });
});

describe('the line about the model', () => {
  test('its numbers are those of the model’s info', () => {
    const { training, baselines } = /** @type {any} */ (info);
    const count = (value) => value.toLocaleString('en');
    const ppl = (value) => value.toLocaleString('en', { maximumFractionDigits: 1 });
    assert.equal(
      modelFactsText(info),
      `Trained by this page\u2019s own core on the Brown Corpus (${count(training.trainTokens)} ` +
        `training tokens). Held-out perplexity ${ppl(info.testPerplexity)} on its test text, ` +
        `against ${ppl(baselines.kneserNeyBigram.test)} for a Kneser-Ney bigram. ` +
        `${training.repeatedPerBatch} of every ${training.batch} training sequences were runs of ` +
        'random words repeated to fill them, which is what brings out the induction heads.',
    );
  });

  test('without training settings or baselines it says what it knows', () => {
    assert.equal(
      modelFactsText({ corpus: null, testPerplexity: 123.45, baselines: null, training: null }),
      'Trained by this page\u2019s own core. Held-out perplexity 123.5 on its test text.',
    );
  });
});
