// The files the timing of the translators' training needs (lesson 2's recurrence slide),
// downloaded once per page when its figure is shown: the word vectors (shared with every other
// figure, web/src/text/vectors.js) and the batch of 64 sentence pairs (3.8 kB,
// web/public/models/translation-timing.bin). The training worker gets copies of the bytes.
import { assetBytes } from '../asset-source.js';
import { TIMING_PAIRS_PATH } from '../data-files.js';
import { onceRetrying } from '../once-retrying.js';
import { fetchVectorsOnce } from './vectors.js';

export const TIMING_DATA_FAILED =
  'The sentence pairs the two translators train on could not be downloaded, so they cannot be ' +
  'timed. Please reload the page to try again; the other figures still work.';

/** @typedef {{ vectors: Uint8Array, pairs: Uint8Array }} TimingData */

/**
 * Starts the downloads (the first call) and resolves to the bytes; a failed download is tried
 * again by the next call; a failure rejects with an Error whose message is TIMING_DATA_FAILED.
 * @type {() => Promise<TimingData>}
 */
export const fetchTimingDataOnce = onceRetrying(
  fetchAll,
  (error) => new Error(TIMING_DATA_FAILED, { cause: error }),
);

/** @returns {Promise<TimingData>} */
async function fetchAll() {
  const [vectors, pairs] = await Promise.all([
    fetchVectorsOnce(),
    assetBytes(TIMING_PAIRS_PATH, { priority: 'low' }),
  ]);
  return { vectors, pairs };
}
