// What a link (or an LMS) may set in the translation figures: the English sentence and, in the
// steps view, the German word whose step is shown (1-based; the figure clamps it to the words the
// model writes).
import { integer, text } from '../shared/link-settings.js';

/** The highest step a link may name: more than the core ever writes (127 words). */
export const MAX_STEP = 1000;

export const SETTINGS = {
  sentence: text(),
  step: integer({ min: 1, max: MAX_STEP }),
};
