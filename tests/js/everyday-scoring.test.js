// The scores of translation on everyday English (tools/translation/everyday.js): chrF, content
// words, and the committed everyday set itself.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';

import { chrfStatistics, corpusChrf } from '../../tools/translation/chrf.js';
import { contentWords, contentWordsFound } from '../../tools/translation/content-words.js';
import { EVERYDAY_SET, readEverydaySet } from '../../tools/translation/everyday.js';

describe('chrF', () => {
  test('is 100 for the reference itself and 0 for a text sharing no character', () => {
    assert.equal(
      corpusChrf([{ hypothesis: 'die katze', reference: 'Die Katze'.toLowerCase() }]),
      100,
    );
    assert.equal(corpusChrf([{ hypothesis: 'xyz', reference: 'abc' }]), 0);
    assert.equal(corpusChrf([]), 0);
  });

  test('averages precision and recall over the orders both sides have, then weighs recall twice', () => {
    // "ab" for "abc": order 1 P 1, R 2/3; order 2 P 1, R 1/2; orders 3 to 6 the hypothesis has none.
    // P = 1, R = 7/12, F2 = 5 P R / (4 P + R) = 35/55.
    assert.ok(Math.abs(corpusChrf([{ hypothesis: 'ab', reference: 'abc' }]) - 3500 / 55) < 1e-9);
  });

  test('ignores white space and counts a character as one code point', () => {
    assert.equal(corpusChrf([{ hypothesis: 'grö ße', reference: 'größe' }]), 100);
    assert.deepEqual(chrfStatistics('äb', 'äb')[0], [2, 2, 2]);
  });

  test('sums the statistics over the corpus before it divides', () => {
    const pairs = [
      { hypothesis: 'abcdef', reference: 'abcdef' },
      { hypothesis: 'x', reference: 'y' },
    ];
    // Order 1: 6 of 7 match both ways; orders 2 to 6 come from the first sentence alone.
    const expected = ((6 / 7 + 5) / 6) * 100;
    assert.ok(Math.abs(corpusChrf(pairs) - expected) < 1e-9);
  });
});

describe('content words', () => {
  test('drop the function words and punctuation, and keep repeats', () => {
    assert.deepEqual(contentWords('Die Katze schläft auf dem Sofa.'), ['katze', 'schläft', 'sofa']);
    assert.deepEqual(contentWords('Bitte, bitte!'), ['bitte', 'bitte']);
  });

  test('are found as often as both texts have them, in any case and order', () => {
    assert.deepEqual(contentWordsFound('das sofa , katze', 'Die Katze schläft auf dem Sofa.'), {
      found: 2,
      total: 3,
    });
    assert.deepEqual(contentWordsFound('bitte', 'Bitte, bitte!'), { found: 1, total: 2 });
  });
});

describe('the everyday set', () => {
  const pairs = readEverydaySet(readFileSync(EVERYDAY_SET, 'utf8'));

  test('holds short sentences of daily life, each English once, each with content words', () => {
    assert.ok(pairs.length >= 40, `${pairs.length} pairs`);
    assert.equal(new Set(pairs.map((p) => p.english)).size, pairs.length);
    for (const { english, german } of pairs) {
      assert.ok(english.split(' ').length <= 12, english);
      assert.ok(contentWords(german).length > 0, german);
    }
  });

  test('refuses a line that is not English, a tab, German', () => {
    assert.throws(() => readEverydaySet('The cat.\n'), /line 1: expected English, a tab, German/);
    assert.throws(() => readEverydaySet('a\tb\n\tc\n'), /line 2/);
  });
});
