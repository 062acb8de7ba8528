// What a link (or an LMS) may set in the attention-steps figure: the sentence, both masks and the
// step shown.
import { flag, integer, text } from '../shared/link-settings.js';
import { STEPS } from './math.js';

export const SETTINGS = {
  sentence: text(),
  causal: flag(),
  padding: flag(),
  step: integer({ min: 1, max: STEPS.length }),
};
