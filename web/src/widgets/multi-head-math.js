// The numbers behind the multi-head widget: which head counts fit d_model, the seeded projections,
// one multi-head self-attention call, and the parameter counts of one wide head and of h heads.
import { tokenMatrix } from './token-matrix.js';

/** The most heads offered: more would make the small multiples too small to read. */
export const MAX_HEADS = 16;

/** The largest seed the engine accepts. */
export const MAX_SEED = 4294967295;

/**
 * @param {number} d d_model
 * @returns {number[]} the divisors of d up to MAX_HEADS, ascending: the head counts on offer
 */
export function headChoices(d) {
  const found = [];
  for (let h = 1; h <= Math.min(d, MAX_HEADS); h++) if (d % h === 0) found.push(h);
  return found;
}

/**
 * The seeds of W_Q, W_K, W_V and W_O: the learner's seed and the three after it (wrapping).
 * @param {number} seed
 * @returns {number[]}
 */
export function projectionSeeds(seed) {
  return [0, 1, 2, 3].map((k) => (seed + k) % (MAX_SEED + 1));
}

/**
 * Multi-head self-attention of the tokens (xq = xkv = X) with Glorot-uniform projections.
 * @param {object} engine the facade: embed (word vectors loaded), glorotUniform, multiHeadAttention
 * @param {string[]} tokens
 * @param {number} heads a divisor of d_model
 * @param {number} seed
 * @returns {{ n: number, d: number, dk: number, heads: { weights: Float32Array }[],
 *   output: Float32Array }}
 */
export function multiHead(engine, tokens, heads, seed) {
  const { x, n, d } = tokenMatrix(engine, tokens);
  const [wq, wk, wv, wo] = projectionSeeds(seed).map((s) => engine.glorotUniform(d, d, s));
  const result = engine.multiHeadAttention({
    ...{ xq: x, xkv: x, nq: n, nk: n, dModel: d, heads },
    ...{ wq, wk, wv, wo },
  });
  return { n, d, dk: d / heads, heads: result.heads, output: result.output };
}

/**
 * Parameter counts (weights only, no biases) of one head of width d_model and of h heads of
 * width d_k = d_model / h; W_O (d_model x d_model) is the same in both.
 * @param {number} d d_model
 * @param {number} h
 * @returns {{ dk: number, wo: number, one: number, split: number }}
 */
export function parameterCounts(d, h) {
  const dk = d / h;
  const wo = d * d;
  return { dk, wo, one: 3 * d * d + wo, split: h * 3 * d * dk + wo };
}
