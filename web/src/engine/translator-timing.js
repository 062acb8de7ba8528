// Timing the translators' training: engine.createTranslatorTiming(pairs, options) wraps the core's
// TranslatorTiming class (wasm/translator_timing.cpp), which holds lesson 1's attention translator
// and lesson 2's Transformer at their committed sizes and training settings, built from a seed on
// the loaded word vectors, and a file of sentence pairs that is their one batch. step(model)
// trains one of them for one step on that batch (forward, backward, Adam) and returns its loss;
// the caller times the call. The arguments are checked here with their names in the messages, and
// the core checks them again.

import { requireBytes, show, withDefaults } from './args.js';
import { requireNumberThat, requireSeed } from './training-handle.js';

const WHERE = 'translator timing';

/** The models step() trains, by name, as the core numbers them. */
export const TIMED_MODELS = Object.freeze(/** @type {const} */ ({ attention: 0, transformer: 1 }));

/**
 * seed: both models' initial weights; warmup and dropout: null keeps each model's committed value
 * (warm-up 200 steps for the attention translator and 1,000 for the Transformer, dropout 0.1),
 * a number replaces it for both.
 * @type {Required<import('./index.js').TranslatorTimingOptions>}
 */
export const TRANSLATOR_TIMING_DEFAULTS = Object.freeze({ seed: 1, warmup: null, dropout: null });

/**
 * Builds both models in the core, on the word vectors loaded now.
 * @param {any} core the instantiated wasm module
 * @param {Uint8Array | ArrayBuffer} pairs a file of sentence pairs (docs/translation-corpus.md)
 * @param {import('./index.js').TranslatorTimingOptions} [options]
 * @returns {import('./index.js').TranslatorTiming}
 */
export function createTranslatorTiming(core, pairs, options = {}) {
  const bytes = requireBytes(WHERE, 'pairs', pairs);
  const settings = checkOptions(options);
  /** @type {any} */
  let handle = new core.TranslatorTiming(bytes, {
    seed: settings.seed,
    warmup: settings.warmup ?? -1,
    dropout: settings.dropout ?? -1,
  });
  const live = (/** @type {string} */ what) => {
    if (!handle) throw new Error(`${WHERE}: ${what} after dispose(); create a new timing`);
    return handle;
  };
  const raw = live('info').info();
  const info = Object.freeze({
    pairs: raw.pairs,
    englishTokens: raw.englishTokens,
    germanTokens: raw.germanTokens,
    targetWords: raw.targetWords,
    attention: Object.freeze({ ...raw.attention }),
    transformer: Object.freeze({ ...raw.transformer }),
  });

  /**
   * @param {string} what the call, for the message
   * @param {unknown} model
   * @returns {number} the core's number for the model
   */
  const modelIndex = (what, model) => {
    if (typeof model !== 'string' || !Object.hasOwn(TIMED_MODELS, model)) {
      throw new Error(
        `${WHERE}: ${what}: model must be 'attention' or 'transformer', got ${show(model)}`,
      );
    }
    return TIMED_MODELS[/** @type {keyof typeof TIMED_MODELS} */ (model)];
  };

  return {
    options: Object.freeze({ ...settings }),
    info,
    step(model) {
      const index = modelIndex('step', model);
      return live('step').step(index);
    },
    steps(model) {
      const index = modelIndex('steps', model);
      return live('steps').steps(index);
    },
    dispose() {
      if (handle) handle.delete();
      handle = null;
    },
  };
}

/**
 * The options with defaults filled in, checked; throws an Error naming the first bad one.
 * @param {import('./index.js').TranslatorTimingOptions} options
 * @returns {Required<import('./index.js').TranslatorTimingOptions>}
 */
function checkOptions(options) {
  const o = withDefaults(WHERE, options, TRANSLATOR_TIMING_DEFAULTS);
  requireSeed(WHERE, o.seed);
  if (o.warmup !== null) {
    requireNumberThat(
      WHERE,
      'warmup',
      o.warmup,
      (x) => Number.isInteger(x) && x >= 0 && x <= 100000,
      'null (the committed warm-ups) or a whole number from 0 to 100000',
    );
  }
  if (o.dropout !== null) {
    requireNumberThat(
      WHERE,
      'dropout',
      o.dropout,
      (x) => x >= 0 && x < 1,
      'null (the committed 0.1) or a number >= 0 and < 1',
    );
  }
  return /** @type {Required<import('./index.js').TranslatorTimingOptions>} */ (o);
}
