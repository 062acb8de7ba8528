// What a link (or an LMS) may set in a training figure: the seed, the learning rate and the
// length of the sequence whose attention map is drawn.
import { choice, integer, number } from '../shared/link-settings.js';
import { MAP_LENGTHS } from './experiments.js';
import { MAX_SEED } from '../shared/seed.js';
import { RATE_RANGE } from './settings.js';

export const SETTINGS = {
  seed: integer({ min: 0, max: MAX_SEED }),
  rate: number({ min: RATE_RANGE[0], max: RATE_RANGE[1] }),
  length: choice(MAP_LENGTHS),
};
