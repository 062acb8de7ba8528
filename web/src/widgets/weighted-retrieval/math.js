// The numbers behind the weighted-retrieval widget: one decoder state s (a query word's vector)
// against the encoder states h_j (a sentence's word vectors), scored three ways by the engine
// (dot, general, additive) with seeded parameters, and, in the drag mode, weights and context
// from scores the learner sets by hand.
import { embedTokens } from '../../text/embed.js';
import { MAX_SEED } from '../shared/seed.js';

/** Width d_a of the additive score's hidden layer (the size of W_s s + W_h h_j). */
export const ATTENTION_WIDTH = 32;

/** The scoring functions, in the order the figure shows them. */
export const KINDS = /** @type {const} */ (['dot', 'general', 'additive']);

/** @typedef {(typeof KINDS)[number]} Kind */
/** @typedef {import('../../engine/index.js').Engine} Engine */

/**
 * @typedef {object} Retrieval what one scoring function gives
 * @property {Float32Array} scores (n) e_j
 * @property {Float32Array} weights (n) alpha_j = softmax(e)_j, summing to 1
 * @property {Float32Array} context (d) c = sum_j alpha_j h_j
 */

/**
 * The seeds of W (general), W_s, W_h and v (additive): the learner's seed and the three after it,
 * wrapping past the largest seed.
 * @param {number} seed
 * @returns {{ w: number, ws: number, wh: number, v: number }}
 */
export function parameterSeeds(seed) {
  const at = (k) => (seed + k) % (MAX_SEED + 1);
  return { w: at(0), ws: at(1), wh: at(2), v: at(3) };
}

/**
 * The learned parameters of the general and additive scores, drawn from the seed: W, W_s and W_h
 * Glorot-uniform, v unit-normal.
 * @param {Engine} engine
 * @param {number} d the width of s and of each h_j
 * @param {number} seed
 * @returns {{ w: Float32Array, ws: Float32Array, wh: Float32Array, v: Float32Array,
 *   da: number }} w: (d, d); ws: (d_a, d); wh: (d_a, d); v: (d_a)
 */
export function scoringParameters(engine, d, seed) {
  const da = ATTENTION_WIDTH;
  const seeds = parameterSeeds(seed);
  return {
    w: engine.glorotUniform(d, d, seeds.w),
    ws: engine.glorotUniform(da, d, seeds.ws),
    wh: engine.glorotUniform(da, d, seeds.wh),
    v: engine.unitNormal(da, 1, seeds.v),
    da,
  };
}

/**
 * The decoder state and the encoder states as word vectors.
 * @param {Engine} engine the facade, word vectors loaded
 * @param {string[]} tokens the source tokens, one encoder state each
 * @param {string} query the query word
 * @returns {{ s: Float32Array, h: Float32Array, n: number, d: number, unknown: boolean[],
 *   queryUnknown: boolean }} s: (d); h: (n, d), row j the vector of tokens[j]
 */
export function states(engine, tokens, query) {
  const { x: h, unknown, d } = embedTokens(engine, tokens);
  const { x: s, unknown: flags } = embedTokens(engine, [query]);
  return { s, h, n: tokens.length, d, unknown, queryUnknown: flags[0] };
}

/**
 * Scores the query against every source token with the dot, general and additive functions: the
 * same s and h_j for all three.
 * @param {Engine} engine the facade, word vectors loaded
 * @param {string[]} tokens
 * @param {string} query
 * @param {number} seed
 * @returns {{ n: number, d: number, unknown: boolean[], queryUnknown: boolean,
 *   results: Record<Kind, Retrieval> }} each result: scores (n), weights (n), context (d)
 */
export function compareScores(engine, tokens, query, seed) {
  const { s, h, n, d, unknown, queryUnknown } = states(engine, tokens, query);
  const { w, ws, wh, v, da } = scoringParameters(engine, d, seed);
  const base = { s, h, n, ds: d, dh: d };
  const results = {
    dot: engine.score({ kind: 'dot', ...base }),
    general: engine.score({ kind: 'general', ...base, w }),
    additive: engine.score({ kind: 'additive', ...base, ws, wh, v, da }),
  };
  return { n, d, unknown, queryUnknown, results };
}

/**
 * Weights and context from scores set by hand: alpha = softmax(e) by the engine's softmax, and c
 * by the engine's attention with the scores as the one query row and the identity as the keys
 * (so Q K^T = e exactly, no scaling) and the encoder states as the values: c = softmax(e) H.
 * @param {Engine} engine the facade, word vectors loaded
 * @param {string[]} tokens the source tokens
 * @param {number[]} scores (n) e_j, one per token
 * @returns {Retrieval & { n: number, d: number, unknown: boolean[] }} scores (n), weights (n),
 *   context (d)
 */
export function dragScores(engine, tokens, scores) {
  const n = tokens.length;
  if (scores.length !== n) throw new Error(`${scores.length} scores for ${n} tokens`);
  const { x: h, unknown, d } = embedTokens(engine, tokens);
  const e = Float32Array.from(scores);
  const weights = engine.softmax(e, 1, n);
  const identity = new Float32Array(n * n);
  for (let j = 0; j < n; j++) identity[j * n + j] = 1;
  const { output } = engine.attention({
    ...{ q: e, k: identity, v: h, nq: 1, nk: n, dk: n, dv: d },
    ...{ scale: false, trace: false },
  });
  return { n, d, unknown, scores: e, weights, context: output };
}

/**
 * The sum of the weights, added up in double precision from the engine's float32 numbers.
 * @param {ArrayLike<number>} weights (n)
 * @returns {number}
 */
export function weightSum(weights) {
  let sum = 0;
  for (let j = 0; j < weights.length; j++) sum += weights[j];
  return sum;
}

/**
 * Hand-set scores for n tokens: the ones kept so far, by position, then zeros; each clamped to
 * [lo, hi] and made a number.
 * @param {unknown} kept what the state held
 * @param {number} n
 * @param {number} lo
 * @param {number} hi
 * @returns {number[]} (n)
 */
export function fitScores(kept, n, lo, hi) {
  const list = Array.isArray(kept) ? kept : [];
  return Array.from({ length: n }, (_, j) => {
    const value = Number(list[j]);
    return Number.isFinite(value) ? Math.min(hi, Math.max(lo, value)) : 0;
  });
}
