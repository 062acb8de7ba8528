// The cross-attention widget's wording: titles, the line of shapes read from the engine's result,
// the note on the grid's shape and on unknown words, the heatmap's axis names and caption, and the
// prompts for missing input. Plain strings only, each read from the sides the figure's mode wires
// (math.js: sidesOf), worked out once by the widget and passed in.
import { ROW_SUM_TOLERANCE } from './math.js';

/** @typedef {{ queries: import('./math.js').Side, keys: import('./math.js').Side }} Sides */

const TIMES = '\u00d7';

/**
 * @param {import('./math.js').Side} side
 * @returns {string} 'A' or 'B'
 */
export const letterOf = (side) => side.toUpperCase();

/**
 * @param {number} n
 * @returns {string} '1 token', '6 tokens'
 */
export function tokenCount(n) {
  return `${n} ${n === 1 ? 'token' : 'tokens'}`;
}

/**
 * @param {Sides} sides which sentence asks and which answers (sidesOf)
 * @returns {string} the figure's title
 */
export function titleText({ queries, keys }) {
  return queries === keys
    ? `Self-attention of sentence ${letterOf(queries)}`
    : `Cross-attention: sentence ${letterOf(queries)} asks, sentence ${letterOf(keys)} answers`;
}

/**
 * The line of shapes, e.g. 'Queries: 6 tokens of sentence A; keys and values: 7 tokens of
 * sentence B; weights 6 × 7, each row sums to 1.'
 * @param {Sides} sides which sentence asks and which answers (sidesOf)
 * @param {{ nq: number, nk: number, rowError: number }} result read from the engine's output
 * @returns {string}
 */
export function shapesText({ queries, keys }, { nq, nk, rowError }) {
  const of = (n, side) => `${tokenCount(n)} of sentence ${letterOf(side)}`;
  const sources =
    queries === keys
      ? `Queries, keys and values: ${of(nq, queries)}`
      : `Queries: ${of(nq, queries)}; keys and values: ${of(nk, keys)}`;
  const rows =
    rowError <= ROW_SUM_TOLERANCE
      ? 'each row sums to 1'
      : `rows miss a sum of 1 by up to ${rowError.toExponential(1)}`;
  return `${sources}; weights ${nq} ${TIMES} ${nk}, ${rows}.`;
}

/**
 * @param {number} nq
 * @param {number} nk
 * @returns {string} e.g. 'Rectangle, 6 × 7:'
 */
export function shapeName(nq, nk) {
  return `${nq === nk ? 'Square' : 'Rectangle'}, ${nq} ${TIMES} ${nk}:`;
}

/**
 * Why the grid has its shape, after shapeName.
 * @param {Sides} sides which sentence asks and which answers (sidesOf)
 * @param {number} nq
 * @param {number} nk
 * @returns {string}
 */
export function shapeNote({ queries, keys }, nq, nk) {
  if (queries === keys) return 'self-attention always is: each token is a query and a key.';
  if (nq !== nk) return 'cross-attention need not be square.';
  return `only by chance (${tokenCount(nq)} each); add a word to get a rectangle.`;
}

/** The most unknown tokens named in the note. */
const MAX_LISTED = 6;

/**
 * The sentence that names the tokens outside the vocabulary, or '' for none.
 * @param {string[]} tokens
 * @param {ArrayLike<boolean>} unknown per token
 * @returns {string}
 */
export function unknownNote(tokens, unknown) {
  const words = [...new Set(tokens.filter((_, i) => unknown[i]))];
  if (words.length === 0) return '';
  const shown = words.slice(0, MAX_LISTED).map((word) => `\u201c${word}\u201d`);
  const more = words.length - shown.length;
  const list = more > 0 ? `${shown.join(', ')} and ${more} more` : shown.join(', ');
  const stand = words.length === 1 ? 'it gets a stand-in vector' : 'each gets a stand-in vector';
  return `Not in the vocabulary (dotted underline): ${list}; ${stand} with no meaning.`;
}

/**
 * What a row and a column are, e.g. 'A query' and 'B key'.
 * @param {Sides} sides which sentence asks and which answers (sidesOf)
 * @returns {{ rowName: string, colName: string }}
 */
export function axisNames({ queries, keys }) {
  return { rowName: `${letterOf(queries)} query`, colName: `${letterOf(keys)} key` };
}

/**
 * The one-line description of the heatmap, for screen readers and its table.
 * @param {Sides} sides which sentence asks and which answers (sidesOf)
 * @param {number} nq
 * @param {number} nk
 * @returns {string}
 */
export function captionText({ queries, keys }, nq, nk) {
  const [q, k] = [letterOf(queries), letterOf(keys)];
  const kind =
    queries === keys ? `Self-attention weights of sentence ${q}` : 'Cross-attention weights';
  return (
    `${kind}, ${nq} by ${nk}. Rows are the queries (tokens of sentence ${q}), columns the keys ` +
    `(tokens of sentence ${k}); each row sums to 1.`
  );
}

/**
 * The line above the grid that says what rows and columns are.
 * @param {Sides} sides which sentence asks and which answers (sidesOf)
 * @returns {string}
 */
export function axesText({ queries, keys }) {
  return (
    `Rows: the tokens of sentence ${letterOf(queries)} (queries). ` +
    `Columns: the tokens of sentence ${letterOf(keys)} (keys).`
  );
}

/**
 * The friendly prompt when a sentence the mode needs is empty, or ''.
 * @param {Sides} sides which sentence asks and which answers (sidesOf)
 * @param {{ a: number, b: number }} counts tokens in each sentence
 * @returns {string}
 */
export function promptText({ queries, keys }, counts) {
  const missing = [...new Set([queries, keys])].filter((side) => counts[side] === 0);
  if (missing.length === 2) return 'Type both sentences: A asks, B answers.';
  if (missing.length === 0) return '';
  const side = missing[0];
  if (queries === keys) return `Type sentence ${letterOf(side)} to see it attend to itself.`;
  const role =
    side === queries ? 'its tokens ask (the queries)' : 'its tokens answer (the keys and values)';
  return `Type sentence ${letterOf(side)}: ${role}.`;
}

/**
 * The notice for a sentence cut to the first `max` tokens, or ''.
 * @param {import('./math.js').Side} side
 * @param {number} total
 * @param {number} max
 * @returns {string}
 */
export function cutText(side, total, max) {
  return total > max
    ? `Sentence ${letterOf(side)}: showing the first ${max} of ${total} tokens.`
    : '';
}
