// Vite configuration for the Attention Lab web app: the app lives in web/, the production build
// goes to dist/, and both the dev server and the preview server listen on 127.0.0.1 only.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';
import { ICON_COLOURS, ICON_SIZES, appIconsPlugin, iconFile } from './web/build/app-icons.js';
import framePolicyPlugin from './web/build/vite-plugin-frame-policy.js';
import { lessonMetas, moduleText } from './web/build/module-text.js';
import lessonPlugin from './web/build/vite-plugin-lesson.js';
import pageHeadPlugin from './web/build/vite-plugin-page-head.js';
import preloadEnginePlugin from './web/build/vite-plugin-preload-engine.js';
import preloadFontsPlugin from './web/build/vite-plugin-preload-fonts.js';

const fromRoot = (file) => fileURLToPath(new URL(file, import.meta.url));

/**
 * The pages of the build; one that does not exist yet is left out rather than failing it. embed
 * shows one figure alone, for other sites to frame (web/src/embed/main.js).
 */
const PAGES = ['index', 'article', 'practice', 'lessons', 'embed'];
const input = Object.fromEntries(
  PAGES.map((name) => [name, fromRoot(`web/${name}.html`)]).filter(([, file]) => existsSync(file)),
);

/** The installed app's name and description: the module, with every lesson of slides/. */
const app = moduleText(lessonMetas(fromRoot('slides')));

export default defineConfig({
  root: 'web',
  // Relative asset URLs, so the built page also works from a sub-folder.
  base: './',
  // The lessons of slides/, checked and rendered (web/src/lesson.js picks the one a page shows).
  // KaTeX's CSS and fonts come in through `import './styles/katex.js'` in a page module.
  // Every page gets the shared head (charset, viewport, icon, its Content-Security-Policy) from
  // pageHeadPlugin; a page that runs the engine preloads it (preloadEnginePlugin); every page
  // preloads its main text face (preloadFontsPlugin; the fonts: web/src/styles/fonts.css). The
  // dev and preview servers say who may frame each page (framePolicyPlugin: embed.html anyone).
  plugins: [
    lessonPlugin({ dir: fromRoot('slides') }),
    pageHeadPlugin(),
    preloadEnginePlugin(),
    preloadFontsPlugin(),
    framePolicyPlugin(),
    // The installable lesson: its icons, its web app manifest (linked from every page) and a
    // service worker that precaches the whole site (web/src/app-updates.js registers it).
    appIconsPlugin(),
    VitePWA({
      injectRegister: false,
      registerType: 'prompt',
      manifest: {
        name: app.name,
        short_name: 'Attention Lab',
        description: app.description,
        lang: 'en',
        start_url: './index.html',
        scope: './',
        display: 'standalone',
        theme_color: ICON_COLOURS.dark,
        background_color: '#f5f6f8',
        icons: ICON_SIZES.flatMap((size) =>
          ['any', 'maskable'].map((purpose) => ({
            src: iconFile(size),
            sizes: `${size}x${size}`,
            type: 'image/png',
            purpose,
          })),
        ),
      },
      includeManifestIcons: false,
      workbox: {
        // Every file a page can ask for: Workbox's default takes only scripts, styles and pages.
        // KaTeX's woff and ttf fonts stay out: browsers take its woff2.
        globPatterns: ['**/*.{html,js,css,wasm,woff2,bin,json,png,webmanifest}'],
        // The word vectors (2.2 MB), the translation models (2.7 MB) and lesson 2's Transformer
        // (3.8 MB) are over Workbox's default limit of 2 MiB; installable.test.js checks that no
        // file of the site is over this one.
        maximumFileSizeToCacheInBytes: 4 * 1024 * 1024,
        // A figure link and the article's ?from= are the same precached page.
        ignoreURLParametersMatching: [/.*/],
        // Files named by their content need no revision of their own.
        dontCacheBustURLsMatching: /^assets\/.+-[\w-]{8}\.\w+$/,
        cleanupOutdatedCaches: true,
        // The first visit's pages are controlled as soon as the files are in. A new version's
        // worker waits instead (no skipWaiting) until the page's offer to reload is taken.
        clientsClaim: true,
      },
    }),
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
