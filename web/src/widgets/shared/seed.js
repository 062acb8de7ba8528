// The seed box that several figures share (their random projections, a training run, a sweep): its
// range, how its text is read, and what the learner is told when it holds no seed.

/** The largest seed the engine accepts: 2^32 - 1. */
export const MAX_SEED = 4294967295;

/** What a figure says while its seed box holds no seed. */
export const SEED_PROBLEM = `The seed must be a whole number from 0 to ${MAX_SEED}.`;

/**
 * @param {string} text what the seed box holds
 * @returns {number | null} the seed, or null when it is not a whole number in the engine's range
 */
export function parseSeed(text) {
  const value = Number(text);
  const ok = text.trim() !== '' && Number.isInteger(value) && value >= 0 && value <= MAX_SEED;
  return ok ? value : null;
}
