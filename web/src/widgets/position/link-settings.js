// What a link (or an LMS) may set in the position figure: the sentence and the positional
// encoding switch. A shuffle is the learner's own and starts afresh.
import { flag, text } from '../shared/link-settings.js';

export const SETTINGS = {
  sentence: text(),
  pe: flag(),
};
