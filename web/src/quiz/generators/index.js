// The live questions by name, as slides/quiz.yaml names them in `generator`. Each is
// generate(engine, random) -> { promptHtml, choicesHtml, answer, explanationHtml }, with every
// number and the right answer computed by the engine at each attempt. The questions on the
// trained language model also need it loaded into that engine first (NEEDS_LANGUAGE_MODEL).
import { generate as causalZeros } from './causal-zeros.js';
import { generate as inductionHead } from './induction-head.js';
import { generate as largestWeight } from './largest-weight.js';
import { generate as nextWord } from './next-word.js';
import { generate as unscaledVariance } from './unscaled-variance.js';

/** @typedef {{ promptHtml: string, choicesHtml: string[], answer: number, explanationHtml: string }} Question */
/** @typedef {(engine: import('../../engine/index.js').Engine, random: () => number) => Question} Generator */

/** @type {Readonly<Record<string, Generator>>} */
export const generators = Object.freeze({
  'largest-weight': largestWeight,
  'unscaled-variance': unscaledVariance,
  'causal-zeros': causalZeros,
  'induction-head': inductionHead,
  'next-word': nextWord,
});

/** The generators that read engine.languageModel: the page loads the model before drawing them. */
export const NEEDS_LANGUAGE_MODEL = Object.freeze(new Set(['induction-head', 'next-word']));

/**
 * @param {{ generator?: string }} item a quiz item
 * @returns {boolean} whether it is a live question on the trained language model
 */
export function needsLanguageModel(item) {
  return item.generator !== undefined && NEEDS_LANGUAGE_MODEL.has(item.generator);
}
