// The page's two English-to-German translation models (docs/translation.md), loaded once per
// page: one file holds both and the German vocabulary (about 2.5 MB gzip), with the report of what
// was measured on them (./model-files.js). Only the slides that translate ask for them, so no other
// slide waits.
import { TRANSLATION_PATHS } from '../data-files.js';
import { modelFiles } from './model-files.js';

const LOAD_FAILED =
  'The translation models could not be loaded, so this figure cannot be drawn. ' +
  'Please reload the page to try again; the other views of this slide work without them.';

/** A failure to load the models; its message is meant for the learner. */
export class TranslatorsUnavailable extends Error {
  name = 'TranslatorsUnavailable';
}

/**
 * @typedef {import('../engine/index.js').Translator} Translator
 * @typedef {{ attention: Translator, fixedVector: Translator }} Translators
 */

const files = modelFiles({
  paths: TRANSLATION_PATHS,
  load(engine, weights, report) {
    const { attention, fixedVector } = engine.loadTranslators(weights, report);
    if (!attention || !fixedVector) throw new Error('the translation file lacks a model');
    return /** @type {Translators} */ ({ attention, fixedVector });
  },
  failure: (cause) => new TranslatorsUnavailable(LOAD_FAILED, { cause }),
});

/**
 * Starts downloading the models' file and report (the first call) and resolves to them.
 * @type {() => Promise<{ weights: Uint8Array, report: unknown }>}
 */
export const fetchTranslationOnce = files.fetchOnce;

/**
 * Loads both models into `engine` (the first call for that engine), with the page's word vectors.
 * @type {(engine: any) => Promise<Translators>} rejects with TranslatorsUnavailable, or
 *   VectorsUnavailable when the word vectors are what failed
 */
export const loadTranslationOnce = files.loadOnce;

/** @type {(engine: object) => Translators | undefined} both models, if loaded into that engine */
export const loadedTranslation = files.loaded;
