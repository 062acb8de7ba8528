// The page's tokenizer (web/src/text/tokenize.js): lower case, punctuation apart, contractions split
// the way the word vectors hold them, known hyphenated compounds whole, and no input that throws.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { asciiTokens, segmentedTokens, tokenize } from '../../web/src/text/tokenize.js';

describe('tokenize', () => {
  test('lower-cases words and makes each punctuation mark a token', () => {
    assert.deepEqual(tokenize('The Cat sat, then LEFT.'), [
      'the',
      'cat',
      'sat',
      ',',
      'then',
      'left',
      '.',
    ]);
    assert.deepEqual(tokenize('  \n\t '), []);
    assert.deepEqual(tokenize(''), []);
  });

  test('any gap of white space separates words, and a mark with its accent stays one token', () => {
    assert.deepEqual(tokenize('one\t\ttwo\r\nthree\u00a0four'), ['one', 'two', 'three', 'four']);
    assert.deepEqual(tokenize('a ,\u0301 b'), ['a', ',\u0301', 'b']);
    assert.deepEqual(tokenize('x \ud800 y'), ['x', 'y']);
    assert.deepEqual(tokenize('ok!? \u{1f44d}\u{1f3fd}.'), [
      'ok',
      '!',
      '?',
      '\u{1f44d}\u{1f3fd}',
      '.',
    ]);
  });

  test('text in ASCII splits without the segmenters exactly as they split it', () => {
    // Letters, digits and every mark that joins or splits words in Unicode's rules, at random.
    const alphabet = 'abzXY059_ .,;:\'"!?-()\t\n\r/@#$%&*+=<>[]{}|\\^`~';
    let state = 7;
    const next = () => (state = (state * 1103515245 + 12345) % 2147483648) / 2147483648;
    for (let i = 0; i < 20000; i++) {
      let text = '';
      const length = 1 + Math.floor(next() * 14);
      for (let j = 0; j < length; j++) text += alphabet[Math.floor(next() * alphabet.length)];
      assert.deepEqual(asciiTokens(text), segmentedTokens(text), JSON.stringify(text));
    }
    for (const text of ["it's 3.14, e.g. a:b or 1,000;2 x_y", "rock'n'roll -- a.b.c. 4'5"]) {
      assert.deepEqual(asciiTokens(text), segmentedTokens(text), text);
    }
  });

  test('splits contractions into the word and the piece the vocabulary holds', () => {
    assert.deepEqual(tokenize("The animal didn't cross"), ['the', 'animal', 'did', "n't", 'cross']);
    assert.deepEqual(tokenize("It's here, they're there, I'm in, we'll see, you've won, he'd go"), [
      ...['it', "'s", 'here', ',', 'they', "'re", 'there', ',', 'i', "'m", 'in', ','],
      ...['we', "'ll", 'see', ',', 'you', "'ve", 'won', ',', 'he', "'d", 'go'],
    ]);
    assert.deepEqual(tokenize("the cat's bowl"), ['the', 'cat', "'s", 'bowl']);
  });

  test('reads a typographic apostrophe inside a word as an apostrophe', () => {
    assert.deepEqual(tokenize('didn\u2019t'), ['did', "n't"]);
    assert.deepEqual(tokenize('it\u2019s'), ['it', "'s"]);
  });

  test("gives can't, won't and shan't their whole word", () => {
    assert.deepEqual(tokenize("can't won't shan't"), [
      ...['can', "n't", 'will', "n't", 'shall', "n't"],
    ]);
  });

  test('leaves other words with apostrophes whole, and splits a trailing apostrophe off', () => {
    assert.deepEqual(tokenize("o'clock"), ["o'clock"]);
    assert.deepEqual(tokenize("the dogs' bowls"), ['the', 'dogs', "'", 'bowls']);
    assert.deepEqual(tokenize("n't"), ["n't"]);
  });

  test('keeps a hyphenated compound whole only when the vocabulary holds it', () => {
    const known = (word) => word === 'well-known';
    assert.deepEqual(tokenize('a well-known cross-over', { known }), [
      ...['a', 'well-known', 'cross', '-', 'over'],
    ]);
    assert.deepEqual(tokenize('a well-known word'), ['a', 'well', '-', 'known', 'word']);
    assert.deepEqual(tokenize('well - known', { known }), ['well', '-', 'known']);
    assert.deepEqual(tokenize('WELL-KNOWN', { known }), ['well-known']);
  });

  test('keeps other scripts and emoji as tokens', () => {
    assert.deepEqual(tokenize('I \u2764\ufe0f 猫 and مرحبا 👍🏽!'), [
      ...['i', '\u2764\ufe0f', '猫', 'and', 'مرحبا', '👍🏽', '!'],
    ]);
  });

  test('never throws, whatever it is given', () => {
    const samples = [
      undefined,
      null,
      42,
      '\ud800',
      'a\udc00b',
      '\u0000\u200b\u202e\ufeff',
      'e\u0301\u0301\u0301',
      '👨‍👩‍👧‍👦🏳️‍🌈',
      "'''n't's'",
      '-'.repeat(1000),
      'x'.repeat(100_000),
    ];
    const throwing = () => {
      throw new Error('broken vocabulary');
    };
    for (const sample of samples) {
      assert.doesNotThrow(() => tokenize(/** @type {any} */ (sample)));
      assert.doesNotThrow(() => tokenize(/** @type {any} */ (sample), { known: throwing }));
    }
    // Random strings over all of Unicode, lone surrogates included.
    let seed = 7;
    const next = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0);
    for (let round = 0; round < 500; round++) {
      const units = Array.from({ length: 1 + (next() % 40) }, () =>
        next() % 4 === 0 ? 0x20 : next() % 0x10000,
      );
      const text = String.fromCharCode(...units);
      const tokens = tokenize(text, { known: () => true });
      for (const token of tokens) assert.ok(token.trim().length > 0, JSON.stringify(text));
    }
  });
});
