// What a link (or an LMS) may set in the cross-attention figure: both sentences (`a` and `b`),
// the mode, the projections switch and their seed.
import { choice, flag, integer, text } from '../shared/link-settings.js';
import { MAX_SEED } from '../shared/seed.js';
import { MODES } from './math.js';

export const SETTINGS = {
  a: text(),
  b: text(),
  mode: choice(MODES.map((mode) => mode.key)),
  project: flag(),
  seed: integer({ min: 0, max: MAX_SEED }),
};
