// Self-attention of a sentence with itself, as the heatmap widget shows it: tokens -> pre-trained
// word vectors X -> attention with Q = K = V = X (identity projections) -> the weights.
import { embedTokens } from '../../text/embed.js';

/** The largest number of tokens the figure shows; longer text is cut, with a notice. */
export const MAX_TOKENS = 64;

/** The most unknown tokens named in the line under the figure. */
const MAX_LISTED = 8;

/**
 * @typedef {object} SelfAttentionResult
 * @property {number} n tokens
 * @property {number} d the width of a word vector
 * @property {Float32Array} x (n, d) the word vectors, row-major
 * @property {Float32Array} weights (n, n) softmax(X Xᵀ / √d), masked if causal; row i: what
 *   token i attends to
 * @property {Float32Array} output (n, d) weights · X; row i: token i's new vector
 * @property {boolean[]} unknown (n) true where the vocabulary does not hold the token
 */

/**
 * @param {{ embed: Function, attention: Function }} engine the facade, word vectors loaded
 * @param {string[]} tokens (n) n >= 1
 * @param {boolean} causal
 * @returns {SelfAttentionResult}
 */
export function selfAttention(engine, tokens, causal) {
  const n = tokens.length;
  const { x, unknown, d } = embedTokens(engine, tokens);
  const { weights, output } = engine.attention({
    q: x,
    k: x,
    v: x,
    nq: n,
    nk: n,
    dk: d,
    dv: d,
    causal,
    trace: false,
  });
  return { n, d, x, weights, output, unknown };
}

/**
 * Everything the heatmap view needs to draw the weights of `tokens`.
 * @param {string[]} tokens
 * @param {ArrayLike<number>} weights
 * @param {boolean} causal
 * @param {boolean[]} [unknown] per token, true when the vocabulary does not hold it
 * @returns {import('../../views/heatmap/index.js').HeatmapData}
 */
export function heatmapData(tokens, weights, causal, unknown = []) {
  const n = tokens.length;
  const masked = Array.from(
    { length: n * n },
    (_, index) => causal && index % n > Math.floor(index / n),
  );
  return {
    rowLabels: tokens,
    colLabels: tokens,
    values: weights,
    masked,
    unknownRows: unknown,
    unknownCols: unknown,
    rowName: 'query',
    colName: 'key',
    caption:
      `Self-attention weights, ${n} by ${n}${causal ? ', causal mask on' : ''}. ` +
      'Rows are queries (the token that looks), columns are keys (the token looked at); ' +
      'each row sums to 1.',
  };
}

/**
 * The short line above the figure, e.g. "11 tokens, causal mask on".
 * @param {number} n
 * @param {boolean} causal
 */
export function countText(n, causal) {
  return `${n} ${n === 1 ? 'token' : 'tokens'}${causal ? ', causal mask on' : ''}`;
}

/**
 * The line under the figure that names the tokens outside the vocabulary, or '' for none.
 * @param {string[]} tokens
 * @param {boolean[]} unknown
 * @returns {string}
 */
export function unknownText(tokens, unknown) {
  const words = [...new Set(tokens.filter((_, i) => unknown[i]))];
  if (words.length === 0) return '';
  const shown = words.slice(0, MAX_LISTED).map((word) => `\u201c${word}\u201d`);
  const more = words.length - shown.length;
  const list = more > 0 ? `${shown.join(', ')} and ${more} more` : shown.join(', ');
  const each = words.length === 1 ? 'It gets' : 'Each gets';
  return (
    `Not in the vocabulary (italic, dotted underline): ${list}. ` +
    `${each} a stand-in vector of its own, the same every time but with no meaning.`
  );
}
