// The shared page head: every page in web/ gets the charset, viewport, colour scheme, icon and
// exactly the Content-Security-Policy listed here, no looser; a page that does not say what its
// policy allows, or says it too late, fails the build. tests/e2e/csp.test.js checks the policies
// of the built pages and of the servers against the rules instead of against these strings.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import {
  EARLY_DATA,
  EARLY_DATA_SCRIPT,
  contentSecurityPolicy,
  pageHead,
} from '../../web/build/vite-plugin-page-head.js';
import { ROOT } from './helpers.js';

/** The inline script a page of figures starts its data downloads with, admitted by its hash. */
const EARLY = `'sha256-${createHash('sha256').update(EARLY_DATA_SCRIPT).digest('base64')}'`;

const ENGINE_PAGE =
  "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self'; connect-src 'self'; worker-src 'self'; manifest-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'";

/** Each page's policy, exactly. */
const POLICIES = {
  'index.html': `default-src 'self'; script-src 'self' 'wasm-unsafe-eval' 'sha256-GzCveToXhSIzS3M5eQeRm3McVRB7cYneYKwTkzA3wDk='; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self'; connect-src 'self'; worker-src 'self'; manifest-src 'self'; frame-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'`,
  'article.html': ENGINE_PAGE.replace("'wasm-unsafe-eval'", `'wasm-unsafe-eval' ${EARLY}`),
  'practice.html': ENGINE_PAGE,
  'embed.html':
    "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; worker-src 'self'; manifest-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'",
  'lessons.html':
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; worker-src 'self'; manifest-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'",
};

/**
 * The attributes of the head's tags, in order, from a page's HTML.
 * @param {string} html
 * @returns {Record<string, string>[]}
 */
function headTags(html) {
  const head = html.slice(html.indexOf('<head>'), html.indexOf('</head>'));
  return Array.from(head.matchAll(/<(meta|link)\b([^>]*?)\s*\/?>/g), ([, name, attrs]) => ({
    tag: name,
    ...Object.fromEntries(Array.from(attrs.matchAll(/([\w-]+)="([^"]*)"/g), ([, k, v]) => [k, v])),
  }));
}

describe('the shared page head', () => {
  for (const [file, policy] of Object.entries(POLICIES)) {
    test(`${file} gets the shared tags first and its own policy, exactly`, () => {
      const html = pageHead(readFileSync(path.join(ROOT, 'web', file), 'utf8'), file);
      const tags = headTags(html);
      assert.deepEqual(tags.slice(0, 5), [
        { tag: 'meta', charset: 'utf-8' },
        { tag: 'meta', name: 'viewport', content: 'width=device-width, initial-scale=1' },
        { tag: 'meta', name: 'color-scheme', content: 'light dark' },
        { tag: 'meta', 'http-equiv': 'Content-Security-Policy', content: policy },
        { tag: 'link', rel: 'icon', href: tags[4].href },
      ]);
      assert.match(tags[4].href, /^data:image\/svg\+xml,/);
      assert.equal(tags.filter((t) => t['http-equiv']).length, 1, 'one policy');
      assert.doesNotMatch(html, /name="csp-allow"/);
      assert.ok(html.indexOf('http-equiv') < html.indexOf('<script'), 'the policy comes first');
    });
  }

  test('the article starts its data downloads from its head, where WebAssembly runs', () => {
    // The deck does not: its title figure is a recording, and the data loads after the page.
    for (const file of ['article.html']) {
      const html = pageHead(readFileSync(path.join(ROOT, 'web', file), 'utf8'), file);
      const scripts = Array.from(html.matchAll(/<script>([^<]*)<\/script>/g), ([, text]) => text);
      assert.deepEqual(scripts, [EARLY_DATA_SCRIPT], `${file}: one inline script`);
      const hash = createHash('sha256').update(scripts[0]).digest('base64');
      assert.ok(POLICIES[file].includes(`'sha256-${hash}'`), `${file}: its policy admits it`);
      assert.ok(html.indexOf('http-equiv') < html.indexOf('<script>'), 'after the policy');
    }
    assert.deepEqual(EARLY_DATA, [
      'embeddings/en-20k-100d.bin',
      'models/brown-lm.bin',
      'models/brown-lm.json',
    ]);
    // The script runs: it adds one preload per file, and none without WebAssembly.
    const added = [];
    const fakeDocument = {
      createElement: () => ({}),
      head: { append: (link) => added.push(link) },
    };
    const run = new Function('document', 'WebAssembly', EARLY_DATA_SCRIPT);
    run(fakeDocument, undefined);
    assert.deepEqual(added, []);
    run(fakeDocument, {});
    assert.deepEqual(
      added.map((link) => [link.rel, link.as, link.crossOrigin, link.fetchPriority, link.href]),
      EARLY_DATA.map((href) => ['preload', 'fetch', 'anonymous', 'low', href]),
    );
    for (const file of ['practice.html', 'lessons.html']) {
      const html = pageHead(readFileSync(path.join(ROOT, 'web', file), 'utf8'), file);
      assert.doesNotMatch(html, /<script>/, `${file}: no inline script`);
    }
  });

  test('the order in which a page names its allowances does not matter', () => {
    assert.equal(contentSecurityPolicy(['speaker-view', 'math', 'engine']), POLICIES['index.html']);
  });

  test('an unknown allowance, a missing tag, a late tag or a page policy fails', () => {
    const page = (head) => `<!doctype html>\n<html>\n  <head>\n${head}\n  </head>\n</html>\n`;
    const allow = '    <meta name="csp-allow" content="engine" />';
    assert.throws(
      () => pageHead(page('    <meta name="csp-allow" content="engine eval" />'), 'x.html'),
      /x\.html: unknown CSP allowance eval/,
    );
    assert.throws(() => pageHead(page('    <title>x</title>'), 'x.html'), /x\.html: no <meta/);
    assert.throws(
      () => pageHead(page(`    <script src="a.js"></script>\n${allow}`), 'x.html'),
      /must be the first tag/,
    );
    assert.throws(
      () =>
        pageHead(
          page(`${allow}\n    <meta http-equiv="Content-Security-Policy" content="x" />`),
          'x.html',
        ),
      /has its own Content-Security-Policy/,
    );
    assert.doesNotThrow(() => pageHead(page(`    <!-- a comment -->\n${allow}`), 'x.html'));
  });
});
