// The files the live language-model training needs, downloaded once per page when a figure asks
// for them: the word vectors (shared with every other figure, web/src/text/vectors.js) and the
// corpus sample (about 245 kB: every eighth train sample of the Brown Corpus, and the start of
// every validation sample, tools/make-live-corpus.js). The training worker gets copies of the bytes.
import { assetBytes } from '../asset-source.js';
import { onceRetrying } from '../once-retrying.js';
import { fetchVectorsOnce } from './vectors.js';

/** Where the files lie, relative to the page (web/public/ is served at the site's root). */
export const LIVE_CORPUS_PATHS = Object.freeze({
  train: 'models/brown-live-train.bin',
  heldOut: 'models/brown-live-heldout.bin',
});

export const LIVE_CORPUS_FAILED =
  'The text this model trains on could not be downloaded, so it cannot train. Please reload ' +
  'the page to try again; the other figures still work.';

/** @typedef {{ vectors: Uint8Array, train: Uint8Array, heldOut: Uint8Array }} LiveCorpus */

/**
 * Starts the downloads (the first call) and resolves to the bytes; a failed download is tried
 * again by the next call; a failure rejects with an Error whose message is LIVE_CORPUS_FAILED.
 * @type {() => Promise<LiveCorpus>}
 */
export const fetchLiveCorpusOnce = onceRetrying(
  fetchAll,
  (error) => new Error(LIVE_CORPUS_FAILED, { cause: error }),
);

/** @returns {Promise<LiveCorpus>} */
async function fetchAll() {
  const get = (/** @type {string} */ path) => assetBytes(path, { priority: 'low' });
  const [vectors, train, heldOut] = await Promise.all([
    fetchVectorsOnce(),
    get(LIVE_CORPUS_PATHS.train),
    get(LIVE_CORPUS_PATHS.heldOut),
  ]);
  return { vectors, train, heldOut };
}
