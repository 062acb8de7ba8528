// Loads the word vectors into the engine once per page, however many widgets ask for them. The
// download (about 2 MB) runs at low priority beside the engine's; the engine takes the vectors in
// once the page has painted. Every way it can fail becomes a message a learner can act on.
import { assetBytes } from '../asset-source.js';
import { onceRetrying } from '../once-retrying.js';
import { VECTORS_PATH } from '../data-files.js';
import { EMBED_DIM } from './embed.js';

export { VECTORS_PATH };

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
 * Starts downloading the word vectors (the first call), whether or not the engine is ready yet,
 * so that the two arrive side by side; resolves to the asset's bytes. The download asks for low
 * priority, so the page's own files and fonts come first. A failed download is tried again by the
 * next call, and a failure rejects with the reason the download failed.
 * @type {() => Promise<Uint8Array>}
 */
export const fetchVectorsOnce = onceRetrying(fetchBytes);

/**
 * Loads the word vectors into `engine` (the first call), downloading them if that has not begun,
 * and resolves when they are in. A failed load is tried again by the next call.
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
  try {
    const bytes = await fetchVectorsOnce();
    // Taking them in keeps the main thread busy for a moment: not before the page has painted.
    await afterFirstPaint();
    const { dim } = engine.loadEmbeddings(bytes);
    if (dim !== EMBED_DIM)
      throw new Error(`the word vectors have ${dim} dimensions, not ${EMBED_DIM}`);
  } catch (error) {
    console.error(error);
    throw new VectorsUnavailable(LOAD_FAILED, { cause: error });
  }
}

/** @returns {Promise<Uint8Array>} */
function fetchBytes() {
  return assetBytes(VECTORS_PATH, { priority: 'low' });
}

/**
 * Resolves once the browser has painted a frame (or after a short wait where no frame comes, as
 * in a background tab): at once when the page has painted its first content already.
 * @returns {Promise<void>}
 */
function afterFirstPaint() {
  if (hasPainted()) return Promise.resolve();
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

/** @returns {boolean} whether the page has painted text or an image (never in a worker) */
function hasPainted() {
  if (typeof document === 'undefined' || typeof performance?.getEntriesByType !== 'function') {
    return false;
  }
  return performance.getEntriesByType('paint').some((e) => e.name === 'first-contentful-paint');
}
