// The numbers behind the position widget: a seeded shuffle of the tokens, self-attention of the
// shuffled and of the original order (with or without positional encodings), and how far the
// shuffled outputs are from the original outputs put in the shuffled order.
import { tokenMatrix } from '../shared/token-matrix.js';

/**
 * Below this, outputs "match": float32 rounding of sums taken in another order stays far below
 * it for outputs of this size (a few units), while a real change is orders of magnitude above it.
 */
export const MATCH_TOLERANCE = 1e-5;

/**
 * A permutation of 0..n-1 from the engine's seeded numbers (the order of n normal draws), never
 * the one given as `avoid` (the order on show) when n > 1.
 * @param {{ unitNormal: Function }} engine
 * @param {number} n
 * @param {number} seed
 * @param {number[]} avoid
 * @returns {number[]} order[i] = the original index of the token now at position i
 */
export function shuffledOrder(engine, n, seed, avoid) {
  const draws = engine.unitNormal(1, n, seed);
  const order = Array.from({ length: n }, (_, i) => i).sort((a, b) => draws[a] - draws[b]);
  const same = order.every((k, i) => k === avoid[i]);
  return same && n > 1 ? [...order.slice(1), order[0]] : order;
}

/**
 * Row i of the result is row order[i] of `rows` (that is, P * rows).
 * @param {ArrayLike<number>} rows (n, d), row-major
 * @param {number[]} order
 * @param {number} d
 * @returns {Float32Array}
 */
export function permuteRows(rows, order, d) {
  const out = new Float32Array(order.length * d);
  order.forEach((k, i) => out.set(Array.prototype.slice.call(rows, k * d, (k + 1) * d), i * d));
  return out;
}

/**
 * Self-attention with Q = K = V = the input (no projections), as the lesson's heatmap uses it.
 * @param {{ attention: Function }} engine
 * @param {Float32Array} input (n, d)
 * @param {number} n
 * @param {number} d
 * @returns {Float32Array} the output (n, d)
 */
export function selfAttend(engine, input, n, d) {
  const args = { q: input, k: input, v: input, nq: n, nk: n, dk: d, dv: d, trace: false };
  return engine.attention(args).output;
}

/**
 * @param {object} engine the facade: embed (word vectors loaded), positionalEncoding, attention
 * @param {string[]} tokens in their original order
 * @param {number[]} order the order on show
 * @param {boolean} withEncoding whether PE is added to each row after the shuffle
 * @returns {{ n: number, d: number, output: Float32Array, encoding: Float32Array,
 *   difference: number }} the outputs in the order on show, PE (n, d), and
 *   max |out_shuffled - P out|
 */
export function checkEquivariance(engine, tokens, order, withEncoding) {
  const { x, n, d } = tokenMatrix(engine, tokens);
  const encoding = engine.positionalEncoding(n, d);
  const encode = (rows) => (withEncoding ? rows.map((value, k) => value + encoding[k]) : rows);
  const original = selfAttend(engine, encode(x), n, d);
  const output = selfAttend(engine, encode(permuteRows(x, order, d)), n, d);
  const expected = permuteRows(original, order, d);
  let difference = 0;
  for (let k = 0; k < output.length; k++) {
    difference = Math.max(difference, Math.abs(output[k] - expected[k]));
  }
  return { n, d, output, encoding, difference };
}
