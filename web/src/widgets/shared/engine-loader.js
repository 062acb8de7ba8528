// Loads the attention engine once per page, however many widgets ask for it, and turns every way
// it can fail into a message a learner can act on.
import { prepareEngine } from '../../asset-source.js';
import { TRAINED_MODELS } from '../../text/trained-models.js';
import { fetchVectorsOnce } from '../../text/vectors.js';

const NO_WASM =
  'This figure needs WebAssembly, which this browser does not offer or has turned off. ' +
  'Please open the lesson in an up-to-date browser with WebAssembly enabled.';
const LOAD_FAILED =
  'The attention engine could not be loaded, so the figure cannot be drawn. ' +
  'Please reload the page to try again.';

/** A failure to start the engine; its message is meant for the learner. */
export class EngineUnavailable extends Error {
  name = 'EngineUnavailable';
}

/** @type {Promise<object> | undefined} */
let pending;
/** @type {object | undefined} */
let ready;

/**
 * Starts loading the engine (the first call) and resolves to it.
 * @returns {Promise<object>} the engine facade; rejects with EngineUnavailable
 */
export function loadEngineOnce() {
  pending ??= start().then((engine) => {
    ready = engine;
    return engine;
  });
  return pending;
}

/**
 * Starts loading, side by side, the engine and the files the page's figures need: the word
 * vectors and each trained model's files, as the widgets declare them (registry.js, `needsOf`);
 * the host then finds them loaded or on their way. A failure is reported where a figure needs
 * what failed (host.js), not here.
 * @param {import('./registry.js').Needs} needs
 * @returns {Promise<void>} settles when every load it started has (succeeded or not)
 */
export function startLoading({ vectors, models }) {
  const loads = [loadEngineOnce()];
  // Without WebAssembly there is no engine to take the files in: not worth 3 MB.
  if (typeof WebAssembly === 'object') {
    // The engine's WebAssembly compiles from now on, while the engine's script is on its way.
    prepareEngine().catch(() => {});
    if (vectors || models.length > 0) loads.push(fetchVectorsOnce());
    for (const name of models) loads.push(TRAINED_MODELS[name].fetchOnce());
  }
  for (const load of loads) load.catch(() => {});
  return Promise.allSettled(loads).then(() => {});
}

/** @returns {object | undefined} the engine if it has finished loading */
export function loadedEngine() {
  return ready;
}

/** @returns {Promise<object>} */
async function start() {
  if (typeof WebAssembly !== 'object' || typeof WebAssembly.instantiate !== 'function') {
    throw new EngineUnavailable(NO_WASM);
  }
  try {
    const { loadEngine } = await import('../../engine/browser.js');
    return await loadEngine();
  } catch (error) {
    console.error(error);
    throw new EngineUnavailable(LOAD_FAILED, { cause: error });
  }
}
