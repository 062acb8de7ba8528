// What a link (or an LMS) may set in the multi-head figure: the sentence, the number of heads
// (the widget takes the nearest divisor of the vectors' width below it) and the seed.
import { MAX_SEED } from '../shared/seed.js';
import { integer, text } from '../shared/link-settings.js';
import { MAX_HEADS } from './math.js';

export const SETTINGS = {
  sentence: text(),
  heads: integer({ min: 1, max: MAX_HEADS }),
  seed: integer({ min: 0, max: MAX_SEED }),
};
