// The Brown Corpus read as the page reads text (tools/brown.js): tags stripped, the running text
// rebuilt as it would be typed, tokenized by the page's tokenizer, tokens mapped to the rows of
// the word-vector vocabulary with one unknown-word id, and the split by sample.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';

import {
  brownSentences,
  makeEncoder,
  readVocabulary,
  runningText,
  splitOf,
} from '../../tools/brown.js';
import { fnv1a32 } from '../../web/src/text/corpus.js';
import { tokenize } from '../../web/src/text/tokenize.js';
import { ROOT } from './helpers.js';

// Laid out as the package's sample files are: a tab before each sentence, blank lines between.
const SAMPLE = [
  '',
  '',
  "\tThe/at jury/nn said/vbd ``/`` it's/pps+bez well-known/jj ''/'' ,/, and/cc Atlanta's/np$ mayor/nn didn't/dod* (/( really/rb )/) agree/vb ./.",
  '',
  '',
  '\tIt/pps cost/vbd 1/2/cd a/at dollar/nn --/-- or/cc so/rb ;/. right/rb ?/.',
  '',
].join('\n');

describe('brownSentences', () => {
  test('strips the tags, taking the tag after the last slash, one list per sentence', () => {
    const sentences = brownSentences(SAMPLE);
    assert.equal(sentences.length, 2);
    assert.deepEqual(sentences[1], [
      'It',
      'cost',
      '1/2',
      'a',
      'dollar',
      '--',
      'or',
      'so',
      ';',
      'right',
      '?',
    ]);
    assert.equal(sentences[0][3], '``');
    assert.equal(sentences[0][4], "it's");
  });

  test('refuses an item that is not a word/tag pair', () => {
    assert.throws(() => brownSentences('\tThe/at jury\n'), /"jury" is not a word\/tag pair/);
    assert.throws(() => brownSentences('\t/at\n'), /not a word\/tag pair/);
    assert.throws(() => brownSentences('\tthe/\n'), /not a word\/tag pair/);
  });
});

describe('runningText', () => {
  test('writes the text as it would be typed', () => {
    assert.equal(
      runningText(brownSentences(SAMPLE)),
      `The jury said "it's well-known", and Atlanta's mayor didn't (really) agree.\n` +
        'It cost 1/2 a dollar -- or so; right?',
    );
    assert.equal(runningText([['1/4', "''", 'wide']]), '1/4" wide');
  });

  test('gives the tokens of the words, as the page tokenizes them', () => {
    const text = runningText(brownSentences(SAMPLE));
    assert.deepEqual(tokenize(text, { known: (word) => word === 'well-known' }), [
      ...['the', 'jury', 'said', '"', 'it', "'s", 'well-known', '"', ',', 'and', 'atlanta', "'s"],
      ...['mayor', 'did', "n't", '(', 'really', ')', 'agree', '.'],
      ...['it', 'cost', '1', '/', '2', 'a', 'dollar', '-', '-', 'or', 'so', ';', 'right', '?'],
    ]);
  });
});

describe('makeEncoder', () => {
  const words = ['the', 'jury', '.', "n't", 'did', 'well-known', 'well', '-'];

  test('maps each token to its row and every other token to one unknown id past the last row', () => {
    const encoder = makeEncoder(words);
    assert.equal(encoder.unknownId, 8);
    assert.equal(encoder.classes, 9);
    const { tokens, ids } = encoder.encode("The JURY didn't, well-known well-made.");
    assert.deepEqual(tokens, [
      ...['the', 'jury', 'did', "n't", ',', 'well-known', 'well', '-', 'made', '.'],
    ]);
    assert.deepEqual(ids, [0, 1, 4, 3, 8, 5, 6, 7, 8, 2]);
  });
});

describe('readVocabulary', () => {
  /**
   * A word-vector file (docs/embeddings.md) with these words and dimension 2.
   * @param {string[]} list
   */
  function vectorsFile(list) {
    const vocabulary = new TextEncoder().encode(list.map((w) => `${w}\n`).join(''));
    const padding = (4 - ((24 + vocabulary.length) % 4)) % 4;
    const bytes = new Uint8Array(
      24 + vocabulary.length + padding + 4 * list.length + 2 * list.length,
    );
    const view = new DataView(bytes.buffer);
    bytes.set(new TextEncoder().encode('ATTNVECS'));
    [1, list.length, 2, vocabulary.length].forEach((v, i) => view.setUint32(8 + 4 * i, v, true));
    bytes.set(vocabulary, 24);
    return { bytes, vocabulary };
  }

  test('reads the words in row order and hashes the vocabulary bytes', () => {
    const { bytes, vocabulary } = vectorsFile(['the', 'é', '.']);
    const read = readVocabulary(bytes);
    assert.deepEqual(read.words, ['the', 'é', '.']);
    assert.equal(read.hash, fnv1a32(vocabulary));
  });

  test('refuses a file that is not a word-vector file of the right size', () => {
    const { bytes } = vectorsFile(['a', 'b']);
    const wrongMagic = bytes.slice();
    wrongMagic[0] = 0x58;
    assert.throws(() => readVocabulary(wrongMagic), /magic/);
    assert.throws(() => readVocabulary(bytes.subarray(0, bytes.length - 1)), /header says/);
    assert.throws(() => readVocabulary(vectorsFile(['a', 'a']).bytes), /distinct/);
  });

  test("reads the page's vocabulary: 20,058 words", () => {
    const { words } = readVocabulary(
      readFileSync(join(ROOT, 'web/public/embeddings/en-20k-100d.bin')),
    );
    assert.equal(words.length, 20_058);
    assert.equal(words[0], 'the');
  });
});

describe('splitOf', () => {
  test('holds out every tenth sample for test and another tenth for validation', () => {
    const splits = Array.from({ length: 500 }, (_, i) => splitOf(i));
    const count = (/** @type {string} */ s) => splits.filter((x) => x === s).length;
    assert.deepEqual([count('train'), count('validation'), count('test')], [400, 50, 50]);
    assert.deepEqual(splits.slice(0, 10), [
      ...['train', 'train', 'train', 'train', 'validation'],
      ...['train', 'train', 'train', 'train', 'test'],
    ]);
  });
});
