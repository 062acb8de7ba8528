// loadEngine() for Node: reads the .wasm from disk and hands it to the generated factory, whose
// own loader would try to fetch() a file path. loadLanguageModel() reads the committed files.
import { readFile } from 'node:fs/promises';

import createAttentionCore from './generated/attention-core.mjs';
import { createEngine } from './engine.js';

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
