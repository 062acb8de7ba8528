// loadEngine() for Node: reads the .wasm from disk and hands it to the generated factory, whose
// own loader would try to fetch() a file path.
import { readFile } from 'node:fs/promises';

import createAttentionCore from './generated/attention-core.mjs';
import { createEngine } from './engine.js';

const wasmUrl = new URL('./generated/attention-core.wasm', import.meta.url);

/**
 * Instantiates the WebAssembly core and returns the engine facade.
 * @returns {Promise<import('./index.js').Engine>}
 */
export async function loadEngine() {
  const wasmBinary = await readFile(wasmUrl);
  return createEngine(await createAttentionCore({ wasmBinary }));
}
