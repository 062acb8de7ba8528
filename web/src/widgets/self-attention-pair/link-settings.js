// What a link (or an LMS) may set in the pair of self-attention figures: both sentences and, for
// each, the token followed (its index and word). The cost panel's timings are this machine's and
// stay out.
import { integer, list, record, text } from '../shared/link-settings.js';
import { SIDES } from './markup.js';

export const SETTINGS = {
  sentences: list(text(), { max: SIDES.length }),
  chosen: list(record({ index: integer({ min: 0, max: 1000 }), word: text({ max: 200 }) }), {
    max: SIDES.length,
  }),
};
