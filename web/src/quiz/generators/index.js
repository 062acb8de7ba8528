// The live questions by name, as slides/quiz.yaml names them in `generator`. Each is
// generate(engine, random) -> { promptHtml, choicesHtml, answer, explanationHtml }, with every
// number and the right answer computed by the engine at each attempt.
import { generate as causalZeros } from './causal-zeros.js';
import { generate as largestWeight } from './largest-weight.js';
import { generate as unscaledVariance } from './unscaled-variance.js';

/** @typedef {{ promptHtml: string, choicesHtml: string[], answer: number, explanationHtml: string }} Question */
/** @typedef {(engine: import('../../engine/index.js').Engine, random: () => number) => Question} Generator */

/** @type {Readonly<Record<string, Generator>>} */
export const generators = Object.freeze({
  'largest-weight': largestWeight,
  'unscaled-variance': unscaledVariance,
  'causal-zeros': causalZeros,
});
