// loadEngine() for Node: reads the .wasm from disk and hands it to the generated factory, whose
// own loader would try to fetch() a file path. loadLanguageModel() and loadTranslator() read the
// files of web/public/.
import { readFile } from 'node:fs/promises';

import { TRANSFORMER_PATHS, TRANSLATION_PATHS } from '../data-files.js';
import createAttentionCore from './generated/attention-core.mjs';
import { createEngine } from './engine.js';
import { pickTranslator, requireTranslatorModel, TRANSFORMER_MODEL } from './translator.js';

const wasmUrl = new URL('./generated/attention-core.wasm', import.meta.url);
const publicUrl = new URL('../../public/', import.meta.url);

/**
 * Instantiates the WebAssembly core and returns the engine facade.
 * @returns {Promise<import('./index.js').Engine>}
 */
export async function loadEngine() {
  const wasmBinary = await readFile(wasmUrl);
  return createEngine(await createAttentionCore({ wasmBinary }));
}

/**
 * The page's trained language model, in an engine of its own (or in `engine`, whose word vectors
 * it then replaces with the page's): the word vectors, the weights and their report are read from
 * web/public/.
 * @param {{ engine?: import('./index.js').Engine }} [options]
 * @returns {Promise<import('./index.js').LanguageModel>}
 */
export async function loadLanguageModel({ engine } = {}) {
  const [core, vectors, weights, report] = await Promise.all([
    engine ?? loadEngine(),
    readFile(new URL('embeddings/en-20k-100d.bin', publicUrl)),
    readFile(new URL('models/brown-lm.bin', publicUrl)),
    readFile(new URL('models/brown-lm.json', publicUrl), 'utf8'),
  ]);
  core.loadEmbeddings(new Uint8Array(vectors));
  return core.loadLanguageModel(new Uint8Array(weights), JSON.parse(report));
}

/**
 * The translators loadTranslator() has loaded or is loading, per engine (or `ownEngine`, for the
 * one it makes itself): each file is read and loaded once (the recurrent pair's once for both
 * models), and a failed load is tried again by the next call.
 * @type {WeakMap<object, Promise<import('./translator.js').Translators>>}
 */
const translatorLoads = new WeakMap();
/** @type {WeakMap<object, Promise<import('./index.js').Translator>>} */
const transformerLoads = new WeakMap();
const ownEngine = {};

/**
 * One of the page's translation models: lesson 1's 'attention' (the default) and 'fixed-vector'
 * (docs/translation.md), which share a file and an engine of their own, or lesson 2's
 * 'transformer' (docs/transformer.md), in a file and an engine of its own (or any of them in
 * `engine`, whose word vectors it then replaces with the page's). The word vectors, the model's
 * file (web/public/models/translation.bin or transformer.bin) and its report (.json beside it)
 * are read once per file.
 * @param {{ model?: import('./index.js').TranslatorModel, engine?: import('./index.js').Engine }}
 *   [options]
 * @returns {Promise<import('./index.js').Translator>}
 */
export async function loadTranslator({ model = 'attention', engine } = {}) {
  const which = requireTranslatorModel('loadTranslator', model);
  const key = engine ?? ownEngine;
  if (which === TRANSFORMER_MODEL) {
    return once(transformerLoads, key, async () => {
      const [core, vectors, weights, report] = await readModel(engine, TRANSFORMER_PATHS);
      core.loadEmbeddings(vectors);
      return core.loadTransformer(weights, report);
    });
  }
  const both = await once(translatorLoads, key, async () => {
    const [core, vectors, weights, report] = await readModel(engine, TRANSLATION_PATHS);
    core.loadEmbeddings(vectors);
    return core.loadTranslators(weights, report);
  });
  return pickTranslator(both, which);
}

/**
 * The promise `loads` holds for key, or a new one from `load`, forgotten if it fails.
 * @template T
 * @param {WeakMap<object, Promise<T>>} loads
 * @param {object} key
 * @param {() => Promise<T>} load
 * @returns {Promise<T>}
 */
function once(loads, key, load) {
  let loading = loads.get(key);
  if (!loading) {
    loading = load().catch((error) => {
      loads.delete(key);
      throw error;
    });
    loads.set(key, loading);
  }
  return loading;
}

/**
 * The engine (a new one unless given), the word vectors, and a model's file and report.
 * @param {import('./index.js').Engine | undefined} engine
 * @param {{ weights: string, report: string }} paths
 * @returns {Promise<[import('./index.js').Engine, Uint8Array, Uint8Array, unknown]>}
 */
async function readModel(engine, paths) {
  const [core, vectors, weights, report] = await Promise.all([
    engine ?? loadEngine(),
    readFile(new URL('embeddings/en-20k-100d.bin', publicUrl)),
    readFile(new URL(paths.weights, publicUrl)),
    readFile(new URL(paths.report, publicUrl), 'utf8'),
  ]);
  return [core, new Uint8Array(vectors), new Uint8Array(weights), JSON.parse(report)];
}
