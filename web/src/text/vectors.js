// Loads the word vectors into the engine once per page, however many widgets ask for them, after
// the page has painted (the page and the engine come first; the asset is about 2 MB). Every way it
// can fail becomes a message a learner can act on.
import { EMBED_DIM } from './embed.js';

/** Where the asset lies, relative to the page (web/public/ is served at the site's root). */
export const VECTORS_PATH = 'embeddings/en-20k-100d.bin';

const LOAD_FAILED =
  'The word vectors could not be loaded, so the figure cannot be drawn. ' +
  'Please reload the page to try again.';

/** A failure to load the word vectors; its message is meant for the learner. */
export class VectorsUnavailable extends Error {
  name = 'VectorsUnavailable';
}

/** @type {Promise<void> | undefined} */
let pending;
let ready = false;

/**
 * Starts loading the word vectors into `engine` (the first call) and resolves when they are in.
 * A failed load is tried again by the next call.
 * @param {{ loadEmbeddings: (bytes: Uint8Array) => { words: number, dim: number } }} engine
 * @returns {Promise<void>} rejects with VectorsUnavailable
 */
export function loadVectorsOnce(engine) {
  pending ??= start(engine).then(
    () => {
      ready = true;
    },
    (error) => {
      pending = undefined;
      throw error;
    },
  );
  return pending;
}

/** @returns {boolean} whether the word vectors are in the engine */
export function vectorsLoaded() {
  return ready;
}

/** @param {{ loadEmbeddings: (bytes: Uint8Array) => { words: number, dim: number } }} engine */
async function start(engine) {
  await afterFirstPaint();
  try {
    const url = new URL(VECTORS_PATH, document.baseURI);
    const response = await fetch(url);
    if (!response.ok) throw new Error(`${url.pathname}: ${response.status} ${response.statusText}`);
    const { dim } = engine.loadEmbeddings(new Uint8Array(await response.arrayBuffer()));
    if (dim !== EMBED_DIM)
      throw new Error(`the word vectors have ${dim} dimensions, not ${EMBED_DIM}`);
  } catch (error) {
    console.error(error);
    throw new VectorsUnavailable(LOAD_FAILED, { cause: error });
  }
}

/**
 * Resolves once the browser has painted a frame (or after a short wait where no frame comes, as
 * in a background tab).
 * @returns {Promise<void>}
 */
function afterFirstPaint() {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, 500);
    if (typeof requestAnimationFrame !== 'function') return;
    requestAnimationFrame(() =>
      setTimeout(() => {
        clearTimeout(timer);
        resolve();
      }, 0),
    );
  });
}
