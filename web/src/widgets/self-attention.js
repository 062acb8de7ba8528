// Self-attention of a sentence with itself, as the heatmap widget shows it: tokens -> placeholder
// vectors X -> attention with Q = K = V = X (identity projections) -> the weights.
import { EMBED_DIM, embedTokens } from '../text/embed.js';

/** The largest number of tokens the figure shows; longer text is cut, with a notice. */
export const MAX_TOKENS = 64;

/**
 * @param {{ unitNormal: Function, attention: Function }} engine
 * @param {string[]} tokens
 * @param {boolean} causal
 * @returns {Float32Array} the n x n attention weights, row-major
 */
export function selfAttention(engine, tokens, causal) {
  const n = tokens.length;
  const x = embedTokens(
    tokens,
    (rows, cols, seed) => engine.unitNormal(rows, cols, seed),
    EMBED_DIM,
  );
  const { weights } = engine.attention({
    q: x,
    k: x,
    v: x,
    nq: n,
    nk: n,
    dk: EMBED_DIM,
    dv: EMBED_DIM,
    causal,
    trace: false,
  });
  return weights;
}

/**
 * Everything the heatmap view needs to draw the weights of `tokens`.
 * @param {string[]} tokens
 * @param {ArrayLike<number>} weights
 * @param {boolean} causal
 * @returns {import('../views/heatmap/index.js').HeatmapData}
 */
export function heatmapData(tokens, weights, causal) {
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
