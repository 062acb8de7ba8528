// The alignment score of a translation model with attention: how often the largest attention
// weight of a German word the model writes falls on the English word it translates, counted on the
// words whose English position a bilingual dictionary settles; and the same score for a diagonal
// guess that looks at the sentence lengths only.
//
// A sentence is what the engine's translate(text) returns: `source`, the n_src English tokens;
// `target`, the n_tgt German tokens the model wrote; `weights`, n_tgt x n_src row-major, row t the
// attention of output position t over the source. n_src and n_tgt are the lengths as given,
// markers included.
//
// - Pairs. A German token g and an English token e pair when the dictionary (German word -> the
//   English words it translates) lists e under g. Nothing else pairs: not identical tokens, so not
//   punctuation, numbers or names. A "." closes nearly every sentence in both languages and sits
//   where the diagonal guess looks anyway, and identical spellings include false friends (German
//   "was", "die", "will", "also", "man", "hat" are not the English words), so identical tokens
//   would add words that say little about attention or pair words wrongly. A name or number that
//   should count goes into the dictionary as a line of its own ("tom<TAB>tom"), where what counts
//   can be read. Option `pairIdentical: true` also pairs a German token with the same English
//   token when it holds a letter or a digit (never punctuation).
// - Markers. A token written in angle brackets (`<unk>`, `<eos>`, `</s>`) is a marker; the page's
//   tokenizer never makes one, as it splits "<" off on its own. A marker row is never checkable,
//   and a source position holding a marker never pairs.
// - Checkable. Output position t is checkable when exactly one source position j holds an English
//   token that pairs with target[t]. With none there is nothing to check; with two or more (German
//   "die" for both "the" of "the cat and the dog") the dictionary cannot say which one it
//   translates.
// - Aligned. A checkable t is aligned when the largest weight of row t lies at j; of equal largest
//   weights the first (smallest j) counts.
// - Diagonal guess. Position d(t) = round((t + 0.5) · n_src / n_tgt - 0.5), halves rounded up,
//   clamped to [0, n_src - 1]. This equals floor((2t + 1) · n_src / (2 · n_tgt)): lay both
//   sentences on [0, 1], and d(t) is the source cell that holds the middle of output cell t. It
//   is computed in whole numbers, so exactly. It is scored on the same checkable positions.
// - Score = aligned / checkable with both counts summed over all sentences (so a sentence weighs
//   by its checkable words, not 1); NaN when nothing is checkable.
//
// Tokens are compared exactly as given; readDictionary lower-cases the dictionary, and the page's
// tokenizer lower-cases the sentences.

import { checkTokens, describe } from './scoring-checks.js';

/**
 * @typedef {Map<string, Set<string>>} Dictionary  German word -> the English words it translates
 * @typedef {{ source: string[], target: string[], weights: ArrayLike<number> }} Sentence
 *   weights: target.length x source.length, row-major (a Float32Array from translate(text))
 * @typedef {{ pairIdentical?: boolean }} AlignmentOptions
 *   pairIdentical: a German token also pairs with the same English token when that holds a
 *   letter or a digit; false by default
 * @typedef {{ token: string, positions: number[], attended: number, diagonal: number }} AlignmentRow
 *   positions: the source positions whose token pairs with `token` (checkable when exactly one);
 *   attended: the position of the row's largest weight (the first of equal ones); diagonal: d(t);
 *   both -1 when the source is empty
 * @typedef {{
 *   checkable: number,
 *   aligned: number,
 *   score: number,
 *   diagonalAligned: number,
 *   diagonalScore: number,
 * }} AlignmentScore
 */

// A token with a letter or a digit in it: what pairIdentical may pair (punctuation never).
const WORDLIKE = /[\p{L}\p{N}]/u;

/**
 * Whether a token is a marker (end of sentence, unknown word, ...): written in angle brackets.
 * @param {string} token
 * @returns {boolean}
 */
export function isMarker(token) {
  return token.length > 2 && token.startsWith('<') && token.endsWith('>');
}

/**
 * The dictionary in a tab-separated text of lines `english<TAB>german`, as a map from each German
 * word to the English words it translates. Both fields are trimmed and lower-cased. A line is
 * skipped when it is blank, has other than exactly one tab, has an empty field, or has white
 * space inside a field (no single token could equal a phrase).
 * @param {string} tsvText
 * @returns {Dictionary}
 */
export function readDictionary(tsvText) {
  if (typeof tsvText !== 'string') {
    throw new TypeError(`readDictionary: tsvText must be a string, got ${describe(tsvText)}`);
  }
  /** @type {Dictionary} */
  const dictionary = new Map();
  for (const line of tsvText.split(/\r?\n/)) {
    const fields = line.split('\t');
    if (fields.length !== 2) continue;
    const [english, german] = fields.map((field) => field.trim().toLowerCase());
    if (english === '' || german === '' || /\s/u.test(english) || /\s/u.test(german)) continue;
    let words = dictionary.get(german);
    if (words === undefined) {
      words = new Set();
      dictionary.set(german, words);
    }
    words.add(english);
  }
  return dictionary;
}

/**
 * The diagonal guess d(t) for output position t of n_tgt over a source of n_src tokens (top of
 * the file): floor((2t + 1) · n_src / (2 · n_tgt)), the same as round((t + 0.5) · n_src / n_tgt
 * - 0.5) with halves rounded up, and always within [0, n_src - 1].
 * @param {number} t  0 <= t < nTarget
 * @param {number} nSource  >= 1
 * @param {number} nTarget  >= 1
 * @returns {number}
 */
export function diagonalPosition(t, nSource, nTarget) {
  for (const [name, value, least] of /** @type {const} */ ([
    ['t', t, 0],
    ['nSource', nSource, 1],
    ['nTarget', nTarget, 1],
  ])) {
    if (!Number.isSafeInteger(value) || value < least) {
      throw new RangeError(
        `diagonalPosition: ${name} must be a whole number >= ${least}, got ${describe(value)}`,
      );
    }
  }
  if (t >= nTarget) {
    throw new RangeError(
      `diagonalPosition: t = ${t} lies outside 0 .. nTarget - 1 = ${nTarget - 1}`,
    );
  }
  const numerator = (2 * t + 1) * nSource;
  const denominator = 2 * nTarget;
  // Whole-number division, exact where a float quotient could round up to the next integer.
  const d = (numerator - (numerator % denominator)) / denominator;
  return Math.min(nSource - 1, Math.max(0, d));
}

/**
 * Each output row of one sentence: which source positions pair with its token, where its largest
 * weight lies, and the diagonal guess. Row t is checkable when positions.length === 1.
 * @param {Sentence} sentence
 * @param {Dictionary} dictionary
 * @param {AlignmentOptions} [options]
 * @returns {AlignmentRow[]}
 */
export function alignmentRows(sentence, dictionary, options = {}) {
  const pairIdentical = checkOptions('alignmentRows', options);
  checkDictionary('alignmentRows', dictionary);
  checkSentence('alignmentRows', 'sentence', sentence);
  return rowsOf('alignmentRows', sentence, dictionary, pairIdentical);
}

/**
 * The alignment score of many sentences (the test split), with the counts summed over all of
 * them, and the diagonal guess's score on the same checkable words.
 * @param {Sentence[]} items
 * @param {Dictionary} dictionary
 * @param {AlignmentOptions} [options]
 * @returns {AlignmentScore}
 */
export function alignmentScore(items, dictionary, options = {}) {
  const pairIdentical = checkOptions('alignmentScore', options);
  checkDictionary('alignmentScore', dictionary);
  if (!Array.isArray(items)) {
    throw new TypeError(`alignmentScore: items must be an array, got ${describe(items)}`);
  }
  items.forEach((item, k) => checkSentence('alignmentScore', `items[${k}]`, item));

  let checkable = 0;
  let aligned = 0;
  let diagonalAligned = 0;
  for (const item of items) {
    const rows = rowsOf('alignmentScore', item, dictionary, pairIdentical);
    for (const { positions, attended, diagonal } of rows) {
      if (positions.length !== 1) continue;
      checkable += 1;
      if (attended === positions[0]) aligned += 1;
      if (diagonal === positions[0]) diagonalAligned += 1;
    }
  }
  return {
    checkable,
    aligned,
    score: checkable > 0 ? aligned / checkable : NaN,
    diagonalAligned,
    diagonalScore: checkable > 0 ? diagonalAligned / checkable : NaN,
  };
}

/**
 * The rows of a sentence already checked.
 * @param {string} fn
 * @param {Sentence} sentence
 * @param {Dictionary} dictionary
 * @param {boolean} pairIdentical
 * @returns {AlignmentRow[]}
 */
function rowsOf(fn, { source, target, weights }, dictionary, pairIdentical) {
  const nSource = source.length;
  return target.map((token, t) => {
    /** @type {number[]} */
    const positions = [];
    if (!isMarker(token)) {
      const english = dictionary.get(token);
      if (english !== undefined && !(english instanceof Set)) {
        throw new TypeError(
          `${fn}: dictionary entry ${JSON.stringify(token)} must be a Set of English words, ` +
            `got ${describe(english)}`,
        );
      }
      const identical = pairIdentical && WORDLIKE.test(token);
      source.forEach((word, j) => {
        if (isMarker(word)) return;
        if (english?.has(word) || (identical && word === token)) positions.push(j);
      });
    }
    let attended = -1;
    let largest = -Infinity;
    for (let j = 0; j < nSource; j++) {
      const w = weights[t * nSource + j];
      if (w > largest) {
        largest = w;
        attended = j;
      }
    }
    const diagonal = nSource > 0 ? diagonalPosition(t, nSource, target.length) : -1;
    return { token, positions, attended, diagonal };
  });
}

/**
 * @param {string} fn
 * @param {unknown} options
 * @returns {boolean}  pairIdentical
 */
function checkOptions(fn, options) {
  if (options === null || typeof options !== 'object') {
    throw new TypeError(`${fn}: options must be an object, got ${describe(options)}`);
  }
  const { pairIdentical = false } = /** @type {{ pairIdentical?: unknown }} */ (options);
  if (typeof pairIdentical !== 'boolean') {
    throw new TypeError(
      `${fn}: options.pairIdentical must be a boolean, got ${describe(pairIdentical)}`,
    );
  }
  return pairIdentical;
}

/**
 * @param {string} fn
 * @param {unknown} dictionary
 */
function checkDictionary(fn, dictionary) {
  if (!(dictionary instanceof Map)) {
    throw new TypeError(
      `${fn}: dictionary must be a Map from German words to Sets of English words ` +
        `(readDictionary makes one), got ${describe(dictionary)}`,
    );
  }
}

/**
 * @param {string} fn
 * @param {string} where  how the message names the sentence, e.g. "items[3]"
 * @param {unknown} sentence
 */
function checkSentence(fn, where, sentence) {
  if (sentence === null || typeof sentence !== 'object') {
    throw new TypeError(
      `${fn}: ${where} must be an object { source, target, weights }, got ${describe(sentence)}`,
    );
  }
  const { source, target, weights } =
    /** @type {{ source?: unknown, target?: unknown, weights?: unknown }} */ (sentence);
  checkTokens(fn, `${where}.source`, source);
  checkTokens(fn, `${where}.target`, target);
  const nSource = /** @type {string[]} */ (source).length;
  const nTarget = /** @type {string[]} */ (target).length;
  if (
    weights === null ||
    typeof weights !== 'object' ||
    typeof (/** @type {{ length?: unknown }} */ (weights).length) !== 'number'
  ) {
    throw new TypeError(
      `${fn}: ${where}.weights must be an array or typed array of numbers, got ${describe(weights)}`,
    );
  }
  const values = /** @type {ArrayLike<unknown>} */ (weights);
  if (values.length !== nTarget * nSource) {
    throw new RangeError(
      `${fn}: ${where}.weights has ${values.length} entries; target x source is ` +
        `${nTarget} x ${nSource} = ${nTarget * nSource}`,
    );
  }
  for (let k = 0; k < values.length; k++) {
    const w = values[k];
    const cell = `${fn}: ${where}.weights[${k}] (row ${Math.floor(k / nSource)}, column ${k % nSource})`;
    if (typeof w !== 'number') throw new TypeError(`${cell} must be a number, got ${describe(w)}`);
    if (!Number.isFinite(w)) throw new RangeError(`${cell} must be finite, got ${w}`);
  }
}
