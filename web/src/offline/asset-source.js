// The asset source of the single-file lesson (npm run build:offline; web/build/vite-plugin-offline.js
// puts this module in place of web/src/asset-source.js). The file carries the engine's
// WebAssembly and every binary file of the site in data blocks of its own head,
//
//   <script type="application/octet-stream" data-asset="models/brown-lm.bin">base64…</script>
//
// which never run, so nothing is fetched: from file:// a fetch() would fail. A worker has no page
// to read: the training worker gets the engine's bytes from the page in its first message
// (start-worker.js), and every other file it needs in the messages that start a run.

/** The data block that holds the engine's WebAssembly. */
export const ENGINE_ASSET = 'engine/attention-core.wasm';
/** The type of the message that hands a worker the engine's bytes. */
export const ENGINE_MESSAGE = 'attention-lab:engine-bytes';

const inPage = typeof document !== 'undefined';

/**
 * In a worker: the engine's bytes, once the page has sent them. This module runs before the
 * worker's own code, so its listener is the first: it takes that one message for itself.
 * @type {Promise<Uint8Array> | undefined}
 */
const fromPage = inPage
  ? undefined
  : new Promise((resolve) => {
      /** @param {MessageEvent} event */
      const take = (event) => {
        if (event.data?.type !== ENGINE_MESSAGE) return;
        event.stopImmediatePropagation();
        self.removeEventListener('message', take);
        resolve(event.data.bytes);
      };
      self.addEventListener('message', take);
    });

/**
 * The bytes of one of the file's data blocks.
 * @param {string} path e.g. 'embeddings/en-20k-100d.bin'
 * @returns {Uint8Array}
 */
export function embeddedBytes(path) {
  const block = [...document.querySelectorAll('script[type="application/octet-stream"]')].find(
    (node) => /** @type {HTMLElement} */ (node).dataset.asset === path,
  );
  if (!block) throw new Error(`${path}: not in this file`);
  return decodeBase64((block.textContent ?? '').replace(/\s+/g, ''));
}

/**
 * @param {string} text base64
 * @returns {Uint8Array}
 */
function decodeBase64(text) {
  const fromBase64 = /** @type {any} */ (Uint8Array).fromBase64;
  if (typeof fromBase64 === 'function') return fromBase64(text);
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let k = 0; k < binary.length; k += 1) bytes[k] = binary.charCodeAt(k);
  return bytes;
}

/**
 * Starts what the engine needs before it is loaded: nothing here, its bytes are in the page.
 * @returns {Promise<void>}
 */
export async function prepareEngine() {}

/**
 * What the Emscripten factory needs: the engine's bytes themselves, so it fetches nothing, and a
 * locateFile that keeps it from resolving the file against a blob: address.
 * @returns {Promise<{ locateFile?: (file: string) => string, wasmBinary?: Uint8Array }>}
 */
export async function engineModuleOptions() {
  const wasmBinary = fromPage ? await fromPage : embeddedBytes(ENGINE_ASSET);
  return { wasmBinary, locateFile: (file) => file };
}

/**
 * The bytes of one of the site's files, from the page's data blocks.
 * @param {string} path relative to the page, e.g. 'models/brown-lm.bin'
 * @returns {Promise<Uint8Array>} rejects when the file does not carry it
 */
export async function assetBytes(path) {
  if (!inPage) throw new Error(`${path}: a worker reads no files in the single-file lesson`);
  return embeddedBytes(path);
}
