// Training in the engine: engine.createTraining(options) wraps the core's Training class (over
// attn::Trainer) in an object of camelCase methods. The options are checked here, with their
// camelCase names in the messages; the core checks them again.
import { requireCounts, requireIn, show, withDefaults } from './args.js';

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
  /** @type {any} */
  let handle = new core.Training(settings);

  const live = (/** @type {string} */ what) => {
    if (!handle) throw new Error(`${WHERE}: ${what} after dispose(); create a new training`);
    return handle;
  };

  return {
    options: Object.freeze({ ...settings, dK: settings.dK || settings.dModel }),

    step(n = 1) {
      requireIn(`${WHERE}: step`, 'n', n, TRAINING_LIMITS.steps);
      return live('step').step(n);
    },

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
      return live('evaluate').evaluate(Array.from(lengths), samples);
    },

    attentionMap(length) {
      requireIn(`${WHERE}: attentionMap`, 'length', length, TRAINING_LIMITS.lengths);
      if (settings.model !== 'attention') {
        throw new Error(
          `${WHERE}: attentionMap: the fixed-vector model has no cross-attention (its decoder ` +
            'sees one vector, not the encoder states)',
        );
      }
      return live('attentionMap').attentionMap(length);
    },

    get steps() {
      return live('steps').steps();
    },

    dispose() {
      if (handle) handle.delete();
      handle = null;
    },
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
  if (typeof o.learningRate !== 'number' || !(o.learningRate > 0 && o.learningRate <= 1)) {
    throw new Error(
      `${WHERE}: learningRate must be a number > 0 and <= 1, got ${show(o.learningRate)}`,
    );
  }
  if (typeof o.clip !== 'number' || !(o.clip >= 0 && o.clip <= 1000)) {
    throw new Error(
      `${WHERE}: clip must be a number from 0 (no clipping) to 1000, got ${show(o.clip)}`,
    );
  }
  if (!Number.isInteger(o.seed) || o.seed < 0 || o.seed > 0xffffffff) {
    throw new Error(
      `${WHERE}: seed must be a whole number from 0 to 4294967295, got ${show(o.seed)}`,
    );
  }
  return o;
}
