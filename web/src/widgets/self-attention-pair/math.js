// The numbers behind the self-attention-pair widget: one sentence's self-attention with
// Q = K = V = X (its word vectors, no learned projections; selfAttention in
// shared/self-attention.js), the token the learner follows, and the cosine similarity of two rows.
import { selfAttention } from '../shared/self-attention.js';

/** @typedef {import('../shared/self-attention.js').SelfAttentionResult} SideResult */

/**
 * Self-attention of one sentence with itself, no mask.
 * @param {Pick<import('../../engine/index.js').Engine, 'embed' | 'attention'>} engine the facade,
 *   word vectors loaded
 * @param {string[]} tokens (n) n >= 1
 * @returns {SideResult}
 */
export function attendSentence(engine, tokens) {
  return selfAttention(engine, tokens, false);
}

/**
 * Row i of a row-major matrix.
 * @param {Float32Array} matrix (rows, width)
 * @param {number} i
 * @param {number} width
 * @returns {Float32Array} (width) a view into the matrix
 */
export function rowOf(matrix, i, width) {
  return matrix.subarray(i * width, (i + 1) * width);
}

/**
 * cos(a, b) = a · b / (|a| |b|).
 * @param {ArrayLike<number>} a (d)
 * @param {ArrayLike<number>} b (d)
 * @returns {number} in [-1, 1]; NaN when either vector is all zeros
 */
export function cosineSimilarity(a, b) {
  if (a.length !== b.length) throw new Error(`cosine: lengths ${a.length} and ${b.length}`);
  let ab = 0;
  let aa = 0;
  let bb = 0;
  for (let k = 0; k < a.length; k++) {
    ab += a[k] * b[k];
    aa += a[k] * a[k];
    bb += b[k] * b[k];
  }
  if (aa === 0 || bb === 0) return NaN;
  return Math.max(-1, Math.min(1, ab / Math.sqrt(aa * bb)));
}

/**
 * @param {ArrayLike<number>} a (d)
 * @param {ArrayLike<number>} b (d)
 * @returns {boolean} whether the two vectors are equal entry by entry
 */
export function sameVector(a, b) {
  if (a.length !== b.length) return false;
  for (let k = 0; k < a.length; k++) if (a[k] !== b[k]) return false;
  return true;
}

/**
 * Which token to follow: the one chosen before if it is still there (the same word nearest its
 * old place), else the default word, else the token now at the old place, else the last one.
 * @param {string[]} tokens (n)
 * @param {{ index?: number, word?: string }} chosen what the learner picked last
 * @param {string} fallback the word followed by default, e.g. 'bank'
 * @returns {number} an index into tokens, or -1 when there are none
 */
export function followedIndex(tokens, chosen, fallback) {
  const n = tokens.length;
  if (n === 0) return -1;
  const old = Number.isInteger(chosen.index) ? chosen.index : n - 1;
  const nearest = (word) => {
    let best = -1;
    tokens.forEach((token, i) => {
      if (token === word && (best < 0 || Math.abs(i - old) < Math.abs(best - old))) best = i;
    });
    return best;
  };
  if (chosen.word !== undefined) {
    const at = nearest(chosen.word);
    if (at >= 0) return at;
  }
  const byDefault = nearest(fallback);
  if (byDefault >= 0) return byDefault;
  return Math.min(Math.max(old, 0), n - 1);
}
