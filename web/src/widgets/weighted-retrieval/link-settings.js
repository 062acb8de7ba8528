// What a link (or an LMS) may set in the weighted-retrieval figure: the sentence, the query word,
// the seed, the mode and the dragged scores (one per token at most).
import { choice, integer, list, number, text } from '../shared/link-settings.js';
import { MAX_SEED } from '../shared/seed.js';
import { SCORE_MAX, SCORE_MIN } from './sliders.js';

/** The most tokens the figure takes from the sentence, so the most scores it keeps. */
export const MAX_TOKENS = 8;
export const MODES = ['compare', 'drag'];

export const SETTINGS = {
  sentence: text(),
  query: text(),
  seed: integer({ min: 0, max: MAX_SEED }),
  mode: choice(MODES),
  scores: list(number({ min: SCORE_MIN, max: SCORE_MAX }), { max: MAX_TOKENS }),
};
