// The numbers behind the multi-head widget: which head counts fit d_model, one multi-head
// self-attention call (projections seeded by shared/projection-seeds.js), and the parameter
// counts of one wide head and of h heads.
import { embedTokens } from '../../text/embed.js';
import { projectionSeeds } from '../shared/projection-seeds.js';

/** The most heads offered: more would make the small multiples too small to read. */
export const MAX_HEADS = 16;

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
 * Multi-head self-attention of the tokens (xq = xkv = X) with Glorot-uniform projections.
 * Shapes: X (n x d) from the word vectors; per head, weights (n x n); output (n x d).
 * @param {object} engine the facade: embed (word vectors loaded), glorotUniform, multiHeadAttention
 * @param {string[]} tokens
 * @param {number} heads a divisor of d_model
 * @param {number} seed
 * @returns {{ n: number, d: number, dk: number, heads: { weights: Float32Array }[],
 *   output: Float32Array, unknown: boolean[] }} unknown: per token, true when the vocabulary of
 *   word vectors does not hold it
 */
export function multiHead(engine, tokens, heads, seed) {
  const n = tokens.length;
  const { x, unknown, d } = embedTokens(engine, tokens);
  const [wq, wk, wv, wo] = projections(engine, d, seed);
  const result = engine.multiHeadAttention({
    ...{ xq: x, xkv: x, nq: n, nk: n, dModel: d, heads },
    ...{ wq, wk, wv, wo },
  });
  return { n, d, dk: d / heads, heads: result.heads, output: result.output, unknown };
}

/** The projections last drawn: they change with the seed only, not as the learner types. */
let drawn = { engine: null, d: 0, seed: -1, matrices: /** @type {Float32Array[]} */ ([]) };

/**
 * W_Q, W_K, W_V and W_O (each d x d, row-major), Glorot-uniform from the seed and the three after
 * it; made again only when the engine, d or the seed changes.
 * @param {object} engine the facade: glorotUniform
 * @param {number} d d_model
 * @param {number} seed
 * @returns {Float32Array[]}
 */
function projections(engine, d, seed) {
  if (drawn.engine !== engine || drawn.d !== d || drawn.seed !== seed) {
    const matrices = projectionSeeds(seed).map((s) => engine.glorotUniform(d, d, s));
    drawn = { engine, d, seed, matrices };
  }
  return drawn.matrices;
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
