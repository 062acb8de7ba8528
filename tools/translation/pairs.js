// What tools/translation/make-corpus.js does with the sentence pairs of both sources once they are
// tokenized: keep pairs of a trainable length, drop repeated pairs, split by English sentence, and
// build the German vocabulary from the train split. docs/translation-corpus.md gives the rules.
import { createHash } from 'node:crypto';

import { GERMAN_UNKNOWN } from '../../web/src/engine/translator.js';
import { compareCodePoints } from './freedict.js';
import { GERMAN_SPECIALS } from './pairs-format.js';

/** Fewest and most tokens a side of a kept pair has. */
export const MIN_TOKENS = 2;
export const MAX_TOKENS = 40;
/** The German token for a word outside the vocabulary (the engine's). */
export { GERMAN_UNKNOWN };
/** The German vocabulary's first lines, in id order (GERMAN_SPECIALS). */
export const GERMAN_SPECIAL_TOKENS = Object.freeze(['<pad>', '<s>', '</s>', GERMAN_UNKNOWN]);

/**
 * @typedef {object} TokenizedPair
 * @property {number} source 0 Ding's sentences, 1 LibreOffice, 2 Ding's word entries
 * @property {string} english the text
 * @property {string} german the text
 * @property {string[]} englishTokens
 * @property {number[]} englishIds
 * @property {string[]} germanTokens
 */

/**
 * Whether both sides have MIN_TOKENS ... MAX_TOKENS tokens.
 * @param {{ englishTokens: string[], germanTokens: string[] }} pair
 */
export function trainableLength({ englishTokens, germanTokens }) {
  return [englishTokens.length, germanTokens.length].every(
    (n) => n >= MIN_TOKENS && n <= MAX_TOKENS,
  );
}

/**
 * The pairs with each pair of token sequences once: the first of several pairs whose English and
 * German tokens are the same is kept, in the order given.
 * @template {{ englishTokens: string[], germanTokens: string[] }} T
 * @param {T[]} pairs
 * @returns {T[]}
 */
export function uniquePairs(pairs) {
  const seen = new Set();
  return pairs.filter((pair) => {
    const key = `${pair.englishTokens.join(' ')}\t${pair.germanTokens.join(' ')}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/**
 * The split of every pair whose English side has these tokens: the first four bytes of the
 * SHA-256 of the tokens joined by single spaces (UTF-8), read as a big-endian unsigned number,
 * modulo 100; 0-4 test, 5-9 validation, 10-99 train. Pairs that share an English sentence so share
 * a split, and the split of a sentence never depends on what else is in the corpus.
 * @param {string[]} englishTokens
 * @returns {'train' | 'validation' | 'test'}
 */
export function splitOfEnglish(englishTokens) {
  const digest = createHash('sha256').update(englishTokens.join(' '), 'utf8').digest();
  const bucket = digest.readUInt32BE(0) % 100;
  return bucket < 5 ? 'test' : bucket < 10 ? 'validation' : 'train';
}

/**
 * The German vocabulary: the four special tokens, then the `size` most frequent German tokens of
 * the given (train) pairs, more frequent first, equally frequent ones in code-point order.
 * @param {Array<{ germanTokens: string[] }>} pairs
 * @param {number} size how many words besides the special tokens, at most
 * @returns {string[]} the tokens in id order
 */
export function germanVocabulary(pairs, size) {
  /** @type {Map<string, number>} */
  const counts = new Map();
  for (const { germanTokens } of pairs) {
    for (const token of germanTokens) counts.set(token, (counts.get(token) ?? 0) + 1);
  }
  const words = [...counts]
    .sort((a, b) => b[1] - a[1] || compareCodePoints(a[0], b[0]))
    .slice(0, size)
    .map(([token]) => token);
  return [...GERMAN_SPECIAL_TOKENS, ...words];
}

/**
 * Maps German tokens to ids over a vocabulary from germanVocabulary; a token it lacks is unknown.
 * @param {string[]} vocabulary
 */
export function makeGermanEncoder(vocabulary) {
  /** @type {Map<string, number>} */
  const rows = new Map();
  vocabulary.forEach((token, id) => {
    if (id > GERMAN_SPECIALS.unknown) rows.set(token, id);
  });
  /** @param {string[]} tokens */
  return (tokens) => tokens.map((token) => rows.get(token) ?? GERMAN_SPECIALS.unknown);
}
