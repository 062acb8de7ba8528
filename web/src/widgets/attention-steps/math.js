// The numbers behind the attention-steps widget: the five steps of scaled dot-product attention,
// the optional [pad] tokens and their padding mask, and one engine call that returns the whole
// trace for a sentence's word vectors X, with Q = K = V = X (as in shared/self-attention.js).
import { embedTokens } from '../../text/embed.js';

/** The most tokens of the sentence used (16 with padding); longer text is cut, with a notice. */
export const MAX_TOKENS = 12;

/** The label of a padding token. */
export const PAD = '[pad]';

/** With padding on, the sequence is padded up to a multiple of this length. */
export const PAD_MULTIPLE = 4;

/**
 * @typedef {'scores' | 'scaled' | 'masked' | 'weights' | 'output'} StepKey
 * @typedef {{ key: StepKey, name: string, title: string, said: string }} Step
 */

/**
 * The steps of softmax(QK^T / sqrt(d_k) + M) V, in order: `key` names the engine's trace field
 * that each one shows, `name` is its button, `title` heads its figure and `said` is the title in
 * words, for screen readers.
 * @type {readonly Step[]}
 */
export const STEPS = Object.freeze([
  {
    key: 'scores',
    name: 'Scores',
    title: 'Raw scores QK\u1d40',
    said: 'raw scores, Q times K transposed',
  },
  {
    key: 'scaled',
    name: 'Scale',
    title: 'Scaled scores QK\u1d40 / \u221ad\u2096',
    said: 'scaled scores, divided by the square root of d k',
  },
  {
    key: 'masked',
    name: 'Mask',
    title: 'Masked scores QK\u1d40 / \u221ad\u2096 + M',
    said: 'masked scores, the mask M added',
  },
  {
    key: 'weights',
    name: 'Softmax',
    title: 'Weights: softmax of each row',
    said: 'weights, the softmax of each row',
  },
  {
    key: 'output',
    name: '\u00d7 V',
    title: 'Output: weights \u00d7 V',
    said: 'output, the weights times V',
  },
]);

/**
 * A step number from anything (a prop, saved state): a whole number from 1 to STEPS.length, or
 * `fallback` when the value is not one.
 * @param {unknown} value
 * @param {number} [fallback]
 * @returns {number}
 */
export function stepNumber(value, fallback = 1) {
  const n = Number(value);
  return Number.isInteger(n) && n >= 1 && n <= STEPS.length ? n : fallback;
}

/**
 * The padded length of a sequence of n tokens: the next multiple of PAD_MULTIPLE above n, so
 * there is always at least one [pad] to see.
 * @param {number} n n >= 0
 * @returns {number} m, with n < m <= n + PAD_MULTIPLE and m % PAD_MULTIPLE === 0
 */
export function paddedLength(n) {
  return (Math.floor(n / PAD_MULTIPLE) + 1) * PAD_MULTIPLE;
}

/**
 * Appends zero rows to a row-major matrix: the [pad] tokens' vectors.
 * x: (n, d) -> (m, d), rows n..m-1 all 0.
 * @param {Float32Array} x (n, d)
 * @param {number} m the rows wanted, m >= n
 * @param {number} d the width of a row
 * @returns {Float32Array} (m, d)
 */
export function padRows(x, m, d) {
  const out = new Float32Array(m * d);
  out.set(x);
  return out;
}

/**
 * @typedef {object} AttentionSteps
 * @property {string[]} tokens the sentence's tokens, then the [pad] tokens if any (m in all)
 * @property {boolean[]} unknown per token, true when the vocabulary lacks it ([pad]: false)
 * @property {boolean[]} padded per token, true for a [pad]
 * @property {number} n the sentence's tokens
 * @property {number} m every token, pads included
 * @property {number} d d_k = d_v, the width of a word vector
 * @property {boolean} causal
 * @property {{ scores: Float32Array, scaled: Float32Array, masked: Float32Array,
 *   weights: Float32Array, output: Float32Array }} trace scores, scaled, masked and weights are
 *   (m, m); output is (m, d); masked holds -Infinity where a mask hides a key
 */

/**
 * Scaled dot-product self-attention of the tokens with its whole trace: X from the word vectors
 * (a [pad] is a row of zeros), Q = K = V = X, an optional causal mask, and with padding the key
 * padding mask, so that no query attends to a [pad].
 * X: (m, d); Q K^T: (m, m); output: (m, d).
 * @param {{ embed: (tokens: string[]) => { vectors: Float32Array, known: Uint8Array, d: number },
 *   attention: Function }} engine the facade, word vectors loaded
 * @param {string[]} words the sentence's tokens, at least one
 * @param {{ causal: boolean, padding: boolean }} options
 * @returns {AttentionSteps}
 */
export function attentionSteps(engine, words, { causal, padding }) {
  const n = words.length;
  const m = padding ? paddedLength(n) : n;
  const embedded = embedTokens(engine, words);
  const d = embedded.d;
  const x = padRows(embedded.x, m, d);
  const padded = Array.from({ length: m }, (_, i) => i >= n);
  const trace = engine.attention({
    ...{ q: x, k: x, v: x, nq: m, nk: m, dk: d, dv: d },
    causal,
    keyPadding: padding ? padded : null,
  });
  return {
    tokens: [...words, ...Array.from({ length: m - n }, () => PAD)],
    unknown: [...embedded.unknown, ...Array.from({ length: m - n }, () => false)],
    padded,
    n,
    m,
    d,
    causal,
    trace,
  };
}
