// The words every figure of a translator writes, from the models' reports (through `info`) and
// from one translation: BLEU by English length, the notes on English words the models cannot
// read and on a cut text, the unknown German word, and what each decoder step wrote. Pure
// functions, so tests check them without a page.
import { GERMAN_UNKNOWN } from '../../engine/translator.js';

/** The most unknown English words named in a line. */
const MAX_LISTED = 6;

/** The mark a subword piece begins with when it begins a word (SentencePiece's U+2581). */
const WORD_START = '\u2581';

/**
 * @typedef {import('../../engine/index.js').TranslatorInfo} TranslatorInfo
 * @typedef {import('../../engine/index.js').Translation} Translation
 */

/**
 * @param {{ from: number, to: number | null }} bucket
 * @returns {string} e.g. '6–10' or '31+'
 */
export function bucketName({ from, to }) {
  return to === null ? `${from}+` : `${from}\u2013${to}`;
}

/**
 * Each model's BLEU by English length, from the reports, which must have scored them on the same
 * test pairs in the same buckets.
 * @param {TranslatorInfo[]} infos
 * @returns {{ names: string[], series: number[][], testPairs: number }} the buckets' names, one
 *   series per model in the order given, and how many test pairs they were scored on
 */
export function bleuBuckets(infos) {
  const [first, ...others] = infos;
  const buckets = first.bleu.buckets;
  const testPairs = first.bleu.overall.sentences;
  for (const info of others) {
    const other = info.bleu.buckets;
    if (other.length !== buckets.length || other.some((b, i) => b.from !== buckets[i].from)) {
      throw new Error('the models were scored on different length buckets');
    }
    if (info.bleu.overall.sentences !== testPairs) {
      throw new Error('the models were scored on different test pairs');
    }
  }
  return {
    names: buckets.map(bucketName),
    series: infos.map((info) => info.bleu.buckets.map((b) => b.bleu)),
    testPairs,
  };
}

/**
 * The line naming the English words outside the word vectors, or '' for none.
 * @param {string[]} source
 * @param {boolean[]} known
 * @returns {string}
 */
export function unknownSourceText(source, known) {
  const words = [...new Set(source.filter((_, j) => !known[j]))];
  if (words.length === 0) return '';
  const shown = words.slice(0, MAX_LISTED).map((word) => `\u201c${word}\u201d`);
  const more = words.length - shown.length;
  const list = more > 0 ? `${shown.join(', ')} and ${more} more` : shown.join(', ');
  return (
    `Not in the English vocabulary (italic, dotted underline): ${list}. The models read every ` +
    'such word as the same unknown-word vector, so they cannot translate it.'
  );
}

/**
 * @param {Translation} translation
 * @returns {string} '' or the line saying how much of a long text the models read
 */
export function droppedText(translation) {
  if (translation.dropped === 0) return '';
  const total = translation.source.length + translation.dropped;
  return `The models read the first ${translation.source.length} of ${total} tokens.`;
}

/**
 * @param {Translation} translation
 * @returns {string} the notes under a translation: its unknown English words and a cut text
 */
export function sourceNotesText(translation) {
  const unknown = unknownSourceText(translation.source, translation.known);
  return [unknown, droppedText(translation)].filter(Boolean).join(' ');
}

/**
 * @param {string[]} target
 * @returns {boolean[]} per German word: it is the unknown-word token
 */
export function unknownTargets(target) {
  return target.map((word) => word === GERMAN_UNKNOWN);
}

/**
 * What each decoder step wrote: one entry per id the model wrote (a whole word, or a piece of
 * one). `text` is what to show (the piece without its word-start mark, or for <unk> the English
 * word copied in its place), `word` the German word it is part of, and `joins` whether it
 * continues the word of the step before.
 * @param {Translation} translation
 * @returns {Array<{ text: string, word: number, joins: boolean, unknown: boolean }>}
 */
export function stepsOf(translation) {
  const { text, firstPiece } = translation.pieces;
  return text.map((piece, t) => {
    let word = 0;
    while (firstPiece[word + 1] <= t) word++;
    const unknown = piece === GERMAN_UNKNOWN;
    const copy = translation.copied[word];
    return {
      text: unknown && copy >= 0 ? translation.source[copy] : piece.replace(WORD_START, ''),
      word,
      joins: firstPiece[word] !== t,
      unknown,
    };
  });
}
