// The JavaScript a built page loads before it is interactive, counted without a browser: its
// module script, the chunks it modulepreloads, and every chunk those import statically (not the
// ones they import(), which load later), each as `gzip -9c` sends it. Build first
// (`node tests/e2e/build-site.js`), then `node bench/page-js-bytes.js [page.html]` (default
// index.html) prints one line per file and the total.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { siteDir } from '../tests/e2e/site-dir.js';

const page = resolve(siteDir, process.argv[2] ?? 'index.html');
if (!existsSync(page)) {
  console.error(`${relative(process.cwd(), page)} is missing: run node tests/e2e/build-site.js`);
  process.exit(1);
}

const html = readFileSync(page, 'utf8');
const entries = [
  ...html.matchAll(/<script\b[^>]*\btype="module"[^>]*\bsrc="([^"]+)"/g),
  ...html.matchAll(/<link\b[^>]*\brel="modulepreload"[^>]*\bhref="([^"]+)"/g),
].map((match) => resolve(dirname(page), match[1]));

// A static import in a built chunk: `import{a as b}from"./x.js"` or `import"./x.js"`; an
// import("./x.js") call has a parenthesis and is left out.
const STATIC_IMPORT = /(?:\bfrom|\bimport)\s*"(\.{1,2}\/[^"]+\.js)"/g;

/** @type {Set<string>} */
const files = new Set();
const queue = [...entries];
while (queue.length > 0) {
  const file = /** @type {string} */ (queue.shift());
  if (files.has(file)) continue;
  if (!existsSync(file)) throw new Error(`${relative(siteDir, page)} loads ${file}, not built`);
  files.add(file);
  const code = readFileSync(file, 'utf8');
  for (const match of code.matchAll(STATIC_IMPORT)) queue.push(join(dirname(file), match[1]));
}

let total = 0;
for (const file of [...files].sort()) {
  const gzip = execFileSync('gzip', ['-9c'], { input: readFileSync(file) }).length;
  total += gzip;
  console.log(`${String(gzip).padStart(8)}  ${relative(siteDir, file)}`);
}
console.log(`${String(total).padStart(8)}  total, gzip -9, of ${files.size} files`);
