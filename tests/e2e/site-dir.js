// The folder the end-to-end tests build the site into and serve it from: dist/, or SITE_DIR when
// it is set (an absolute path), so that two builds at once need not share one folder.
import { isAbsolute, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const fromEnv = process.env.SITE_DIR;
if (fromEnv && !isAbsolute(fromEnv)) {
  throw new Error(`SITE_DIR must be an absolute path, not "${fromEnv}"`);
}

/** @type {string} */
export const siteDir = fromEnv || fileURLToPath(new URL('../../dist', import.meta.url));

/**
 * The folder of the single-file lesson the end-to-end tests build: dist-offline/ (where npm run
 * build:offline writes it too), or beside SITE_DIR, with -offline added to its name.
 * @type {string}
 */
export const offlineDir = fromEnv
  ? `${fromEnv.replace(/[\\/]+$/, '')}-offline`
  : fileURLToPath(new URL('../../dist-offline', import.meta.url));

/** The single-file lesson itself. */
export const offlineFile = join(offlineDir, 'attention-lab.html');
