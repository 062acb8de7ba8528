// The experiments the training figure runs: three on the task of reversing a sequence of symbols
// (lengths 2 to 12, 8 symbols), and the small language model learning English, live (its heads
// measured as they form). For each: what is trained side by side, for how many steps, how often it
// is measured, and the words the figure uses for it.
import { LM_TRAINING_DEFAULTS } from '../../engine/lm-training.js';

/** The input lengths trained on and measured: 2 to 12. */
export const LENGTHS = [2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12];
/** Held-out sequences per length at each evaluation: accuracies come in steps of 1%. */
const SAMPLES = 100;
/** The reversal task every model learns; the engine's defaults, stated here so the words match. */
const TASK = { vocab: 8, minLength: LENGTHS[0], maxLength: LENGTHS[LENGTHS.length - 1] };
/** Points on a loss curve at the end of the run. */
const LOSS_POINTS = 40;

/**
 * @typedef {object} Model
 * @property {string} name as the legend, the read-out and the tables write it
 * @property {import('../../engine/index.js').TrainingOptions} options besides seed and learning rate
 */

/**
 * @typedef {object} Experiment
 * @property {string} key as slides name it in props.experiment
 * @property {string} title the figure's title
 * @property {string} watch one or two sentences: what to look for
 * @property {string} idle what the reading line says before the first evaluation
 * @property {Model[]} models trained side by side; the first is drawn as the charts' first series
 * @property {number} steps planned: training stops there
 * @property {number} evalEvery steps between held-out evaluations
 * @property {boolean} map whether the figure shows the first model's cross-attention map
 * @property {boolean} accuracyChart whether accuracy per length is drawn as a chart (else only
 *   read out)
 * @property {number} chartHeight the height of each chart, in pixels
 * @property {'reversal' | 'language-model'} kind the task: a reversal run measures accuracy per
 *   length, a language-model run its heads (web/src/train/lm-run.js)
 * @property {number} rate the learning rate the figure starts with
 * @property {number} [seed] the seed the figure starts with (else the shared default)
 * @property {string} lossUnit what one loss is the cross-entropy of
 */

/** @type {Record<string, Experiment>} */
export const EXPERIMENTS = {
  bottleneck: {
    key: 'bottleneck',
    title: 'Two models learn to reverse 2 to 12 symbols',
    watch:
      'Both see the same training sequences. Watch the long lengths: attention learns them all, ' +
      'one fixed vector only the short ones.',
    idle: 'Press Start to train both models; their accuracy per length appears every 100 steps.',
    models: [
      { name: 'one fixed vector', options: { model: 'fixed' } },
      { name: 'attention', options: { model: 'attention', scoring: 'scaled_dot' } },
    ],
    steps: 3000,
    evalEvery: 100,
    map: false,
    accuracyChart: true,
    chartHeight: 115,
    kind: 'reversal',
    rate: 0.003,
    lossUnit: 'symbol',
  },
  alignment: {
    key: 'alignment',
    title: 'Where the decoder looks as it learns to reverse',
    watch:
      'Nothing tells the model where to look; only its output is scored. Watch the weights ' +
      'gather on the anti-diagonal.',
    idle: 'Press Start to train the model; the map is redrawn as it learns.',
    models: [{ name: 'additive attention', options: { model: 'attention', scoring: 'additive' } }],
    steps: 1200,
    evalEvery: 100,
    map: true,
    accuracyChart: false,
    chartHeight: 100,
    kind: 'reversal',
    rate: 0.003,
    lossUnit: 'symbol',
  },
  scaling: {
    key: 'scaling',
    title: 'Attention at d\u2096 = 256, with and without 1/\u221ad\u2096',
    watch:
      'The runs differ only in the scale. Unscaled, the softmax soon turns almost one-hot, ' +
      'little gradient gets through, and the loss stays high for longer.',
    idle: 'Press Start to train both runs; their losses share one chart.',
    models: [
      { name: 'unscaled q\u00b7k', options: { model: 'attention', scoring: 'dot', dK: 256 } },
      {
        name: 'scaled q\u00b7k/\u221ad\u2096',
        options: { model: 'attention', scoring: 'scaled_dot', dK: 256 },
      },
    ],
    steps: 600,
    evalEvery: 50,
    map: false,
    accuracyChart: true,
    chartHeight: 115,
    kind: 'reversal',
    rate: 0.003,
    lossUnit: 'symbol',
  },
  'language-model': {
    key: 'language-model',
    title: 'A small language model learns English, and its heads find their jobs',
    watch:
      'A smaller sibling of the trained model (2 layers \u00d7 2 heads, 2,000 words), from ' +
      'scratch; half of each batch is runs of random words said over and over. Below, each ' +
      'head reads a held-out phrase said twice.',
    idle: 'Press Start to train it; every head is measured every 100 steps.',
    models: [{ name: 'small language model', options: {} }],
    steps: LM_TRAINING_DEFAULTS.steps,
    evalEvery: 100,
    map: true,
    accuracyChart: false,
    chartHeight: 105,
    kind: 'language-model',
    rate: LM_TRAINING_DEFAULTS.learningRate,
    seed: LM_TRAINING_DEFAULTS.seed,
    lossUnit: 'word',
  },
};

/** The lengths the alignment figure offers for its sample input. */
export const MAP_LENGTHS = [4, 6, 8, 10, 12];
export const DEFAULT_MAP_LENGTH = 8;

/**
 * Steps per point of an experiment's loss curve.
 * @param {Experiment} experiment
 */
export const lossBucket = (experiment) => Math.max(1, Math.round(experiment.steps / LOSS_POINTS));

/**
 * The run the worker trains for an experiment and the learner's settings; a language-model run
 * also needs its files (web/src/text/live-corpus.js).
 * @param {Experiment} experiment
 * @param {{ seed: number, learningRate: number, mapLength: number }} settings
 * @param {import('../../text/live-corpus.js').LiveCorpus} [data]
 * @returns {import('../../train/registry.js').AnySpec}
 */
export function runSpec(experiment, { seed, learningRate, mapLength }, data) {
  if (experiment.kind === 'language-model') {
    if (!data) throw new Error('a language-model run needs its corpus files');
    return {
      kind: 'language-model',
      models: [{ options: { seed, learningRate, steps: experiment.steps } }],
      steps: experiment.steps,
      evalEvery: experiment.evalEvery,
      data,
    };
  }
  return {
    models: experiment.models.map((model) => ({
      options: { ...TASK, ...model.options, seed, learningRate },
    })),
    steps: experiment.steps,
    evalEvery: experiment.evalEvery,
    lengths: LENGTHS,
    samples: SAMPLES,
    ...(experiment.map ? { map: { model: 0, length: mapLength, live: true } } : {}),
  };
}

export { SAMPLES };
