// Self-attention of a sentence with itself: tokens -> pre-trained word vectors X -> attention
// with Q = K = V = X (identity projections) -> the weights. The heatmap widget draws it; the
// self-attention pair widget compares two sentences with it.
import { embedTokens } from '../../text/embed.js';

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
