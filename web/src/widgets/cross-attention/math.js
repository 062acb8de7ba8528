// The numbers behind the cross-attention widget: which sentence asks and which answers in each
// mode, their word vectors, and one attention call with n_q queries against n_k keys, either with
// the word vectors as they are or through seeded projections W_Q, W_K, W_V.
import { embedTokens } from '../../text/embed.js';
import { projectionSeeds } from '../shared/projection-seeds.js';

/** The most tokens taken from each sentence; longer text is cut, with a notice. */
export const MAX_TOKENS = 16;

/**
 * Rows of attention weights must sum to 1; float32 softmax of a few dozen entries lands within a
 * few units of 1e-7 of it, so a row further off than this would mean a wrong result.
 */
export const ROW_SUM_TOLERANCE = 1e-5;

/**
 * @typedef {'a' | 'b'} Side one of the two sentences
 * @typedef {'cross' | 'self-a' | 'self-b'} Mode
 */

/**
 * The three wirings: where the queries come from, and where the keys and values come from.
 * @type {{ key: Mode, queries: Side, keys: Side }[]}
 */
export const MODES = [
  { key: 'cross', queries: 'a', keys: 'b' },
  { key: 'self-a', queries: 'a', keys: 'a' },
  { key: 'self-b', queries: 'b', keys: 'b' },
];

/**
 * @param {unknown} value what a slide or the saved state names
 * @returns {Mode} that mode when it is one, else 'cross'
 */
export function modeOf(value) {
  return MODES.find((mode) => mode.key === value)?.key ?? 'cross';
}

/**
 * @param {Mode} mode
 * @returns {{ queries: Side, keys: Side }} which sentence asks and which answers
 */
export function sidesOf(mode) {
  const { queries, keys } = MODES.find((m) => m.key === mode) ?? MODES[0];
  return { queries, keys };
}

/**
 * @typedef {object} CrossResult
 * @property {number} nq how many queries (rows of the weights)
 * @property {number} nk how many keys and values (columns), read back from the engine's weights
 * @property {number} d the width of a word vector (d_model = d_k = d_v here)
 * @property {number} dv the width of an output row, read back from the engine's output
 * @property {Float32Array} weights (nq, nk), row-major
 * @property {Float32Array} output (nq, dv), row-major: row i is what query i gathers
 * @property {boolean[]} unknownQueries per query token, true when the vocabulary lacks it
 * @property {boolean[]} unknownKeys per key token, the same
 * @property {number} rowError max_i |sum_j weights[i, j] - 1|
 */

/**
 * Attention of the query tokens over the key tokens: X_q (n_q, d) and X_kv (n_k, d) from the word
 * vectors. Without a seed, Q = X_q and K = V = X_kv; with one, Q = X_q W_Q, K = X_kv W_K and
 * V = X_kv W_V with Glorot-uniform W (d, d) drawn from the seed and the numbers after it (one head
 * of the engine's multi-head attention, so the engine does every product).
 * @param {{ embed: Function, attention: Function, glorotUniform: Function,
 *   multiHeadAttention: Function }} engine the facade, word vectors loaded
 * @param {string[]} queryTokens n_q >= 1 tokens, the rows
 * @param {string[]} keyTokens n_k >= 1 tokens, the columns
 * @param {number | null} seed null for no projections
 * @returns {CrossResult}
 */
export function crossAttention(engine, queryTokens, keyTokens, seed) {
  const nq = queryTokens.length;
  const keysIn = keyTokens.length;
  const queries = embedTokens(engine, queryTokens); // x: (n_q, d)
  const keys = embedTokens(engine, keyTokens); // x: (n_k, d)
  const d = queries.d;
  let weights;
  let output;
  if (seed === null) {
    ({ weights, output } = engine.attention({
      ...{ q: queries.x, k: keys.x, v: keys.x, nq, nk: keysIn, dk: d, dv: d },
      trace: false,
    }));
  } else {
    // W_O only mixes the heads' outputs, which a single head does not need; it is not shown.
    const [wq, wk, wv, wo] = projectionSeeds(seed).map((s) => engine.glorotUniform(d, d, s));
    const result = engine.multiHeadAttention({
      ...{ xq: queries.x, xkv: keys.x, nq, nk: keysIn, dModel: d, heads: 1 },
      ...{ wq, wk, wv, wo },
    });
    ({ weights, output } = result.heads[0]);
  }
  const nk = weights.length / nq;
  return {
    nq,
    nk,
    d,
    dv: output.length / nq,
    weights,
    output,
    unknownQueries: queries.unknown,
    unknownKeys: keys.unknown,
    rowError: rowSumError(weights, nq, nk),
  };
}

/**
 * @param {ArrayLike<number>} weights (rows, cols), row-major
 * @param {number} rows
 * @param {number} cols
 * @returns {number} the largest distance of a row's sum from 1
 */
export function rowSumError(weights, rows, cols) {
  let worst = 0;
  for (let i = 0; i < rows; i++) {
    let sum = 0;
    for (let j = 0; j < cols; j++) sum += weights[i * cols + j];
    worst = Math.max(worst, Math.abs(sum - 1));
  }
  return worst;
}
