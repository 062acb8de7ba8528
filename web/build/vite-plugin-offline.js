// Vite plugin: the single-file lesson (npm run build:offline, vite.offline.config.js). One HTML
// file that opens from file:// with no network: from there ES module chunks, fetch() and worker
// files all fail, so everything the four pages need is in the file itself:
//
// - one script, inline, admitted by its hash: web/src/offline/main.js, which shows the page the
//   address asks for (?page=) and runs that page's own script;
// - the site's seams swapped for their offline modules (web/src/offline/): the asset source reads
//   the engine's WebAssembly and the binary files from data blocks of the page, the training
//   worker starts from a blob: address, and the links between the pages name ?page= instead of a
//   file;
// - each stylesheet put in the page by the module that imports it when that module runs, so a
//   page has its own styles only; fonts (KaTeX's woff2 only) as data: URLs;
// - the engine's WebAssembly and every file of web/public/, which the pages of every lesson read,
//   as base64 data blocks (a third larger than the files).
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { offlineHref } from '../src/offline/links.js';
import { ICON, headTags } from './vite-plugin-page-head.js';
import { markupText } from './markup-text.js';

/** The hosted module and its offline stand-in, relative to web/src/. */
const SWAPS = [
  ['app-updates.js', 'offline/app-updates.js'],
  ['asset-source.js', 'offline/asset-source.js'],
  ['links.js', 'offline/links.js'],
  ['train/start-worker.js', 'offline/start-worker.js'],
];

/** The pages the file holds: the name offline/main.js knows it by, and its hosted file. */
const PAGES = {
  deck: 'index.html',
  article: 'article.html',
  practice: 'practice.html',
  lessons: 'lessons.html',
};

/** The speaker view's inline script (the hosted deck admits it by the same hash). */
const SPEAKER_VIEW_HASH = "'sha256-GzCveToXhSIzS3M5eQeRm3McVRB7cYneYKwTkzA3wDk='";

const PAGES_ID = 'virtual:offline-pages';
const STYLE_PREFIX = '\0offline-style:';
const ENGINE_WASM = 'engine/generated/attention-core.wasm';
const ENGINE_ASSET = 'engine/attention-core.wasm';

/**
 * The Content-Security-Policy of the single file: nothing from anywhere, not even the file's own
 * folder; its one script by hash, its WebAssembly, its worker from the blob: address it makes,
 * its fonts and pictures from data: URLs it carries.
 * @param {string} scriptHash e.g. "'sha256-…'"
 * @returns {string}
 */
export function offlinePolicy(scriptHash) {
  return [
    "default-src 'none'",
    `script-src ${scriptHash} 'wasm-unsafe-eval' ${SPEAKER_VIEW_HASH}`,
    "style-src 'unsafe-inline'",
    'img-src data:',
    'font-src data:',
    'worker-src blob:',
    "frame-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
}

/**
 * Makes script text safe inside <script>…</script>: the HTML parser ends the element at
 * `</script` and changes state at `<!--`; both are rewritten to the same JavaScript.
 * @param {string} code
 * @returns {string}
 */
export function scriptText(code) {
  return code.replace(/<\/(script)/gi, '<\\/$1').replace(/<!--/g, '<\\!--');
}

/**
 * A page's body, title and body class, its links rewritten to the file's own pages.
 * @param {string} html the hosted page's source
 * @param {string} file its name, for messages
 */
export function pageBody(html, file) {
  const body = /<body([^>]*)>([\s\S]*)<\/body>/i.exec(html);
  const title = /<title>([^<]*)<\/title>/i.exec(html);
  if (!body || !title) throw new Error(`${file}: no <body> or no <title>`);
  const bodyClass = /\bclass="([^"]*)"/.exec(body[1])?.[1] ?? '';
  const links = body[2].replace(/\bhref="([^"]*)"/g, (_, href) => `href="${offlineHref(href)}"`);
  return { title: title[1], bodyClass, body: links.trim() };
}

/**
 * Every file under a folder, as [path relative to it, with '/', absolute path].
 * @param {string} dir
 * @returns {[string, string][]}
 */
function filesUnder(dir) {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => {
      const file = path.join(entry.parentPath, entry.name);
      return /** @type {[string, string]} */ ([
        path.relative(dir, file).split(path.sep).join('/'),
        file,
      ]);
    })
    .sort(([a], [b]) => a.localeCompare(b));
}

/**
 * The single file.
 * @param {{ code: string, assets: [string, Buffer][], title: string }} parts the page's script,
 *   the data blocks by name, and the title the file has until its script names the page it
 *   shows: the module's, as the file holds every lesson
 */
export function singleFile({ code, assets, title }) {
  const script = scriptText(code);
  const hash = `'sha256-${createHash('sha256').update(script).digest('base64')}'`;
  const indent = '    ';
  const blocks = assets.map(
    ([name, bytes]) =>
      `${indent}<script type="application/octet-stream" data-asset="${name}">${bytes.toString('base64')}</script>`,
  );
  return [
    '<!doctype html>',
    '<html lang="en">',
    '  <head>',
    ...headTags(offlinePolicy(hash), ICON).map((line) => indent + line),
    `${indent}<title>${markupText(title)}</title>`,
    ...blocks,
    `${indent}<script type="module">${script}</script>`,
    '  </head>',
    '  <body>',
    '    <noscript><p class="noscript">This lesson runs in JavaScript and WebAssembly; please turn JavaScript on.</p></noscript>',
    '  </body>',
    '</html>',
    '',
  ].join('\n');
}

/**
 * @param {{ web: string, fileName: string, title: string }} options web: the project's web/
 *   folder; fileName: the file to write, e.g. 'attention-lab.html'; title: the file's first title
 *   (the module's, moduleText)
 * @returns {import('vite').Plugin[]} the plugins of the page; the swaps alone are also what the
 *   worker's bundle needs (offlinePlugin.swaps)
 */
export default function offlinePlugin({ web, fileName, title }) {
  const src = path.join(web, 'src');
  return [
    swapPlugin(src),
    {
      name: 'attention-lab:offline-pages',
      enforce: 'pre',
      resolveId(id) {
        return id === PAGES_ID ? `\0${PAGES_ID}` : undefined;
      },
      load(id) {
        if (id !== `\0${PAGES_ID}`) return undefined;
        const pages = Object.fromEntries(
          Object.entries(PAGES).map(([name, file]) => {
            const source = path.join(web, file);
            this.addWatchFile(source);
            return [name, pageBody(readFileSync(source, 'utf8'), file)];
          }),
        );
        return `export default ${JSON.stringify(pages)};\n`;
      },
    },
    {
      name: 'attention-lab:offline-styles',
      enforce: 'pre',
      resolveId: {
        filter: { id: /\.css$/ },
        async handler(source, importer) {
          if (!importer || importer.startsWith(STYLE_PREFIX) || /\.css(\?|$)/.test(importer)) {
            return null;
          }
          const resolved = await this.resolve(source, importer, { skipSelf: true });
          // Named .js, so that the bundler's own stylesheet handling leaves this module alone.
          return resolved ? `${STYLE_PREFIX}${resolved.id}.js` : null;
        },
      },
      load(id) {
        if (!id.startsWith(STYLE_PREFIX)) return undefined;
        const file = id.slice(STYLE_PREFIX.length, -'.js'.length);
        const addStyle = path.join(src, 'offline/page-style.js');
        return [
          `import css from ${JSON.stringify(`${file}?inline`)};`,
          `import { addStyle } from ${JSON.stringify(addStyle)};`,
          'addStyle(css);',
        ].join('\n');
      },
      transform(code, id) {
        // KaTeX names a woff2, a woff and a ttf for each face: every browser that runs the lesson
        // takes the woff2, so only it is carried.
        if (!/katex(\.min)?\.css$/.test(id.split('?')[0])) return undefined;
        return code.replace(/,\s*url\([^)]*\.(?:woff|ttf)\)\s*format\("(?:woff|truetype)"\)/g, '');
      },
    },
    {
      name: 'attention-lab:offline-file',
      enforce: 'post',
      apply: 'build',
      // After every other plugin's generateBundle: Vite fills in its dynamic-import helper there.
      generateBundle: { order: 'post', handler: assemble },
    },
  ];

  /**
   * Turns the bundle (one script) into the one HTML file.
   * @this {import('vite').Rollup.PluginContext}
   * @param {unknown} _
   * @param {import('vite').Rollup.OutputBundle} bundle
   */
  function assemble(_, bundle) {
    const outputs = Object.values(bundle);
    const chunks = outputs.filter((file) => file.type === 'chunk');
    // The engine's WebAssembly goes in as a data block: the copy the bundler made (for the
    // loader's own, unused, address of it) is left out.
    const loose = outputs.filter(
      (file) => file.type === 'asset' && !/attention-core-[\w-]+\.wasm$/.test(file.fileName),
    );
    if (chunks.length !== 1 || loose.length > 0) {
      const names = [...chunks, ...loose].map((file) => file.fileName).join(', ');
      this.error(`offline: the lesson must be one script and no other file, not ${names}`);
    }
    const [chunk] = /** @type {import('vite').Rollup.OutputChunk[]} */ (chunks);
    for (const file of Object.keys(bundle)) delete bundle[file];
    const assets = /** @type {[string, Buffer][]} */ ([
      [ENGINE_ASSET, readFileSync(path.join(src, ENGINE_WASM))],
      ...filesUnder(path.join(web, 'public')).map(([name, file]) => [name, readFileSync(file)]),
    ]);
    const source = singleFile({ code: chunk.code, assets, title });
    this.emitFile({ type: 'asset', fileName, source });
  }
}

/**
 * Puts the offline modules of SWAPS in place of the hosted ones, however they are imported.
 * @param {string} src the project's web/src/ folder
 * @returns {import('vite').Plugin}
 */
export function swapPlugin(src) {
  const swaps = new Map(SWAPS.map(([from, to]) => [path.join(src, from), path.join(src, to)]));
  return {
    name: 'attention-lab:offline-swaps',
    enforce: 'pre',
    resolveId: {
      filter: { id: /\.js$/ },
      async handler(source, importer, options) {
        if (!importer) return null;
        const resolved = await this.resolve(source, importer, { ...options, skipSelf: true });
        const swapped = resolved && swaps.get(resolved.id);
        return swapped && importer !== swapped ? swapped : null;
      },
    },
  };
}
