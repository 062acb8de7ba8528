// The heatmap widget's numbers: how many tokens it shows, what the heatmap view is given, and
// the count above the figure. The attention itself is shared/self-attention.js.

/** The largest number of tokens the figure shows; longer text is cut, with a notice. */
export const MAX_TOKENS = 64;

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
