// The folder the end-to-end tests build the site into and serve it from: dist/, or SITE_DIR when
// it is set (an absolute path), so that two builds at once need not share one folder.
import { isAbsolute } from 'node:path';
import { fileURLToPath } from 'node:url';

const fromEnv = process.env.SITE_DIR;
if (fromEnv && !isAbsolute(fromEnv)) {
  throw new Error(`SITE_DIR must be an absolute path, not "${fromEnv}"`);
}

/** @type {string} */
export const siteDir = fromEnv || fileURLToPath(new URL('../../dist', import.meta.url));

/** The single-file lesson the end-to-end tests build (npm run build:offline writes the same). */
export const offlineFile = fileURLToPath(
  new URL('../../dist-offline/attention-lab.html', import.meta.url),
);
