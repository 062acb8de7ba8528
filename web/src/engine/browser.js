// loadEngine() for browsers and workers: the .wasm comes from the page's asset source
// (web/src/asset-source.js: fetched from beside this module, or read from the page offline).
import { assetBytes, engineModuleOptions } from '../asset-source.js';
import { MODEL_PATHS, TRANSLATION_PATHS, VECTORS_PATH } from '../data-files.js';
import createAttentionCore from './generated/attention-core.mjs';
import { createEngine } from './engine.js';
import { pickTranslator, requireTranslatorModel } from './translator.js';

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
 * one it makes itself) and per base: the file is fetched and loaded once for both models, and a
 * failed load is tried again by the next call.
 * @type {WeakMap<object, Map<string, Promise<import('./translator.js').Translators>>>}
 */
const translatorLoads = new WeakMap();
const ownEngine = {};

/**
 * One of the page's two translation models (docs/translation.md): 'attention' (the default) or
 * 'fixed-vector', in an engine of its own shared by both (or in `engine`, whose word vectors it
 * then replaces with the page's). The word vectors, the models' file and its report are fetched
 * from the site's own folders (`embeddings/`, `models/`), relative to `base` (default: the page),
 * once for both models.
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
  const loads = translatorLoads.get(key) ?? new Map();
  translatorLoads.set(key, loads);
  const place = String(base);
  let loading = loads.get(place);
  if (!loading) {
    loading = loadTranslators(engine, place).catch((error) => {
      loads.delete(place);
      throw error;
    });
    loads.set(place, loading);
  }
  return pickTranslator(await loading, which);
}

/**
 * @param {import('./index.js').Engine | undefined} engine
 * @param {string} base
 */
async function loadTranslators(engine, base) {
  const bytes = (/** @type {string} */ path) => assetBytes(path, {}, base);
  const [core, vectors, weights, report] = await Promise.all([
    engine ?? loadEngine(),
    bytes(VECTORS_PATH),
    bytes(TRANSLATION_PATHS.weights),
    bytes(TRANSLATION_PATHS.report),
  ]);
  core.loadEmbeddings(vectors);
  return core.loadTranslators(weights, JSON.parse(new TextDecoder().decode(report)));
}
