// What a link (or an LMS) may set in the why-scale figure: the width dₖ and the measure drawn
// over every width.
import { choice } from '../shared/link-settings.js';
import { MEASURES } from './markup.js';
import { WIDTHS } from './sweep.js';

export const SETTINGS = {
  dk: choice(WIDTHS),
  measure: choice(MEASURES.map((measure) => measure.key)),
};
