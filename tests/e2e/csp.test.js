// The Content-Security-Policy of every page as it is shipped: each HTML file of the built site
// (dist/, or SITE_DIR) and each page as the project's own servers send it (the preview server the
// browser tests use, and the dev server of `npm start`), with any policy those servers put in a
// response header, for the pages and for the training worker's script (a header holds only who
// may frame the page: embed.html any site, the others the lesson itself). Every policy must keep
// scripts to the page's own files and its WebAssembly: no 'unsafe-eval', no 'unsafe-inline'
// script, and nothing from outside the page's own origin. Needs a build (`npm run test:e2e`, or
// `node tests/e2e/build-site.js` first); starts no browser.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { createServer } from 'vite';
import { framePolicy } from '../../web/build/vite-plugin-frame-policy.js';
import { serveSite } from './browser.js';
import { siteDir } from './site-dir.js';

/** Directives that decide what may run as script (default-src stands in for a missing one). */
const SCRIPT_DIRECTIVES = new Set([
  'default-src',
  'script-src',
  'script-src-elem',
  'script-src-attr',
]);

/**
 * The sources a policy may name beyond 'self' and 'none', each in the directives it is needed in,
 * and why. A scheme source such as data: admits content from anywhere that is not the page's own
 * files, so each one is here only where the page itself makes such URLs.
 * @type {Record<string, { directives: string[], why: string }>}
 */
const ALLOWED_SOURCES = {
  "'wasm-unsafe-eval'": {
    directives: ['script-src'],
    why: 'compiles the engine: WebAssembly only, never JavaScript from strings',
  },
  "'unsafe-inline'": {
    directives: ['style-src'],
    why: 'reveal.js and the figures set style attributes; styles, never scripts',
  },
  'data:': {
    directives: ['img-src'],
    why:
      'images the page makes itself: its icon, reveal.js CSS images, the dense heatmaps (one BMP' +
      ' picture each) and the SVG a PNG export draws from',
  },
};

/** A script hash admits one exact inline script (the speaker view's, or the page's own), nothing else. */
const HASH_SOURCE = /^'sha(256|384|512)-[A-Za-z0-9+/]+={0,2}'$/;
/** The inline script reveal.js's notes plugin writes into the speaker view's window. */
const SPEAKER_VIEW_HASH = "'sha256-GzCveToXhSIzS3M5eQeRm3McVRB7cYneYKwTkzA3wDk='";

/**
 * A policy as a map from directive to its sources.
 * @param {string} policy
 * @returns {Map<string, string[]>}
 */
export function parsePolicy(policy) {
  const directives = new Map();
  for (const part of policy.split(';')) {
    const [name, ...sources] = part.trim().split(/\s+/);
    if (!name) continue;
    assert.ok(!directives.has(name.toLowerCase()), `directive ${name} twice`);
    directives.set(name.toLowerCase(), sources);
  }
  return directives;
}

/**
 * What is wrong with a policy, as sentences; empty when it is strict.
 * @param {string} policy
 * @returns {string[]}
 */
export function policyProblems(policy) {
  const directives = parsePolicy(policy);
  const problems = [];
  if (directives.get('default-src')?.join(' ') !== "'self'") {
    problems.push("default-src is not 'self'");
  }
  if (!directives.has('script-src')) problems.push('no script-src');
  if (directives.get('object-src')?.join(' ') !== "'none'")
    problems.push("object-src is not 'none'");
  if (directives.get('base-uri')?.join(' ') !== "'none'") problems.push("base-uri is not 'none'");
  // The service worker and the web app manifest come from the site itself, nothing else.
  for (const directive of ['worker-src', 'manifest-src']) {
    const sources = directives.get(directive);
    if (sources && sources.join(' ') !== "'self'") problems.push(`${directive} is not 'self'`);
  }
  for (const [directive, sources] of directives) {
    for (const source of sources) {
      const lower = source.toLowerCase();
      if (lower === "'self'" || lower === "'none'") continue;
      if (lower === "'unsafe-eval'") problems.push(`${directive} allows 'unsafe-eval'`);
      else if (lower === "'unsafe-inline'" && SCRIPT_DIRECTIVES.has(directive)) {
        problems.push(`${directive} allows 'unsafe-inline' script`);
      } else if (HASH_SOURCE.test(source) && directive === 'script-src') continue;
      else if (ALLOWED_SOURCES[lower]?.directives.includes(directive)) continue;
      else problems.push(`${directive} allows ${source}, which is not the page's own origin`);
    }
  }
  return problems;
}

/**
 * The policy in a page's <meta http-equiv="Content-Security-Policy">, or null.
 * @param {string} html
 * @returns {string[]} every such policy in the page (there should be one)
 */
function metaPolicies(html) {
  return Array.from(
    html.matchAll(/<meta\s[^>]*http-equiv="Content-Security-Policy"[^>]*>/gi),
    ([tag]) => (/content="([^"]*)"/i.exec(tag)?.[1] ?? '').replaceAll('&quot;', '"'),
  );
}

/** The pages of the built site. */
const BUILT_PAGES = readdirSync(siteDir).filter((file) => file.endsWith('.html'));
/** The pages that load the engine run it in this worker too. */
const WORKER = readdirSync(join(siteDir, 'assets')).find((file) => /^worker-.*\.js$/.test(file));

describe('the rules themselves', () => {
  test('a policy that allows eval, inline script or another origin is reported', () => {
    const strict =
      "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; img-src 'self' data:; object-src 'none'; base-uri 'none'";
    assert.deepEqual(policyProblems(strict), []);
    const loose = (script) => strict.replace("script-src 'self'", `script-src 'self' ${script}`);
    assert.match(policyProblems(loose("'unsafe-eval'")).join(), /'unsafe-eval'/);
    assert.match(policyProblems(loose("'unsafe-inline'")).join(), /'unsafe-inline' script/);
    assert.match(policyProblems(loose('https://cdn.example')).join(), /cdn\.example/);
    assert.match(policyProblems(loose('blob:')).join(), /blob:/);
    assert.match(policyProblems(loose('data:')).join(), /script-src allows data:/);
    assert.match(policyProblems(loose('*')).join(), /allows \*/);
    assert.match(
      policyProblems(strict.replace("default-src 'self'", 'default-src *')).join(),
      /default-src is not 'self'/,
    );
    assert.match(policyProblems(`${strict}; font-src data:`).join(), /font-src allows data:/);
    assert.match(policyProblems(`${strict}; worker-src 'self' blob:`).join(), /worker-src is not/);
    assert.match(policyProblems(`${strict}; manifest-src *`).join(), /manifest-src is not/);
    assert.deepEqual(policyProblems(`${strict}; worker-src 'self'; manifest-src 'self'`), []);
  });
});

describe('the built pages', () => {
  test('the site has its pages and the training worker', () => {
    assert.ok(BUILT_PAGES.includes('index.html'), `pages in ${siteDir}: ${BUILT_PAGES}`);
    assert.ok(BUILT_PAGES.length >= 4, `pages in ${siteDir}: ${BUILT_PAGES}`);
    assert.ok(WORKER, 'the training worker is in the build');
  });

  for (const file of BUILT_PAGES) {
    test(`${file} admits its service worker and manifest from the site only`, () => {
      const [policy] = metaPolicies(readFileSync(join(siteDir, file), 'utf8'));
      const directives = parsePolicy(policy);
      assert.deepEqual(directives.get('worker-src'), ["'self'"]);
      assert.deepEqual(directives.get('manifest-src'), ["'self'"]);
    });
  }

  for (const file of BUILT_PAGES) {
    test(`${file}: each script hash in its policy admits a script the page itself holds`, () => {
      const html = readFileSync(join(siteDir, file), 'utf8');
      const [policy] = metaPolicies(html);
      const hashes = (parsePolicy(policy).get('script-src') ?? []).filter((s) =>
        HASH_SOURCE.test(s),
      );
      const inline = Array.from(html.matchAll(/<script>([\s\S]*?)<\/script>/g), ([, text]) => {
        return `'sha256-${createHash('sha256').update(text).digest('base64')}'`;
      });
      // The speaker view's script is written by reveal.js into the window it opens.
      const own = hashes.filter((hash) => hash !== SPEAKER_VIEW_HASH);
      assert.deepEqual(own.sort(), [...new Set(inline)].sort(), policy);
    });
  }

  for (const file of BUILT_PAGES) {
    test(`${file} has one strict policy`, () => {
      const policies = metaPolicies(readFileSync(join(siteDir, file), 'utf8'));
      assert.equal(policies.length, 1, 'one policy');
      assert.deepEqual(policyProblems(policies[0]), [], policies[0]);
    });
  }
});

/**
 * Fetches `path` from a server and checks its status, the policy of any page it returns and any
 * policy in its headers.
 * @param {string} base the server's address, ending in '/'
 * @param {string} path
 */
async function checkServed(base, path) {
  const response = await fetch(new URL(path, base));
  assert.equal(response.status, 200, `${path}: status`);
  // The header says who may frame the response and nothing else (it is combined with the page's
  // own policy): embed.html any site, the rest only the lesson (vite-plugin-frame-policy.js).
  const header = response.headers.get('content-security-policy');
  assert.equal(header, framePolicy(`/${path}`), `${path}: content-security-policy header`);
  assert.match(header ?? '', /^frame-ancestors ('self'|\*)$/, `${path}: frame-ancestors only`);
  const reportOnly = response.headers.get('content-security-policy-report-only');
  if (reportOnly !== null) {
    assert.deepEqual(policyProblems(reportOnly), [], `${path}: report-only header`);
  }
  if (path.endsWith('.html')) {
    const policies = metaPolicies(await response.text());
    assert.equal(policies.length, 1, `${path}: one policy`);
    assert.deepEqual(policyProblems(policies[0]), [], `${path}: ${policies[0]}`);
  }
}

describe('the pages as the preview server sends them', () => {
  /** @type {{ url: string, close: () => Promise<void> }} */
  let server;
  before(async () => (server = await serveSite()));
  after(() => server?.close());

  for (const file of BUILT_PAGES) {
    test(`${file}: its policy and its headers are strict`, () => checkServed(server.url, file));
  }
  test('the training worker has no loose policy in its headers', () =>
    checkServed(server.url, `assets/${WORKER}`));
  test('the service worker and the manifest have no loose policy in their headers', async () => {
    await checkServed(server.url, 'sw.js');
    await checkServed(server.url, 'manifest.webmanifest');
  });
});

describe('the pages as the dev server of npm start sends them', () => {
  /** @type {import('vite').ViteDevServer} */
  let server;
  before(async () => {
    server = await createServer({
      configFile: fileURLToPath(new URL('../../vite.config.js', import.meta.url)),
      logLevel: 'warn',
      server: { host: '127.0.0.1', port: 0, strictPort: true },
    });
    await server.listen();
  });
  after(() => server?.close());

  for (const file of BUILT_PAGES) {
    test(`${file}: its policy and its headers are strict`, () =>
      checkServed(server.resolvedUrls?.local[0] ?? '', file));
  }
  test('the training worker has no loose policy in its headers', () =>
    checkServed(server.resolvedUrls?.local[0] ?? '', 'src/train/worker.js'));
});
