// The live questions by name, as a lesson's quiz.yaml names them in `generator`. Each is
// generate(engine, random) -> { promptHtml, choicesHtml, answer, explanationHtml }, with every
// number and the right answer computed by the engine at each attempt. The questions on a trained
// model also need it loaded into that engine first (MODEL_NEEDED).
import { generate as alignmentShape } from './alignment-shape.js';
import { generate as attendedWord } from './attended-word.js';
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
  'attended-word': attendedWord,
  'alignment-shape': alignmentShape,
});

/**
 * The trained models the page loads before drawing a generator's question: 'language-model'
 * (engine.languageModel) or 'translation' (engine.translators).
 * @type {Readonly<Record<string, 'language-model' | 'translation'>>}
 */
export const MODEL_NEEDED = Object.freeze({
  'induction-head': 'language-model',
  'next-word': 'language-model',
  'attended-word': 'translation',
  'alignment-shape': 'translation',
});

/**
 * @param {{ generator?: string }} item a quiz item
 * @returns {'language-model' | 'translation' | undefined} the trained model its question reads
 */
export function modelNeeded(item) {
  return item.generator !== undefined && Object.hasOwn(MODEL_NEEDED, item.generator)
    ? MODEL_NEEDED[item.generator]
    : undefined;
}
