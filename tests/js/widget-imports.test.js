// Each widget is a folder of web/src/widgets/ that imports the shared parts (widgets/shared/), the
// views, the text and the engine facade, and never another widget's folder; the shared parts
// import no widget. So a widget is deleted by deleting its folder and its line in
// widgets/index.js. Every import is read from the source: static, dynamic, re-exports, JSDoc
// `import('...')` types and CSS `@import`.
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const widgetsDir = fileURLToPath(new URL('../../web/src/widgets/', import.meta.url));
const SHARED = 'shared';

/**
 * The relative specifiers a JS or CSS source imports, in the order they appear.
 * @param {string} source
 * @returns {string[]}
 */
function importedSpecifiers(source) {
  const pattern =
    /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+|@import\s+(?:url\(\s*)?)(['"])(\.{1,2}\/[^'"]*)\1/g;
  return [...source.matchAll(pattern)].map((match) => match[2]);
}

/**
 * The folder of web/src/widgets/ a path lies in ('' for the files at its top, null outside it).
 * @param {string} path absolute
 */
function folderOf(path) {
  const inside = relative(widgetsDir, path);
  if (inside.startsWith('..')) return null;
  const parts = inside.split(sep);
  return parts.length === 1 ? '' : parts[0];
}

/**
 * The imports that break the rule, as "file: specifier" lines.
 * @param {{ path: string, source: string }[]} files absolute paths under web/src/widgets/
 * @returns {string[]}
 */
function crossWidgetImports(files) {
  const broken = [];
  for (const { path, source } of files) {
    const from = folderOf(path);
    if (from === '' || from === null) continue; // widgets/index.js registers every widget
    for (const specifier of importedSpecifiers(source)) {
      const to = folderOf(resolve(dirname(path), specifier));
      // Outside widgets/, its own folder, or the shared parts; the shared parts' own folder is
      // the only one they may import from.
      const allowed = to === null || to === from || to === SHARED;
      if (!allowed) {
        broken.push(`${relative(widgetsDir, path)}: ${specifier}`);
      }
    }
  }
  return broken;
}

/** @returns {{ path: string, source: string }[]} every JS and CSS file under web/src/widgets/ */
function widgetFiles() {
  return readdirSync(widgetsDir, { recursive: true, encoding: 'utf8' })
    .filter((name) => /\.(js|css)$/.test(name))
    .map((name) => join(widgetsDir, name))
    .map((path) => ({ path, source: readFileSync(path, 'utf8') }));
}

test('reads static, dynamic, re-exported, JSDoc and CSS imports', () => {
  const source = [
    "import { a } from './a.js';",
    "import './style.css';",
    "export { b } from '../shared/b.js';",
    "const c = await import('../c/index.js');",
    "/** @type {import('../../engine/index.js').Engine} */",
    "@import './deck.css';",
    "import lesson from 'virtual:lesson';",
  ].join('\n');
  assert.deepEqual(importedSpecifiers(source), [
    './a.js',
    './style.css',
    '../shared/b.js',
    '../c/index.js',
    '../../engine/index.js',
    './deck.css',
  ]);
});

test('finds a widget that imports another widget, and shared parts that import a widget', () => {
  const at = (path) => join(widgetsDir, path);
  const files = [
    { path: at('alpha/index.js'), source: "import { x } from '../beta/math.js';" },
    { path: at('alpha/figures.js'), source: "/** @type {import('../beta/markup.js').P} */" },
    { path: at('alpha/style.css'), source: "@import '../beta/style.css';" },
    { path: at('shared/host.js'), source: "import '../alpha/index.js';" },
    { path: at('beta/index.js'), source: "import { y } from '../shared/y.js';\nimport './z.js';" },
    { path: at('beta/math.js'), source: "import { e } from '../../text/embed.js';" },
    { path: at('index.js'), source: "import './alpha/index.js';\nimport './beta/index.js';" },
  ];
  assert.deepEqual(crossWidgetImports(files), [
    `alpha${sep}index.js: ../beta/math.js`,
    `alpha${sep}figures.js: ../beta/markup.js`,
    `alpha${sep}style.css: ../beta/style.css`,
    `shared${sep}host.js: ../alpha/index.js`,
  ]);
});

test('no widget imports another widget, and the shared parts import no widget', () => {
  const files = widgetFiles();
  assert.ok(files.length > 50, `only ${files.length} files found under ${widgetsDir}`);
  assert.deepEqual(crossWidgetImports(files), []);
});

test('every widget folder is registered by one line of widgets/index.js, and only folders are', () => {
  const folders = readdirSync(widgetsDir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && entry.name !== SHARED)
    .map((entry) => entry.name)
    .sort();
  const registered = importedSpecifiers(readFileSync(join(widgetsDir, 'index.js'), 'utf8'))
    .filter((specifier) => !specifier.startsWith(`./${SHARED}/`))
    .map((specifier) => specifier.match(/^\.\/([^/]+)\/index\.js$/)?.[1] ?? specifier)
    .sort();
  assert.deepEqual(registered, folders);
});
