// Loads a trained model's files once per page, however many figures and questions use it: its
// weights and the report of what was measured on them are downloaded at low priority, side by side
// with the word vectors; the engine takes the weights in once it holds the vectors. A failed
// download or load is tried again by the next call, and every way it can fail becomes the
// learner's message (the error class of the model) or, when the word vectors failed, theirs.
import { assetBytes } from '../asset-source.js';
import { onceRetrying } from '../once-retrying.js';
import { loadVectorsOnce } from './vectors.js';

/**
 * @template Model
 * @typedef {object} ModelFilesSpec
 * @property {{ weights: string, report: string }} paths relative to the page
 * @property {(engine: any, weights: Uint8Array, report: unknown) => Model} load puts the files
 *   into an engine that holds the word vectors
 * @property {(cause: unknown) => Error} failure the learner's error for a failed load
 */

/**
 * @template Model
 * @param {ModelFilesSpec<Model>} spec
 * @returns {{ fetchOnce: () => Promise<{ weights: Uint8Array, report: unknown }>,
 *   loadOnce: (engine: any) => Promise<Model>, loaded: (engine: object) => Model | undefined }}
 */
export function modelFiles({ paths, load, failure }) {
  /** Per engine: the model loaded into it, or on its way. @type {WeakMap<object, Promise<Model>>} */
  const pending = new WeakMap();
  /** @type {WeakMap<object, Model>} */
  const ready = new WeakMap();

  const fetchOnce = onceRetrying(async () => {
    const low = { priority: /** @type {const} */ ('low') };
    const [weights, report] = await Promise.all([
      assetBytes(paths.weights, low),
      assetBytes(paths.report, low),
    ]);
    return { weights, report: JSON.parse(new TextDecoder().decode(report)) };
  });

  /** @param {any} engine with the word vectors in */
  const start = async (engine, files) => {
    try {
      const { weights, report } = await files;
      return load(engine, weights, report);
    } catch (error) {
      // For whoever looks into it; the learner gets the message.
      console.warn(error);
      throw failure(error);
    }
  };

  /** @param {any} engine */
  const loadOnce = (engine) => {
    let model = pending.get(engine);
    if (!model) {
      const files = fetchOnce();
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
  };

  return { fetchOnce, loadOnce, loaded: (engine) => ready.get(engine) };
}
