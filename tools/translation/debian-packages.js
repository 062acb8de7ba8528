// Fetches pinned versions of Debian packages with apt and unpacks them into one folder, for the
// translation corpus: `apt-get download NAME=VERSION` (no root needed) and `dpkg-deb -x`. Each
// downloaded file's SHA-256 must match the pinned one, so a rebuilt package cannot slip in.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import process from 'node:process';

/**
 * @typedef {object} PinnedDeb
 * @property {string} name e.g. 'trans-de-en'
 * @property {string} version e.g. '1.9-6', as apt-cache policy lists it
 * @property {string} sha256 of the .deb file
 */

/**
 * The versions apt knows of a package (`apt-cache policy NAME`), or null when apt does not know
 * the package at all.
 * @param {string} name
 * @returns {string[] | null}
 */
export function aptVersions(name) {
  const policy = execFileSync('apt-cache', ['policy', name], { encoding: 'utf8' });
  return policyVersions(policy);
}

/**
 * The versions of the version table in the output of `apt-cache policy` for one package, or null
 * when it has no version table (apt knows no such package).
 * @param {string} policy
 * @returns {string[] | null}
 */
export function policyVersions(policy) {
  const lines = policy.split('\n');
  const table = lines.findIndex((line) => line.trim() === 'Version table:');
  if (table < 0) return null;
  const versions = [];
  for (const line of lines.slice(table + 1)) {
    // A version line: "     1.9-6 500" or " *** 1.9-6 100"; its sources are indented further.
    const match = /^ (?:\*\*\*| {3}) (\S+) \d+$/.exec(line);
    if (match) versions.push(match[1]);
  }
  return versions;
}

/**
 * Downloads the pinned packages into `folder` and unpacks them all into `folder/root`. When apt
 * knows none of a package, the package lists are missing: as root this runs `apt-get update`
 * once, otherwise it stops and says to run it.
 * @param {string} folder an empty temporary folder
 * @param {PinnedDeb[]} packages
 * @returns {string} the folder the packages are unpacked into (it holds usr/share/...)
 */
export function downloadPinned(folder, packages) {
  let updated = false;
  for (const { name, version } of packages) {
    let versions = aptVersions(name);
    if (versions === null && !updated && process.getuid?.() === 0) {
      console.log(`apt knows no package ${name}: its package lists are missing; apt-get update`);
      execFileSync('apt-get', ['update', '-qq'], { stdio: ['ignore', 'inherit', 'inherit'] });
      updated = true;
      versions = aptVersions(name);
    }
    if (versions === null && updated) {
      throw new Error(`apt knows no package ${name}, even after apt-get update`);
    }
    if (versions === null) {
      throw new Error(
        `apt knows no package ${name}: the package lists are missing. Run \`apt-get update\` ` +
          `as root (sudo apt-get update), then run this again.`,
      );
    }
    if (!versions.includes(version)) {
      throw new Error(
        `${name} ${version} is not available from apt (apt-cache policy ${name} lists ` +
          `${versions.join(', ') || 'no version'}); this script is pinned to ${version}`,
      );
    }
  }
  const specs = packages.map(({ name, version }) => `${name}=${version}`);
  console.log(`downloading ${specs.join(' ')} into ${folder}`);
  execFileSync('apt-get', ['download', '-q', ...specs], {
    cwd: folder,
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const files = readdirSync(folder).filter((file) => file.endsWith('.deb'));
  const root = join(folder, 'root');
  for (const { name, version, sha256 } of packages) {
    const file = files.find((candidate) => candidate.startsWith(`${name}_`));
    if (!file) throw new Error(`apt-get download left no file for ${name}`);
    const digest = createHash('sha256')
      .update(readFileSync(join(folder, file)))
      .digest('hex');
    if (digest !== sha256) {
      throw new Error(`${file} (${name} ${version}) has SHA-256 ${digest}, pinned ${sha256}`);
    }
    execFileSync('dpkg-deb', ['-x', join(folder, file), root]);
  }
  return root;
}
