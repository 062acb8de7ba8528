// Vite plugin: a page that runs the attention engine asks for it from its head, so the engine's
// script and its WebAssembly download while the page's own script is still being read, instead of
// one after the other. Only in the build: the dev server serves modules one by one anyway.

const ENGINE_MODULE = /web\/src\/engine\/browser\.js$/;
const ENGINE_WASM = /attention-core-[\w-]+\.wasm$/;
/** Pages whose Content-Security-Policy admits WebAssembly are the ones that run the engine. */
const RUNS_ENGINE = /http-equiv="Content-Security-Policy"[^>]*'wasm-unsafe-eval'/;

/**
 * The preload tags for the engine, given the names of the built files.
 * @param {string | undefined} moduleFile the engine's script, e.g. 'assets/browser-1234.js'
 * @param {string | undefined} wasmFile its WebAssembly, e.g. 'assets/attention-core-abcd.wasm'
 * @returns {import('vite').HtmlTagDescriptor[]}
 */
export function engineTags(moduleFile, wasmFile) {
  const tags = [];
  if (moduleFile) {
    tags.push({
      tag: 'link',
      attrs: { rel: 'modulepreload', crossorigin: true, href: `./${moduleFile}` },
      injectTo: 'head',
    });
  }
  if (wasmFile) {
    // The engine fetches it in cors mode with same-origin credentials; `crossorigin` matches that,
    // so the browser reuses this download rather than making a second one.
    tags.push({
      tag: 'link',
      attrs: {
        rel: 'preload',
        as: 'fetch',
        type: 'application/wasm',
        crossorigin: true,
        href: `./${wasmFile}`,
      },
      injectTo: 'head',
    });
  }
  return tags;
}

/** @returns {import('vite').Plugin} */
export default function preloadEnginePlugin() {
  return {
    name: 'attention-lab-preload-engine',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html, ctx) {
        if (!ctx.bundle || !RUNS_ENGINE.test(html)) return html;
        const files = Object.values(ctx.bundle);
        const moduleFile = files.find(
          (file) => file.type === 'chunk' && file.moduleIds.some((id) => ENGINE_MODULE.test(id)),
        )?.fileName;
        const wasmFile = files.find(
          (file) => file.type === 'asset' && ENGINE_WASM.test(file.fileName),
        )?.fileName;
        if (!moduleFile || !wasmFile) {
          this.error?.('preload-engine: the engine script or its WebAssembly is not in the build');
        }
        // A page that imports the engine statically already preloads its script.
        const notListed = (file) => file && !html.includes(`/${file}"`);
        return { html, tags: engineTags(notListed(moduleFile) ? moduleFile : undefined, wasmFile) };
      },
    },
  };
}
