// Where the page gets its engine's WebAssembly and its binary files (word vectors, models,
// corpus samples): the site's own files, fetched relative to the page. Everything that loads
// such a file goes through here, so that the offline build (web/build/vite-plugin-offline.js)
// can swap this module for web/src/offline/asset-source.js, which reads them from the page.

import { onceRetrying } from './once-retrying.js';

/** The engine's WebAssembly, beside the engine (the bundler rewrites the URL to the built file). */
const wasmUrl = new URL('./engine/generated/attention-core.wasm', import.meta.url);

/**
 * Starts compiling the engine's WebAssembly (the first call) as its bytes arrive, so that the
 * browser compiles it off the main thread while the page sets itself up; loading the engine then
 * only instantiates it. A failed compile is tried again by the next call.
 * @type {() => Promise<WebAssembly.Module>}
 */
export const prepareEngine = onceRetrying(compileEngine);

/**
 * The response for `url`, which rejects with the file and the server's status unless it is ok.
 * @param {URL} url
 * @param {RequestInit} init
 * @returns {Promise<Response>}
 */
async function fetchOk(url, init) {
  const response = await fetch(url, init);
  if (!response.ok) throw new Error(`${url.pathname}: ${response.status} ${response.statusText}`);
  return response;
}

/** @returns {Promise<WebAssembly.Module>} */
async function compileEngine() {
  const response = await fetchOk(wasmUrl, { credentials: 'same-origin' });
  // Compiling while the bytes stream in needs the server to call them application/wasm.
  const type = response.headers.get('content-type') ?? '';
  if (typeof WebAssembly.compileStreaming === 'function' && type.startsWith('application/wasm')) {
    return WebAssembly.compileStreaming(response);
  }
  return WebAssembly.compile(await response.arrayBuffer());
}

/**
 * What the Emscripten factory needs to start the engine: it instantiates the module compiled by
 * prepareEngine. `failure` rejects when that fails (the factory itself would wait for ever).
 * @returns {Promise<{ instantiateWasm: (imports: WebAssembly.Imports,
 *   receive: (instance: WebAssembly.Instance, module: WebAssembly.Module) => void) => object,
 *   failure: Promise<never> }>}
 */
export async function engineModuleOptions() {
  const module = await prepareEngine();
  /** @type {(error: unknown) => void} */
  let fail = () => {};
  /** @type {Promise<never>} */
  const failure = new Promise((_, reject) => {
    fail = reject;
  });
  return {
    instantiateWasm(imports, receive) {
      WebAssembly.instantiate(module, imports).then((instance) => receive(instance, module), fail);
      // An empty object tells the factory that the instance comes later, through `receive`.
      return {};
    },
    failure,
  };
}

/**
 * The bytes of one of the site's files.
 * @param {string} path relative to the page, e.g. 'models/brown-lm.bin'
 * @param {{ priority?: 'high' | 'low' | 'auto' }} [options] the download's priority
 * @param {string | URL} [base] what `path` is relative to (default: the page)
 * @returns {Promise<Uint8Array>} rejects with the file and the server's status when it fails
 */
export async function assetBytes(path, options = {}, base = document.baseURI) {
  const url = new URL(path, base);
  const response = await fetchOk(url, options.priority ? { priority: options.priority } : {});
  return new Uint8Array(await response.arrayBuffer());
}
