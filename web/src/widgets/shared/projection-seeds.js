// The seeds of the projections W_Q, W_K, W_V and W_O, shared by every widget that draws them from
// one seed the learner sets (multi-head, query-key-value, cross-attention).

import { MAX_SEED } from './seed.js';

/**
 * The seeds of W_Q, W_K, W_V and W_O: the learner's seed and the three after it (wrapping).
 * @param {number} seed
 * @returns {number[]}
 */
export function projectionSeeds(seed) {
  return [0, 1, 2, 3].map((k) => (seed + k) % (MAX_SEED + 1));
}
