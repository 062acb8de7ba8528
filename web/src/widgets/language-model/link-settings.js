// What a link (or an LMS) may set in the trained language model's figure: the sentence, the head
// drawn large ('L.H', 1-based; the widget takes it only if the model has it) and how often the
// repeat button was pressed.
import { integer, text } from '../shared/link-settings.js';

/** The most presses of the repeat button a link may carry. */
export const MAX_REPEATS = 999_999;

export const SETTINGS = {
  sentence: text(),
  head: text({ max: 5, pattern: /^[1-9]\d?\.[1-9]\d?$/ }),
  repeats: integer({ min: 0, max: MAX_REPEATS }),
};
