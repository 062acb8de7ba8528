// Training a language model live: engine.createLanguageModelTraining(train, heldOut, options)
// wraps the core's LanguageModelTraining class (wasm/lm_training.cpp) in an object of camelCase
// methods. The defaults are the page's small sibling of the trained model (docs/language-model.md,
// "Training it live"); the options are checked here with their names in the messages, and the
// core checks them again.

import { requireBytes, requireIn, withDefaults } from './args.js';
import { requireNumberThat, requireSeed, trainingHandle } from './training-handle.js';

const WHERE = 'language model training';

/** Allowed ranges of the whole-number options (context bounds minRun and maxRun too). */
export const LM_TRAINING_LIMITS = Object.freeze({
  words: [16, 20058],
  dModel: [8, 256],
  layers: [1, 4],
  heads: [1, 16],
  dMlp: [8, 1024],
  context: [8, 64],
  steps: [1, 100000],
  batch: [1, 64],
  warmup: [0, 100000],
  measureSequences: [1, 200],
  probeLength: [1, 32],
  stepCall: [1, 1000],
});

/**
 * The sibling the page trains: the 2,000 most frequent words of the vectors (the rest one unknown
 * word), 2 layers of 2 heads, d_model 64, MLPs of 128, batches of 24 rows of 32 tokens; half of
 * every batch is random words repeated, which brings induction heads out within 400 to 800 steps;
 * with seed 3 a previous-token head follows at step 900 (docs/language-model.md, "Training it
 * live", and "The seed" there for other seeds).
 * @type {Required<import('./index.js').LanguageModelTrainingOptions>}
 */
export const LM_TRAINING_DEFAULTS = Object.freeze({
  words: 2000,
  dModel: 64,
  layers: 2,
  heads: 2,
  dMlp: 128,
  context: 32,
  positionScale: 1,
  seed: 3,
  steps: 3000,
  batch: 24,
  learningRate: 0.01,
  warmup: 20,
  finalLrFraction: 0.1,
  clip: 1,
  repeatFraction: 0.5,
  minRun: 8,
  maxRun: 16,
  measureSequences: 20,
  probeLength: 10,
});

/**
 * Starts a live training run in the core, on the word vectors loaded now.
 * @param {any} core the instantiated wasm module
 * @param {Uint8Array | ArrayBuffer} train a corpus file (docs/corpus.md) to train on
 * @param {Uint8Array | ArrayBuffer} heldOut a corpus file the heads are measured on
 * @param {import('./index.js').LanguageModelTrainingOptions} [options]
 * @returns {import('./index.js').LanguageModelTraining}
 */
export function createLanguageModelTraining(core, train, heldOut, options = {}) {
  const trainBytes = requireBytes(WHERE, 'train', train);
  const heldOutBytes = requireBytes(WHERE, 'heldOut', heldOut);
  const settings = checkOptions(options);
  const run = trainingHandle(
    WHERE,
    new core.LanguageModelTraining(settings, trainBytes, heldOutBytes),
    LM_TRAINING_LIMITS.stepCall,
  );
  const { parameters, trainTokens, copyLength } = run.live('info').info();

  return {
    options: Object.freeze({ ...settings }),
    info: Object.freeze({ parameters, trainTokens, copyLength }),
    step: run.step,

    measure() {
      return run.live('measure').measure();
    },

    probe() {
      return run.live('probe').probe();
    },

    get steps() {
      return run.steps();
    },

    dispose: run.dispose,
  };
}

/**
 * The options with defaults filled in, checked; throws an Error naming the first bad one.
 * @param {import('./index.js').LanguageModelTrainingOptions} options
 * @returns {Required<import('./index.js').LanguageModelTrainingOptions>}
 */
function checkOptions(options) {
  /** @type {Record<string, any>} */
  const o = withDefaults(WHERE, options, LM_TRAINING_DEFAULTS);
  for (const name of /** @type {(keyof typeof LM_TRAINING_LIMITS)[]} */ ([
    'words',
    'dModel',
    'layers',
    'heads',
    'dMlp',
    'context',
    'steps',
    'batch',
    'warmup',
    'measureSequences',
    'probeLength',
  ])) {
    requireIn(WHERE, name, o[name], LM_TRAINING_LIMITS[name]);
  }
  if (o.dModel % o.heads !== 0) {
    throw new Error(`${WHERE}: heads (${o.heads}) must divide dModel (${o.dModel})`);
  }
  requireIn(WHERE, 'minRun', o.minRun, [2, o.context]);
  requireIn(WHERE, 'maxRun', o.maxRun, [o.minRun, o.context]);
  const number = (/** @type {string} */ name, ok, /** @type {string} */ range) =>
    requireNumberThat(WHERE, name, o[name], ok, range);
  number('learningRate', (x) => x > 0 && x <= 1, 'a number > 0 and <= 1');
  number('finalLrFraction', (x) => x > 0 && x <= 1, 'in (0, 1]');
  number('clip', (x) => x >= 0 && x <= 1000, 'from 0 (no clipping) to 1000');
  number('repeatFraction', (x) => x >= 0 && x <= 1, 'from 0 to 1');
  number('positionScale', (x) => x >= 0 && x <= 10, 'from 0 to 10');
  requireSeed(WHERE, o.seed);
  return /** @type {Required<import('./index.js').LanguageModelTrainingOptions>} */ (o);
}
