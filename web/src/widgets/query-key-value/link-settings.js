// What a link (or an LMS) may set in the query-key-value figure: the sentence, the projection, its
// seed and dₖ.
import { MAX_SEED } from '../shared/seed.js';
import { choice, integer, text } from '../shared/link-settings.js';
import { DK_CHOICES, KINDS } from './math.js';

export const SETTINGS = {
  sentence: text(),
  projection: choice(KINDS),
  seed: integer({ min: 0, max: MAX_SEED }),
  dk: choice(DK_CHOICES),
};
