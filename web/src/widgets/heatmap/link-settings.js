// What a link (or an LMS) may set in the heatmap: its sentence, the causal mask, the view (grid
// or lines) and the token the lines view starts from.
import { choice, flag, integer, text } from '../shared/link-settings.js';
import { MAX_TOKENS } from './math.js';

export const SETTINGS = {
  sentence: text(),
  causal: flag(),
  view: choice(['grid', 'lines']),
  from: integer({ min: 0, max: MAX_TOKENS - 1 }),
};
