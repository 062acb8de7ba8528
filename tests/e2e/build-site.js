// Builds the site into dist/ once for all the end-to-end tests: `npm run test:e2e` runs this,
// then the test files, which only serve dist/ (useSite in browser.js). SITE_DIR=<absolute path>
// builds (and the tests then serve) another folder instead, so two builds need not share one.
// It also builds the single-file lesson, dist-offline/attention-lab.html (beside SITE_DIR when it
// is set; a few seconds), which offline-file.test.js opens.
import { fileURLToPath } from 'node:url';
import { build } from 'vite';
import { offlineDir, siteDir } from './site-dir.js';

const configFile = fileURLToPath(new URL('../../vite.config.js', import.meta.url));
const offlineConfigFile = fileURLToPath(new URL('../../vite.offline.config.js', import.meta.url));

await build({ configFile, logLevel: 'warn', build: { outDir: siteDir } });
await build({ configFile: offlineConfigFile, logLevel: 'warn', build: { outDir: offlineDir } });
