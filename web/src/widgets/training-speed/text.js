// The timing figure's words: the models' names, what is timed, each model's reading and what the
// numbers are and are not, all from the run's own report (the batch and the sizes the worker
// built), so the words say what was measured.
import { formatNumber } from '../../views/charts/format.js';

/** The models, in the order of the run's reports (web/src/train/speed-run.js, TIMED). */
export const TIMED_NAMES = Object.freeze(["lesson 1's attention translator", 'the Transformer']);
/** Their bars' labels (a bar's label holds at most 12 characters). */
export const BAR_LABELS = Object.freeze(['RNN', 'Transformer']);

const count = (/** @type {number} */ n) => n.toLocaleString('en-US');
/** Parameters in millions, one decimal: 1,309,156 -> '1.3 million'. */
const millions = (/** @type {number} */ n) => `${(n / 1e6).toFixed(1)} million`;

/**
 * What is timed, once the worker has said what it built.
 * @param {import('../../train/speed-run.js').Timing | null} timing
 */
export function whatText(timing) {
  if (!timing) {
    return (
      "Lesson 1's attention translator and the Transformer, at the sizes of the page's " +
      'trained models, take turns training on the same batch of sentence pairs.'
    );
  }
  const [recurrent, transformer] = timing.models;
  const t = timing.transformer;
  return (
    `Lesson 1's attention translator (a recurrent encoder and decoder, ` +
    `${millions(recurrent.parameters)} parameters) and the Transformer (${t.encoderLayers} + ` +
    `${t.decoderLayers} layers of ${t.heads} heads, d_model ${t.dModel}, ` +
    `${millions(transformer.parameters)} parameters), built from a seed at the sizes of the ` +
    `page's trained models, take turns training on the same ${count(timing.pairs)} English\u2013` +
    `German sentence pairs (${count(timing.englishTokens)} English and ` +
    `${count(timing.germanTokens)} German tokens). One step is a forward pass, a backward pass ` +
    'and an Adam update of every parameter.'
  );
}

/**
 * A model's rates: steps per second, pairs per second and seconds a step, from the median.
 * @param {import('../../train/speed-run.js').ModelTiming} model
 * @param {number} pairs in the batch
 */
export function ratesOf(model, pairs) {
  const stepsPerSecond = model.medianMs > 0 ? 1000 / model.medianMs : 0;
  return { stepsPerSecond, pairsPerSecond: stepsPerSecond * pairs, seconds: model.medianMs / 1000 };
}

/**
 * One model's reading line.
 * @param {number} i the model, in the order of TIMED_NAMES
 * @param {import('../../train/speed-run.js').Timing | null} timing
 */
export function rateText(i, timing) {
  const name = TIMED_NAMES[i];
  const model = timing?.models[i];
  if (!timing || !model || model.steps === 0) return `${capital(name)}: not timed yet.`;
  const { stepsPerSecond, pairsPerSecond, seconds } = ratesOf(model, timing.pairs);
  const steps = model.steps === 1 ? '1 step' : `median of ${count(model.steps)} steps`;
  return (
    `${capital(name)}: ${formatNumber(stepsPerSecond, 2)} steps/s, ` +
    `${formatNumber(pairsPerSecond, 3)} pairs/s (${formatNumber(seconds, 3)} s a step, ${steps}).`
  );
}

/** What the numbers are, and what they are not. */
export const NOTE =
  "Each time is the wall time of one step in this page's training worker, which runs on one " +
  'processor core; the rate is the median over the steps so far. The two models take turns, so ' +
  'other work on this machine slows both alike. These numbers are this browser\u2019s on this ' +
  'machine, not a claim about graphics processors: there, thousands of multiplications run at ' +
  "once, and the Transformer's large matrix products gain far more than the recurrent model's " +
  'word-by-word steps.';

/** @param {string} text */
function capital(text) {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
