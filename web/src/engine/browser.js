// loadEngine() for browsers and workers: the .wasm comes from the page's asset source
// (web/src/asset-source.js: fetched from beside this module, or read from the page offline).
import { assetBytes, engineModuleOptions } from '../asset-source.js';
import { MODEL_PATHS, TRANSFORMER_PATHS, TRANSLATION_PATHS, VECTORS_PATH } from '../data-files.js';
import createAttentionCore from './generated/attention-core.mjs';
import { createEngine } from './engine.js';
import { pickTranslator, requireTranslatorModel, TRANSFORMER_MODEL } from './translator.js';

/**
 * Instantiates the WebAssembly core and returns the engine facade. Rejects with a readable
 * Error when WebAssembly is unavailable or the module cannot be loaded.
 * @returns {Promise<import('./index.js').Engine>}
 */
export async function loadEngine() {
  if (typeof WebAssembly !== 'object') {
    throw new Error('This browser cannot run WebAssembly, which the lesson needs for its figures.');
  }
  try {
    const options = await engineModuleOptions();
    const starting = createAttentionCore(options);
    const core = await ('failure' in options
      ? Promise.race([starting, options.failure])
      : starting);
    return createEngine(core);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(`The attention engine could not be loaded: ${reason}`, { cause: error });
  }
}

/**
 * The page's trained language model, in an engine of its own (or in `engine`, whose word vectors
 * it then replaces with the page's). The word vectors, weights and report are fetched from the
 * site's own folders (`embeddings/`, `models/`), relative to `base` (default: the page).
 * @param {{ engine?: import('./index.js').Engine, base?: string | URL }} [options]
 * @returns {Promise<import('./index.js').LanguageModel>}
 */
export async function loadLanguageModel({ engine, base = document.baseURI } = {}) {
  const bytes = (/** @type {string} */ path) => assetBytes(path, {}, base);
  const [core, vectors, weights, report] = await Promise.all([
    engine ?? loadEngine(),
    bytes(VECTORS_PATH),
    bytes(MODEL_PATHS.weights),
    bytes(MODEL_PATHS.report),
  ]);
  core.loadEmbeddings(vectors);
  return core.loadLanguageModel(weights, JSON.parse(new TextDecoder().decode(report)));
}

/**
 * The translators loadTranslator() has loaded or is loading, per engine (or `ownEngine`, for the
 * one it makes itself) and per base: each file is fetched and loaded once (the recurrent pair's
 * once for both models), and a failed load is tried again by the next call.
 * @type {WeakMap<object, Map<string, Promise<import('./translator.js').Translators>>>}
 */
const translatorLoads = new WeakMap();
/** @type {WeakMap<object, Map<string, Promise<import('./index.js').Translator>>>} */
const transformerLoads = new WeakMap();
const ownEngine = {};

/**
 * One of the page's translation models: lesson 1's 'attention' (the default) and 'fixed-vector'
 * (docs/translation.md), which share a file and an engine of their own, or lesson 2's
 * 'transformer' (docs/transformer.md), in a file and an engine of its own (or any of them in
 * `engine`, whose word vectors it then replaces with the page's). The word vectors, the model's
 * file and its report are fetched from the site's own folders (`embeddings/`, `models/`),
 * relative to `base` (default: the page), once per file.
 * @param {{ model?: import('./index.js').TranslatorModel, engine?: import('./index.js').Engine,
 *   base?: string | URL }} [options]
 * @returns {Promise<import('./index.js').Translator>}
 */
export async function loadTranslator({
  model = 'attention',
  engine,
  base = document.baseURI,
} = {}) {
  const which = requireTranslatorModel('loadTranslator', model);
  const key = engine ?? ownEngine;
  const place = String(base);
  if (which === TRANSFORMER_MODEL) {
    return once(transformerLoads, key, place, async () => {
      const [core, vectors, weights, report] = await fetchModel(engine, place, TRANSFORMER_PATHS);
      core.loadEmbeddings(vectors);
      return core.loadTransformer(weights, report);
    });
  }
  const both = await once(translatorLoads, key, place, async () => {
    const [core, vectors, weights, report] = await fetchModel(engine, place, TRANSLATION_PATHS);
    core.loadEmbeddings(vectors);
    return core.loadTranslators(weights, report);
  });
  return pickTranslator(both, which);
}

/**
 * The promise `loads` holds for key and place, or a new one from `load`, forgotten if it fails.
 * @template T
 * @param {WeakMap<object, Map<string, Promise<T>>>} loads
 * @param {object} key
 * @param {string} place
 * @param {() => Promise<T>} load
 * @returns {Promise<T>}
 */
function once(loads, key, place, load) {
  const byPlace = loads.get(key) ?? new Map();
  loads.set(key, byPlace);
  let loading = byPlace.get(place);
  if (!loading) {
    loading = load().catch((error) => {
      byPlace.delete(place);
      throw error;
    });
    byPlace.set(place, loading);
  }
  return loading;
}

/**
 * The engine (a new one unless given), the word vectors, and a model's file and report.
 * @param {import('./index.js').Engine | undefined} engine
 * @param {string} base
 * @param {{ weights: string, report: string }} paths
 * @returns {Promise<[import('./index.js').Engine, Uint8Array, Uint8Array, unknown]>}
 */
async function fetchModel(engine, base, paths) {
  const bytes = (/** @type {string} */ path) => assetBytes(path, {}, base);
  const [core, vectors, weights, report] = await Promise.all([
    engine ?? loadEngine(),
    bytes(VECTORS_PATH),
    bytes(paths.weights),
    bytes(paths.report),
  ]);
  return [core, vectors, weights, JSON.parse(new TextDecoder().decode(report))];
}
