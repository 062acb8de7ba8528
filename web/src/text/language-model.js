// The page's trained language model (docs/language-model.md), loaded once per page: its weights
// and report (about 900 kB together) come beside the word vectors (./model-files.js).
import { MODEL_PATHS } from '../data-files.js';
import { modelFiles } from './model-files.js';

export { MODEL_PATHS };

const LOAD_FAILED =
  'The trained language model could not be loaded, so this figure cannot be drawn. ' +
  'Please reload the page to try again; the Untrained view above the figure works without it.';

/** A failure to load the model; its message is meant for the learner. */
export class ModelUnavailable extends Error {
  name = 'ModelUnavailable';
}

/** @typedef {import('../engine/index.js').LanguageModel} LanguageModel */

const files = modelFiles({
  paths: MODEL_PATHS,
  load: (engine, weights, report) =>
    /** @type {LanguageModel} */ (engine.loadLanguageModel(weights, report)),
  failure: (cause) => new ModelUnavailable(LOAD_FAILED, { cause }),
});

/**
 * Starts downloading the model's files (the first call) and resolves to them.
 * @type {() => Promise<{ weights: Uint8Array, report: unknown }>}
 */
export const fetchModelOnce = files.fetchOnce;

/**
 * Loads the model into `engine` (the first call for that engine), with the page's word vectors.
 * @type {(engine: any) => Promise<LanguageModel>} rejects with ModelUnavailable, or
 *   VectorsUnavailable when the word vectors are what failed
 */
export const loadModelOnce = files.loadOnce;

/** @type {(engine: object) => LanguageModel | undefined} the model, if loaded into that engine */
export const loadedModel = files.loaded;
