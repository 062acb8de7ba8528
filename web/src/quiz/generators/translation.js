// What the live questions on the page's translation models share: the models (loaded into the
// engine by the page before these questions are drawn), the sentences they are asked about, and
// the German words whose weights make a fair question.
import { GERMAN_UNKNOWN } from '../../engine/translator.js';
import { largestAt } from './shared.js';

/**
 * Sentences the attention model translates well enough to ask about: short, in the vocabulary of
 * both sides, from the kinds of text it was trained on (everyday sentences, help pages).
 */
export const SENTENCES = Object.freeze([
  'The house is very old.',
  'The document can not be printed.',
  'This function deletes the selected cells.',
  'Enter the name of the new file.',
  'Click the button to open the file.',
  'I have seen the house.',
  'Select the text that you want to copy.',
  'We have bought a new car.',
  'He has read the book.',
  'I can not find my keys.',
]);

/** A token that is a word, not punctuation alone. */
const WORD = /\p{L}/u;

/**
 * The engine's attention model; throws when none is loaded.
 * @param {{ translators?: { attention: import('../../engine/index.js').Translator | null } | null }} engine
 * @returns {import('../../engine/index.js').Translator}
 */
export function attentionModelOf(engine) {
  const model = engine.translators?.attention;
  if (!model) throw new Error('this question needs the translation models, not yet loaded');
  return model;
}

/**
 * @param {string} token
 * @returns {boolean} whether it holds a letter (a word, not a punctuation mark)
 */
export function isWord(token) {
  return WORD.test(token);
}

/**
 * The row of German word t: its weights over the n English tokens.
 * @param {Float32Array} weights (m, n) row-major
 * @param {number} n
 * @param {number} t
 * @returns {number[]}
 */
export function rowOf(weights, n, t) {
  return Array.from(weights.subarray(t * n, (t + 1) * n));
}

/**
 * The German words of a translation worth asking about: a known word (not <unk>, not punctuation)
 * whose largest weight is on an English word (not punctuation), in a source with at least
 * `others` further distinct words to offer as wrong answers.
 * @param {import('../../engine/index.js').Translation} translation
 * @param {number} others
 * @returns {number[]} their indices t
 */
export function askableWords(translation, others) {
  const { source, target, weights } = translation;
  const n = source.length;
  const words = new Set(source.filter(isWord));
  if (words.size < others + 1) return [];
  return target.flatMap((word, t) => {
    if (word === GERMAN_UNKNOWN || !isWord(word)) return [];
    return isWord(source[largestAt(rowOf(weights, n, t))]) ? [t] : [];
  });
}
