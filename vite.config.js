// Vite configuration for the Attention Lab web app: the app lives in web/, the production build
// goes to dist/, and both the dev server and the preview server listen on 127.0.0.1 only.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import lessonPlugin from './web/build/vite-plugin-lesson.js';
import pageHeadPlugin from './web/build/vite-plugin-page-head.js';
import preloadEnginePlugin from './web/build/vite-plugin-preload-engine.js';
import preloadFontsPlugin from './web/build/vite-plugin-preload-fonts.js';

const fromRoot = (file) => fileURLToPath(new URL(file, import.meta.url));

/** The pages of the build; one that does not exist yet is left out rather than failing it. */
const PAGES = ['index', 'article', 'practice', 'lessons'];
const input = Object.fromEntries(
  PAGES.map((name) => [name, fromRoot(`web/${name}.html`)]).filter(([, file]) => existsSync(file)),
);

export default defineConfig({
  root: 'web',
  // Relative asset URLs, so the built page also works from a sub-folder.
  base: './',
  // `import lesson from 'virtual:lesson'`: the checked, rendered content of slides/.
  // KaTeX's CSS and fonts come in through `import './styles/katex.js'` in a page module.
  // Every page gets the shared head (charset, viewport, icon, its Content-Security-Policy) from
  // pageHeadPlugin; a page that runs the engine preloads it (preloadEnginePlugin); every page
  // preloads its main text face (preloadFontsPlugin; the fonts: web/src/styles/fonts.css).
  plugins: [
    lessonPlugin({ dir: fromRoot('slides') }),
    pageHeadPlugin(),
    preloadEnginePlugin(),
    preloadFontsPlugin(),
  ],
  build: {
    outDir: '../dist',
    emptyOutDir: true,
    target: 'es2022',
    rolldownOptions: { input },
    // The lesson chunk carries every slide's math pre-rendered as KaTeX HTML plus MathML: about
    // 650 kB, 50 kB compressed, and shared by all the pages.
    chunkSizeWarningLimit: 1024,
    // Fonts stay files, never data: URLs, so every page's font-src 'self' admits them.
    assetsInlineLimit: (file) => (/\.(woff2?|ttf)$/.test(file) ? false : undefined),
  },
  // The training worker (web/src/train/worker.js) is an ES module, as the engine it loads is.
  worker: { format: 'es' },
  server: {
    host: '127.0.0.1',
  },
  preview: {
    host: '127.0.0.1',
  },
});
