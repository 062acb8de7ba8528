// loadEngine() for Node: reads the .wasm from disk and hands it to the generated factory, whose
// own loader would try to fetch() a file path. loadLanguageModel() and loadTranslator() read the
// files of web/public/.
import { readFile } from 'node:fs/promises';

import { TRANSLATION_PATHS } from '../data-files.js';
import createAttentionCore from './generated/attention-core.mjs';
import { createEngine } from './engine.js';
import { pickTranslator, requireTranslatorModel } from './translator.js';

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
 * one it makes itself): the file is read and loaded once for both models, and a failed load is
 * tried again by the next call.
 * @type {WeakMap<object, Promise<import('./translator.js').Translators>>}
 */
const translatorLoads = new WeakMap();
const ownEngine = {};

/**
 * One of the page's two translation models (docs/translation.md): 'attention' (the default) or
 * 'fixed-vector', in an engine of its own shared by both (or in `engine`, whose word vectors it
 * then replaces with the page's). The word vectors, the models' file
 * (web/public/models/translation.bin) and its report (translation.json) are read once for both.
 * @param {{ model?: import('./index.js').TranslatorModel, engine?: import('./index.js').Engine }}
 *   [options]
 * @returns {Promise<import('./index.js').Translator>}
 */
export async function loadTranslator({ model = 'attention', engine } = {}) {
  const which = requireTranslatorModel('loadTranslator', model);
  const key = engine ?? ownEngine;
  let loading = translatorLoads.get(key);
  if (!loading) {
    loading = loadTranslators(engine).catch((error) => {
      translatorLoads.delete(key);
      throw error;
    });
    translatorLoads.set(key, loading);
  }
  return pickTranslator(await loading, which);
}

/** @param {import('./index.js').Engine | undefined} engine */
async function loadTranslators(engine) {
  const [core, vectors, weights, report] = await Promise.all([
    engine ?? loadEngine(),
    readFile(new URL('embeddings/en-20k-100d.bin', publicUrl)),
    readFile(new URL(TRANSLATION_PATHS.weights, publicUrl)),
    readFile(new URL(TRANSLATION_PATHS.report, publicUrl), 'utf8'),
  ]);
  core.loadEmbeddings(new Uint8Array(vectors));
  return core.loadTranslators(new Uint8Array(weights), JSON.parse(report));
}
