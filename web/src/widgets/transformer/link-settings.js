// What a link (or an LMS) may set in the Transformer's figures: the English sentence, the search
// that writes the German (greedy, or the beam the report was measured with) and the head drawn
// ('layer.head', counted from 1, or 'mean'; the widget takes it only if the model has it), and
// the stream view's measure.
import { choice, text } from '../shared/link-settings.js';
import { MEASURES } from './encoder-text.js';
import { SEARCHES } from './text.js';

export const SETTINGS = {
  sentence: text(),
  search: choice(SEARCHES),
  head: text({ max: 5, pattern: /^(\d{1,2}\.\d{1,2}|mean)$/ }),
  measure: choice(MEASURES),
};
