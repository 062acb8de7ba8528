// Training in the engine: engine.createTraining(options) wraps the core's Training class (over
// attn::Trainer) in an object of camelCase methods. The options are checked here, with their
// camelCase names in the messages; the core checks them again.
import { requireCounts, requireIn, show, withDefaults } from './args.js';
import { requireNumberThat, requireSeed, trainingHandle } from './training-handle.js';

const WHERE = 'training';

// Allowed ranges; the same as attn::validate in src/trainer.cpp (tests/js/training.test.js checks
// that the core accepts both ends of each).
export const TRAINING_LIMITS = Object.freeze({
  dModel: [2, 256],
  dK: [1, 1024],
  vocab: [2, 64],
  minLength: [1, 32],
  maxLength: [1, 32],
  batch: [1, 512],
  steps: [1, 100000],
  lengths: [1, 32],
  samples: [1, 10000],
});

const MODELS = ['fixed', 'attention'];
const SCORINGS = ['additive', 'dot', 'scaled_dot'];

/** @type {Required<import('./index.js').TrainingOptions>} */
const DEFAULTS = Object.freeze({
  model: 'attention',
  scoring: 'scaled_dot',
  dModel: 32,
  dK: 0,
  vocab: 8,
  minLength: 2,
  maxLength: 12,
  batch: 32,
  learningRate: 3e-3,
  clip: 1,
  seed: 1,
});

/**
 * Starts a training run in the core.
 * @param {any} core the instantiated wasm module
 * @param {import('./index.js').TrainingOptions} [options]
 * @returns {import('./index.js').Training}
 */
export function createTraining(core, options = {}) {
  const settings = checkOptions(options);
  const run = trainingHandle(WHERE, new core.Training(settings), TRAINING_LIMITS.steps);

  return {
    options: Object.freeze({ ...settings, dK: settings.dK || settings.dModel }),
    step: run.step,

    evaluate(lengths, samples = 200) {
      const where = `${WHERE}: evaluate`;
      requireCounts(where, 'lengths', lengths);
      const [low, high] = TRAINING_LIMITS.lengths;
      if (lengths.length < 1 || lengths.length > high) {
        throw new Error(`${where}: lengths must list 1 to ${high} lengths, got ${lengths.length}`);
      }
      for (let i = 0; i < lengths.length; i++) {
        requireIn(where, `lengths[${i}]`, lengths[i], [low, high]);
      }
      requireIn(where, 'samples', samples, TRAINING_LIMITS.samples);
      return run.live('evaluate').evaluate(Array.from(lengths), samples);
    },

    attentionMap(length) {
      requireIn(`${WHERE}: attentionMap`, 'length', length, TRAINING_LIMITS.lengths);
      if (settings.model !== 'attention') {
        throw new Error(
          `${WHERE}: attentionMap: the fixed-vector model has no cross-attention (its decoder ` +
            'sees one vector, not the encoder states)',
        );
      }
      return run.live('attentionMap').attentionMap(length);
    },

    get steps() {
      return run.steps();
    },

    dispose: run.dispose,
  };
}

/**
 * The options with defaults filled in, checked; throws an Error naming the first bad one.
 * @param {import('./index.js').TrainingOptions} options
 * @returns {Required<import('./index.js').TrainingOptions>}
 */
function checkOptions(options) {
  const o = withDefaults(WHERE, options, DEFAULTS);
  if (!MODELS.includes(o.model)) {
    throw new Error(`${WHERE}: model must be 'fixed' or 'attention', got ${show(o.model)}`);
  }
  if (!SCORINGS.includes(o.scoring)) {
    throw new Error(
      `${WHERE}: scoring must be 'additive', 'dot' or 'scaled_dot', got ${show(o.scoring)}`,
    );
  }
  requireIn(WHERE, 'dModel', o.dModel, TRAINING_LIMITS.dModel);
  if (o.dK !== 0) requireIn(WHERE, 'dK (0 = dModel)', o.dK, TRAINING_LIMITS.dK);
  requireIn(WHERE, 'vocab', o.vocab, TRAINING_LIMITS.vocab);
  requireIn(WHERE, 'minLength', o.minLength, TRAINING_LIMITS.minLength);
  requireIn(WHERE, 'maxLength', o.maxLength, [o.minLength, TRAINING_LIMITS.maxLength[1]]);
  requireIn(WHERE, 'batch', o.batch, TRAINING_LIMITS.batch);
  const rate = (/** @type {number} */ x) => x > 0 && x <= 1;
  requireNumberThat(WHERE, 'learningRate', o.learningRate, rate, 'a number > 0 and <= 1');
  const clip = (/** @type {number} */ x) => x >= 0 && x <= 1000;
  requireNumberThat(WHERE, 'clip', o.clip, clip, 'a number from 0 (no clipping) to 1000');
  requireSeed(WHERE, o.seed);
  return o;
}
