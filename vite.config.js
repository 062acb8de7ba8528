// Vite configuration for the Attention Lab web app: the app lives in web/, the production build
// goes to dist/, and both the dev server and the preview server listen on 127.0.0.1 only.
import { defineConfig } from 'vite';

export default defineConfig({
  root: 'web',
  // Relative asset URLs, so the built page also works from a sub-folder.
  base: './',
  build: {
    outDir: '../dist',
    emptyOutDir: true,
    target: 'es2022',
  },
  server: {
    host: '127.0.0.1',
  },
  preview: {
    host: '127.0.0.1',
  },
});
