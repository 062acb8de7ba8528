// Vite configuration of the single-file lesson: `npm run build:offline` writes
// dist-offline/attention-lab.html, the whole lesson in one file that opens from file:// with no
// network (web/build/vite-plugin-offline.js says how). The hosted site's build is vite.config.js.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import lessonPlugin from './web/build/vite-plugin-lesson.js';
import { lessonMetas, moduleText } from './web/build/module-text.js';
import offlinePlugin, { swapPlugin } from './web/build/vite-plugin-offline.js';

const fromRoot = (file) => fileURLToPath(new URL(file, import.meta.url));

/** The file the build writes, in dist-offline/. */
export const OFFLINE_FILE = 'attention-lab.html';

export default defineConfig({
  root: 'web',
  base: './',
  // The site's public files go into the page as data blocks, not beside it.
  publicDir: false,
  plugins: [
    lessonPlugin({ dir: fromRoot('slides') }),
    offlinePlugin({
      web: fromRoot('web'),
      fileName: OFFLINE_FILE,
      title: moduleText(lessonMetas(fromRoot('slides'))).name,
    }),
  ],
  build: {
    outDir: '../dist-offline',
    emptyOutDir: true,
    target: 'es2022',
    modulePreload: false,
    // Every font and picture a stylesheet names goes in as a data: URL. The engine's WebAssembly
    // does not: the page hands it to the engine from a data block, and the copy the loader names
    // is left out of the file.
    assetsInlineLimit: (file) => !file.endsWith('.wasm'),
    chunkSizeWarningLimit: 8192,
    reportCompressedSize: false,
    rolldownOptions: {
      input: fromRoot('web/src/offline/main.js'),
      output: { codeSplitting: false },
    },
  },
  worker: {
    // A classic worker: Chromium refuses a module worker from a blob: address of a file:// page.
    format: 'iife',
    plugins: () => [swapPlugin(fromRoot('web/src'))],
    rolldownOptions: { output: { codeSplitting: false } },
  },
});
