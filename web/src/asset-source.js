// Where the page gets its engine's WebAssembly and its binary files (word vectors, models,
// corpus samples): the site's own files, fetched relative to the page. Everything that loads
// such a file goes through here, so that the offline build (web/build/vite-plugin-offline.js)
// can swap this module for web/src/offline/asset-source.js, which reads them from the page.

/** The engine's WebAssembly, beside the engine (the bundler rewrites the URL to the built file). */
const wasmUrl = new URL('./engine/generated/attention-core.wasm', import.meta.url);

/**
 * What the Emscripten factory needs to find the engine's WebAssembly.
 * @returns {Promise<{ locateFile?: () => string, wasmBinary?: Uint8Array }>}
 */
export async function engineModuleOptions() {
  return { locateFile: () => wasmUrl.href };
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
  const response = await fetch(url, options.priority ? { priority: options.priority } : {});
  if (!response.ok) throw new Error(`${url.pathname}: ${response.status} ${response.statusText}`);
  return new Uint8Array(await response.arrayBuffer());
}
