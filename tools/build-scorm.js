// Writes dist-scorm/attention-lab-scorm12.zip, the module as a SCORM 1.2 package for an LMS
// (Moodle, Canvas, ...), one SCO per lesson: the site built as for hosting (vite.config.js) into dist-scorm/site/,
// then zipped with its imsmanifest.xml (web/build/scorm-package.js). docs/lms.md says how to
// upload it and what it reports.
//
//   node tools/build-scorm.js                 # build the site, then the package (npm run build:scorm)
//   node tools/build-scorm.js --site DIR      # package a site built already
//   node tools/build-scorm.js --out FILE      # write the zip elsewhere
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { build } from 'vite';
import { loadLessons } from '../web/build/content.js';
import { moduleText } from '../web/build/module-text.js';
import { LAUNCH, buildPackage } from '../web/build/scorm-package.js';
import { withLesson } from '../web/src/lesson-address.js';

const fromRoot = (file) => fileURLToPath(new URL(`../${file}`, import.meta.url));

/** The zip's name, in dist-scorm/. */
export const PACKAGE_FILE = 'attention-lab-scorm12.zip';

/**
 * The package's identifier, title, version and lessons: from the lessons of slides/ (loadLessons)
 * and package.json. The organization is the module; each lesson is an item whose SCO launches the
 * deck on it (lesson 1 at index.html, as its addresses name no lesson).
 * @returns {import('../web/build/scorm-package.js').PackageMeta}
 */
export function packageMeta() {
  const lessons = loadLessons(fromRoot('slides')).map(({ lesson }) => lesson);
  const { version } = JSON.parse(readFileSync(fromRoot('package.json'), 'utf8'));
  const [{ course, module }] = lessons;
  return {
    identifier: 'attention-lab',
    title: moduleText(lessons).name,
    version,
    lessons: lessons.map((lesson, index) => ({
      key: lesson.key,
      title: `${lesson.title} (${course}, Module ${module}, Lesson ${lesson.lesson})`,
      description: lesson.subtitle ?? lesson.title,
      launch: withLesson(LAUNCH, index === 0 ? null : lesson.key),
    })),
  };
}

/**
 * Packages the site in `siteDir` into `out`.
 * @param {string} siteDir
 * @param {string} out
 * @returns {{ bytes: number, files: string[] }}
 */
export function writePackage(siteDir, out) {
  const { zip, files } = buildPackage(siteDir, packageMeta());
  mkdirSync(path.dirname(out), { recursive: true });
  writeFileSync(out, zip);
  return { bytes: zip.byteLength, files };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({
    options: { site: { type: 'string' }, out: { type: 'string' } },
  });
  const out = path.resolve(values.out ?? fromRoot(`dist-scorm/${PACKAGE_FILE}`));
  let siteDir = values.site ? path.resolve(values.site) : '';
  if (!siteDir) {
    siteDir = fromRoot('dist-scorm/site');
    await build({
      configFile: fromRoot('vite.config.js'),
      logLevel: 'warn',
      build: { outDir: siteDir, emptyOutDir: true },
    });
  }
  const { bytes, files } = writePackage(siteDir, out);
  const size = (bytes / 1024 / 1024).toFixed(1);
  console.log(`scorm: ${path.relative(process.cwd(), out)}, ${files.length} files, ${size} MB`);
}
