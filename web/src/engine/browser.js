// loadEngine() for browsers and workers: the .wasm is fetched from beside this module (the
// bundler rewrites the URL to the built asset).
import createAttentionCore from './generated/attention-core.mjs';
import { createEngine } from './engine.js';

const wasmUrl = new URL('./generated/attention-core.wasm', import.meta.url);

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
    const core = await createAttentionCore({ locateFile: () => wasmUrl.href });
    return createEngine(core);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(`The attention engine could not be loaded: ${reason}`, { cause: error });
  }
}
