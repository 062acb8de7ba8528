// What a link (or an LMS) may set in the bottleneck figure: the vector's width and the seed.
import { choice, integer } from '../shared/link-settings.js';
import { MAX_SEED } from '../shared/seed.js';
import { WIDTHS } from './sweep.js';

export const SETTINGS = {
  width: choice(WIDTHS),
  seed: integer({ min: 0, max: MAX_SEED }),
};
