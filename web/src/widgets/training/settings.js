// The learner's settings for a training figure, read from what the boxes hold (or a link
// carried): a seed and a learning rate, each checked with a message that says what is allowed.

import { SEED_PROBLEM, parseSeed as readSeed } from '../shared/seed.js';
export const RATE_RANGE = /** @type {const} */ ([0.0001, 0.1]);
export const DEFAULTS = { seed: 1, rate: 0.003 };

/**
 * @param {string} text what the seed box holds
 * @returns {{ value: number | null, error: string }}
 */
export function parseSeed(text) {
  const value = readSeed(text);
  return value === null ? { value, error: SEED_PROBLEM } : { value, error: '' };
}

/**
 * @param {string} text what the learning-rate box holds
 * @returns {{ value: number | null, error: string }}
 */
export function parseRate(text) {
  const value = Number(text);
  const [low, high] = RATE_RANGE;
  if (text.trim() !== '' && Number.isFinite(value) && value >= low && value <= high) {
    return { value, error: '' };
  }
  return {
    value: null,
    error: `The learning rate must be a number from ${low} to ${high}, for example ${DEFAULTS.rate}.`,
  };
}
