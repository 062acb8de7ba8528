// The SCORM 1.2 package of the module: the built site (vite.config.js) with an imsmanifest.xml at
// its root that names one SCO per lesson, each the deck (index.html) opened on its lesson, and
// lists every file of the package once, in a resource of shared files that every SCO depends on.
// The first lesson's item and SCO keep the identifiers of a package of that lesson alone, so that
// an LMS that has it already sees the same activity. The manifest sets no mastery score, so the
// status each lesson reports is the one the LMS keeps (docs/lms.md). The zip comes out the same,
// byte for byte, from the same files: entries in sorted order, every one dated the same.
// tools/build-scorm.js writes it; fflate does the zipping (small, no dependencies, with the
// per-entry dates and levels this needs).
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { zipSync } from 'fflate';
import { markupText as xml } from './markup-text.js';

/** The manifest's name; SCORM wants it at the package's root. */
export const MANIFEST = 'imsmanifest.xml';

/** The page every SCO launches: the deck, with its lesson in the query for any but the first. */
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
 * A file's path as the manifest's href: a relative URL.
 * @param {string} file
 * @returns {string}
 */
export function fileHref(file) {
  return file.split('/').map(encodeURIComponent).join('/');
}

/**
 * One lesson of the package, as its item and SCO say it.
 * @typedef {{ key: string, title: string, description: string, launch: string }} PackageLesson
 *   key: the lesson's key; launch: the address the SCO opens, relative to the package's root
 *   (LAUNCH, with `?lesson=<key>` for any lesson but the first)
 * @typedef {{ identifier: string, title: string, version: string, lessons: PackageLesson[] }}
 *   PackageMeta identifier: the package's, which the first lesson's item and SCO are named
 *   after; title: the organization's, the module
 */

/**
 * The identifiers of a lesson's item and SCO: `<package>-item` and `<package>-sco` for the first
 * (as in a package of that lesson alone), `<package>-<key>-item` and `-sco` for the others.
 * @param {string} id the package's identifier
 * @param {string} key the lesson's
 * @param {number} index its place in the package, 0 the first
 * @returns {{ item: string, sco: string }}
 */
export function lessonIdentifiers(id, key, index) {
  const base = index === 0 ? id : `${id}-${key.replace(/[^A-Za-z0-9_.-]/g, '-')}`;
  return { item: `${base}-item`, sco: `${base}-sco` };
}

/**
 * The data an LMS hands a lesson's SCO as cmi.launch_data (the item's adlcp:datafromlms).
 * @param {string} key
 * @returns {string} e.g. 'lesson=transformer'
 */
export function launchData(key) {
  return `lesson=${key}`;
}

/**
 * A title and description as IMS metadata (LOM), inline.
 * @param {string} indent
 * @param {string} title
 * @param {string} description
 * @returns {string[]}
 */
function lomLines(indent, title, description) {
  const lang = (text) => `<imsmd:langstring xml:lang="en">${xml(text)}</imsmd:langstring>`;
  return [
    `${indent}<metadata>`,
    `${indent}  <schema>ADL SCORM</schema>`,
    `${indent}  <schemaversion>1.2</schemaversion>`,
    `${indent}  <imsmd:lom>`,
    `${indent}    <imsmd:general>`,
    `${indent}      <imsmd:title>${lang(title)}</imsmd:title>`,
    `${indent}      <imsmd:description>${lang(description)}</imsmd:description>`,
    `${indent}    </imsmd:general>`,
    `${indent}  </imsmd:lom>`,
    `${indent}</metadata>`,
  ];
}

/**
 * The manifest of a package of `files`: one organization, the module, with one item per lesson,
 * each an SCO that launches the deck on its lesson and tells it which one in its launch data;
 * every file is listed once, in a resource of shared files (`<package>-files`) that each SCO
 * depends on. No adlcp:masteryscore: each lesson's own status stands.
 * @param {string[]} files relative paths, the manifest itself not among them
 * @param {PackageMeta} meta
 * @returns {string}
 */
export function manifestXml(files, { identifier, title, version, lessons }) {
  if (!files.includes(LAUNCH)) throw new Error(`the package has no ${LAUNCH} to launch`);
  if (lessons.length === 0) throw new Error('the package has no lesson');
  const id = identifier.replace(/[^A-Za-z0-9_.-]/g, '-');
  const shared = `${id}-files`;
  const named = lessons.map((lesson, index) => ({
    ...lesson,
    ...lessonIdentifiers(id, lesson.key, index),
  }));
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<manifest identifier="${xml(id)}" version="${xml(version)}"`,
    '  xmlns="http://www.imsproject.org/xsd/imscp_rootv1p1p2"',
    '  xmlns:adlcp="http://www.adlnet.org/xsd/adlcp_rootv1p2"',
    '  xmlns:imsmd="http://www.imsglobal.org/xsd/imsmd_rootv1p2p1"',
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
    ...named.flatMap((lesson) => [
      `      <item identifier="${xml(lesson.item)}" identifierref="${xml(lesson.sco)}" isvisible="true">`,
      `        <title>${xml(lesson.title)}</title>`,
      ...lomLines('        ', lesson.title, lesson.description),
      `        <adlcp:datafromlms>${xml(launchData(lesson.key))}</adlcp:datafromlms>`,
      '      </item>',
    ]),
    '    </organization>',
    '  </organizations>',
    '  <resources>',
    ...named.flatMap((lesson) => [
      `    <resource identifier="${xml(lesson.sco)}" type="webcontent" adlcp:scormtype="sco"` +
        ` href="${xml(launchHref(lesson.launch))}">`,
      `      <file href="${xml(fileHref(LAUNCH))}" />`,
      `      <dependency identifierref="${xml(shared)}" />`,
      '    </resource>',
    ]),
    `    <resource identifier="${xml(shared)}" type="webcontent" adlcp:scormtype="asset">`,
    ...files.map((file) => `      <file href="${xml(fileHref(file))}" />`),
    '    </resource>',
    '  </resources>',
    '</manifest>',
    '',
  ];
  return lines.join('\n');
}

/**
 * A launch address as the manifest's href: the file as fileHref writes it, its query as it is.
 * @param {string} launch e.g. 'index.html?lesson=transformer'
 * @returns {string}
 */
function launchHref(launch) {
  const [file, ...query] = launch.split('?');
  if (file !== LAUNCH) throw new Error(`a lesson launches ${LAUNCH}, not ${file}`);
  return [fileHref(file), ...query].join('?');
}

/**
 * The package as zip bytes: the manifest first, then the site's files in sorted order.
 * @param {string} siteDir the built site
 * @param {PackageMeta} meta
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
