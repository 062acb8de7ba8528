// What the page calls a language model's heads and their kinds, from the scores the core measures
// on them (src/include/attn/lm_analysis.hpp; docs/language-model.md, "Measuring the heads"): one
// place for the trained model's figure, the live training and the questions about the model.

/** A head is a previous-token head from this previous-token score on (the core's threshold). */
export const PREVIOUS_TOKEN_THRESHOLD = 0.5;
/** A head is an induction head from this induction score on (the core's threshold). */
export const INDUCTION_THRESHOLD = 0.4;

/**
 * @param {{ layer: number, head: number }} head 0-based
 * @returns {string} its 1-based name, e.g. '2.1' for layer 1, head 0
 */
export function headName({ layer, head }) {
  return `${layer + 1}.${head + 1}`;
}

/** Each kind the core names: in a word or two, and as a head of that kind. */
const KINDS = Object.freeze({
  'previous-token': { words: 'previous token', head: 'previous-token head' },
  'first-token': { words: 'first token', head: 'first-token head' },
  self: { words: 'its own token', head: 'head on its own token' },
  induction: { words: 'induction', head: 'induction head' },
  mixed: { words: 'mixed: no clear pattern', head: 'head with no clear pattern' },
});

/**
 * @param {string} kind as the core names it
 * @returns {{ words: string, head: string } | null}
 */
function known(kind) {
  return Object.hasOwn(KINDS, kind) ? KINDS[/** @type {keyof typeof KINDS} */ (kind)] : null;
}

/**
 * @param {string} kind as the core names it
 * @returns {string} the kind in words, e.g. 'previous token' (a kind the page does not know, with
 *   its dashes as spaces)
 */
export function kindWords(kind) {
  return known(kind)?.words ?? kind.replaceAll('-', ' ');
}

/**
 * @param {string} kind as the core names it
 * @returns {string} a head of that kind, e.g. 'previous-token head'
 */
export function kindHead(kind) {
  return known(kind)?.head ?? `${kind.replaceAll('-', ' ')} head`;
}
