// The numbers behind the query-key-value widget: X from the word vectors, the projections W_Q,
// W_K and W_V (the identity, or Glorot-uniform from a seed), Q = X W_Q, K = X W_K, V = X W_V and
// the scores Q K^T. Every product is the engine's; this file only arranges arrays for it.
import { embedTokens } from '../../text/embed.js';
import { projectionSeeds } from '../shared/projection-seeds.js';

/** The widths d_k offered for seeded projections. */
export const DK_CHOICES = [4, 8, 16];

/** The projection kinds: W = I (so Q = K = V = X), or seeded Glorot-uniform matrices. */
export const KINDS = /** @type {const} */ (['identity', 'random']);

/**
 * @typedef {object} Projected
 * @property {number} n tokens
 * @property {number} d d_model, the width of a word vector
 * @property {number} dk the width of the queries, keys and values
 * @property {'identity' | 'random'} kind
 * @property {Float32Array} x X (n, d)
 * @property {boolean[]} unknown per token, whether the vocabulary lacks it
 * @property {Float32Array[]} w [W_Q, W_K, W_V], each (d, dk); one shared array for the identity
 * @property {number[]} seeds the seeds W_Q, W_K and W_V were drawn from; none for the identity
 * @property {Float32Array} q Q = X W_Q (n, dk)
 * @property {Float32Array} k K = X W_K (n, dk)
 * @property {Float32Array} v V = X W_V (n, dk)
 * @property {Float32Array} scores Q K^T (n, n)
 */

/**
 * The tokens' queries, keys, values and scores.
 * @param {{ embed: Function, attention: Function, glorotUniform: Function }} engine the facade,
 *   word vectors loaded
 * @param {string[]} tokens n >= 1
 * @param {{ kind: 'identity' | 'random', seed: number, dk: number }} projection for 'random',
 *   W_Q, W_K, W_V come from the seed and the two after it
 * @returns {Projected}
 */
export function queryKeyValue(engine, tokens, { kind, seed, dk }) {
  const { x, unknown, d } = embedTokens(engine, tokens);
  const n = tokens.length;
  const common = { n, d, kind, x, unknown };
  if (kind === 'identity') {
    // X I = X: the three projections are the identity, so Q, K and V are X itself.
    const eye = identity(d);
    const w = [eye, eye, eye];
    return {
      ...common,
      dk: d,
      w,
      seeds: [],
      q: x,
      k: x,
      v: x,
      scores: scores(engine, x, x, n, d),
    };
  }
  const seeds = projectionSeeds(seed).slice(0, 3);
  const w = seeds.map((s) => engine.glorotUniform(d, dk, s));
  const [q, k, v] = w.map((matrix) => project(engine, x, n, d, matrix, dk));
  return { ...common, dk, w, seeds, q, k, v, scores: scores(engine, q, k, n, dk) };
}

/**
 * X W from the engine. The facade has no plain matrix product, but attention's trace holds
 * scores = q k^T: with q = X and k = W^T (rows of W^T are the columns of W) that is X W. The values
 * (dk, 1) are zeros, and only the scores are read.
 * @param {{ attention: Function }} engine
 * @param {Float32Array} x (n, d)
 * @param {number} n
 * @param {number} d
 * @param {Float32Array} w (d, dk)
 * @param {number} dk
 * @returns {Float32Array} X W (n, dk)
 */
export function project(engine, x, n, d, w, dk) {
  const k = transpose(w, d, dk);
  const v = new Float32Array(dk);
  return engine.attention({ q: x, k, v, nq: n, nk: dk, dk: d, dv: 1 }).scores;
}

/**
 * The scores Q K^T, from the engine's attention trace (the values, unused, are the keys).
 * @param {{ attention: Function }} engine
 * @param {Float32Array} q (n, dk)
 * @param {Float32Array} k (n, dk)
 * @param {number} n
 * @param {number} dk
 * @returns {Float32Array} (n, n), row i for query i, column j for key j
 */
function scores(engine, q, k, n, dk) {
  return engine.attention({ q, k, v: k, nq: n, nk: n, dk, dv: dk }).scores;
}

/**
 * The identity matrix (no arithmetic: ones on the diagonal).
 * @param {number} d
 * @returns {Float32Array} (d, d)
 */
export function identity(d) {
  const eye = new Float32Array(d * d);
  for (let i = 0; i < d; i++) eye[i * d + i] = 1;
  return eye;
}

/**
 * The same numbers with rows and columns swapped (no arithmetic).
 * @param {ArrayLike<number>} m (rows, cols), row-major
 * @param {number} rows
 * @param {number} cols
 * @returns {Float32Array} (cols, rows)
 */
export function transpose(m, rows, cols) {
  const out = new Float32Array(rows * cols);
  for (let i = 0; i < rows; i++) for (let j = 0; j < cols; j++) out[j * rows + i] = m[i * cols + j];
  return out;
}

/**
 * The pairs whose products make up score (i, j) = q_i . k_j: the first `count` entries of row i of
 * Q and of row j of K, as the figure writes them out (read, not multiplied).
 * @param {Projected} result
 * @param {number} i query row
 * @param {number} j key row
 * @param {number} count at most this many pairs
 * @returns {[number, number][]} [q_i,c, k_j,c] for c = 0, 1, ...
 */
export function leadingTerms(result, i, j, count) {
  const { q, k, dk } = result;
  return Array.from({ length: Math.min(count, dk) }, (_, c) => [q[i * dk + c], k[j * dk + c]]);
}
