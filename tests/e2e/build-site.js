// Builds the site into dist/ once for all the end-to-end tests: `npm run test:e2e` runs this,
// then the test files, which only serve dist/ (useSite in browser.js).
import { fileURLToPath } from 'node:url';
import { build } from 'vite';

const configFile = fileURLToPath(new URL('../../vite.config.js', import.meta.url));

await build({ configFile, logLevel: 'warn' });
