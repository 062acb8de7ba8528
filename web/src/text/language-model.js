// Loads the page's trained language model once per page, however many figures and questions use
// it: its weights and the report of what was measured on them (about 900 kB together) are
// downloaded at low priority, like the word vectors, and side by side with them; the engine takes
// the weights in once it holds the vectors. Every way it can fail becomes a message a learner can act on.
import { assetBytes } from '../asset-source.js';
import { onceRetrying } from '../once-retrying.js';
import { MODEL_PATHS } from '../data-files.js';
import { loadVectorsOnce } from './vectors.js';

export { MODEL_PATHS };

const LOAD_FAILED =
  'The trained language model could not be loaded, so this figure cannot be drawn. ' +
  'Please reload the page to try again; the Untrained view above the figure works without it.';

/** A failure to load the model; its message is meant for the learner. */
export class ModelUnavailable extends Error {
  name = 'ModelUnavailable';
}

/**
 * @typedef {import('../engine/index.js').LanguageModel} LanguageModel
 * @typedef {{ weights: Uint8Array, report: unknown }} ModelFiles
 */

/** Per engine: the model loaded into it, or on its way. @type {WeakMap<object, Promise<LanguageModel>>} */
const pending = new WeakMap();
/** @type {WeakMap<object, LanguageModel>} */
const ready = new WeakMap();

/**
 * Starts downloading the model's files (the first call) and resolves to them. A failed download
 * is tried again by the next call.
 * @type {() => Promise<ModelFiles>}
 */
export const fetchModelOnce = onceRetrying(fetchFiles);

/**
 * Loads the model into `engine` (the first call for that engine), with the page's word vectors
 * (loaded first if they are not yet in; web/src/text/vectors.js), downloading the files if that
 * has not begun. A failed load is tried again by the next call.
 * @param {any} engine the facade
 * @returns {Promise<LanguageModel>} rejects with ModelUnavailable, or VectorsUnavailable when the
 *   word vectors are what failed
 */
export function loadModelOnce(engine) {
  let model = pending.get(engine);
  if (!model) {
    const files = fetchModelOnce();
    // Both downloads run at once; a failure of either is reported, never left unhandled.
    files.catch(() => {});
    model = loadVectorsOnce(engine)
      .then(() => start(engine, files))
      .then(
        (loaded) => {
          ready.set(engine, loaded);
          return loaded;
        },
        (error) => {
          pending.delete(engine);
          throw error;
        },
      );
    pending.set(engine, model);
  }
  return model;
}

/**
 * @param {object} engine
 * @returns {LanguageModel | undefined} the model, if it has finished loading into that engine
 */
export function loadedModel(engine) {
  return ready.get(engine);
}

/**
 * @param {any} engine with the word vectors in
 * @param {Promise<ModelFiles>} files
 * @returns {Promise<LanguageModel>}
 */
async function start(engine, files) {
  try {
    const { weights, report } = await files;
    return engine.loadLanguageModel(weights, report);
  } catch (error) {
    // For whoever looks into it; the learner gets the message.
    console.warn(error);
    throw new ModelUnavailable(LOAD_FAILED, { cause: error });
  }
}

/** @returns {Promise<ModelFiles>} */
async function fetchFiles() {
  const low = { priority: /** @type {const} */ ('low') };
  const [weights, report] = await Promise.all([
    assetBytes(MODEL_PATHS.weights, low),
    assetBytes(MODEL_PATHS.report, low),
  ]);
  return { weights, report: JSON.parse(new TextDecoder().decode(report)) };
}
