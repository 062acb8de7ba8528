// The SCORM 1.2 package of the lesson: the built site (vite.config.js) with an imsmanifest.xml at
// its root that names one SCO, the deck (index.html), and lists every file of the package. The
// manifest sets no mastery score, so the status the lesson reports is the one the LMS keeps
// (docs/lms.md). The zip comes out the same, byte for byte, from the same files: entries in sorted
// order, every one dated the same. tools/build-scorm.js writes it; fflate does the zipping (small,
// no dependencies, with the per-entry dates and levels this needs).
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { zipSync } from 'fflate';

/** The manifest's name; SCORM wants it at the package's root. */
export const MANIFEST = 'imsmanifest.xml';

/** The page the SCO launches. */
export const LAUNCH = 'index.html';

/**
 * The date every entry carries. A local-time date: zip stores local date fields, so this gives
 * the same bytes in every time zone.
 */
const ENTRY_DATE = new Date(2024, 0, 1, 0, 0, 0);

/** Files that are compressed already: stored, not deflated again. */
const STORED = /\.(woff2?|png|jpe?g|gif|webp|zip|gz|br)$/i;

/**
 * Every file under `dir`, as paths relative to it with '/' between folders, sorted.
 * @param {string} dir
 * @returns {string[]}
 */
export function listFiles(dir) {
  /** @type {string[]} */
  const files = [];
  /** @param {string} sub */
  const walk = (sub) => {
    for (const entry of readdirSync(path.join(dir, sub), { withFileTypes: true })) {
      const rel = sub ? `${sub}/${entry.name}` : entry.name;
      if (entry.isDirectory()) walk(rel);
      else if (entry.isFile()) files.push(rel);
    }
  };
  walk('');
  return files.sort();
}

/**
 * @param {string} text
 * @returns {string}
 */
function xml(text) {
  return String(text)
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');
}

/**
 * A file's path as the manifest's href: a relative URL.
 * @param {string} file
 * @returns {string}
 */
export function fileHref(file) {
  return file.split('/').map(encodeURIComponent).join('/');
}

/**
 * The manifest of a package of `files`: one organization with one item, the SCO, whose resource
 * lists every file. No adlcp:masteryscore: the lesson's own status stands.
 * @param {string[]} files relative paths, the manifest itself not among them
 * @param {{ identifier: string, title: string, version: string }} meta
 * @returns {string}
 */
export function manifestXml(files, { identifier, title, version }) {
  if (!files.includes(LAUNCH)) throw new Error(`the package has no ${LAUNCH} to launch`);
  const id = identifier.replace(/[^A-Za-z0-9_.-]/g, '-');
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<manifest identifier="${xml(id)}" version="${xml(version)}"`,
    '  xmlns="http://www.imsproject.org/xsd/imscp_rootv1p1p2"',
    '  xmlns:adlcp="http://www.adlnet.org/xsd/adlcp_rootv1p2"',
    '  xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"',
    '  xsi:schemaLocation="http://www.imsproject.org/xsd/imscp_rootv1p1p2 imscp_rootv1p1p2.xsd' +
      ' http://www.imsglobal.org/xsd/imsmd_rootv1p2p1 imsmd_rootv1p2p1.xsd' +
      ' http://www.adlnet.org/xsd/adlcp_rootv1p2 adlcp_rootv1p2.xsd">',
    '  <metadata>',
    '    <schema>ADL SCORM</schema>',
    '    <schemaversion>1.2</schemaversion>',
    '  </metadata>',
    `  <organizations default="${xml(id)}-org">`,
    `    <organization identifier="${xml(id)}-org">`,
    `      <title>${xml(title)}</title>`,
    `      <item identifier="${xml(id)}-item" identifierref="${xml(id)}-sco" isvisible="true">`,
    `        <title>${xml(title)}</title>`,
    '      </item>',
    '    </organization>',
    '  </organizations>',
    '  <resources>',
    `    <resource identifier="${xml(id)}-sco" type="webcontent" adlcp:scormtype="sco"` +
      ` href="${xml(fileHref(LAUNCH))}">`,
    ...files.map((file) => `      <file href="${xml(fileHref(file))}" />`),
    '    </resource>',
    '  </resources>',
    '</manifest>',
    '',
  ];
  return lines.join('\n');
}

/**
 * The package as zip bytes: the manifest first, then the site's files in sorted order.
 * @param {string} siteDir the built site
 * @param {{ identifier: string, title: string, version: string }} meta
 * @returns {{ zip: Uint8Array, files: string[] }} files: every entry, in order
 */
export function buildPackage(siteDir, meta) {
  const files = listFiles(siteDir).filter((file) => file !== MANIFEST);
  const manifest = new TextEncoder().encode(manifestXml(files, meta));
  /** @type {import('fflate').Zippable} */
  const entries = { [MANIFEST]: [manifest, { mtime: ENTRY_DATE, level: 9 }] };
  for (const file of files) {
    const level = STORED.test(file) ? 0 : 9;
    entries[file] = [readFileSync(path.join(siteDir, file)), { mtime: ENTRY_DATE, level }];
  }
  return { zip: zipSync(entries), files: [MANIFEST, ...files] };
}
