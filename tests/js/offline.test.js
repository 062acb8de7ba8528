// The single-file lesson's pure parts: the links between its pages, the page an address asks
// for, the script text that must survive inside <script>, and the pages' bodies it carries.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import vm from 'node:vm';
import { offlinePolicy, pageBody, scriptText } from '../../web/build/vite-plugin-offline.js';
import { articleHref, offlineHref, pageOf, slideHref } from '../../web/src/offline/links.js';

const web = new URL('../../web/', import.meta.url);

test('a hosted page link becomes a link to the same page of the file, query and hash kept', () => {
  assert.equal(offlineHref('index.html#/title'), '?page=deck#/title');
  assert.equal(offlineHref('./practice.html'), '?page=practice');
  assert.equal(
    offlineHref('article.html?from=why-scale#why-scale'),
    '?page=article&from=why-scale#why-scale',
  );
  assert.equal(offlineHref('lessons.html'), '?page=lessons');
  assert.equal(offlineHref('#article'), '#article');
  assert.equal(offlineHref('https://example.org/index.html'), 'https://example.org/index.html');
  assert.equal(offlineHref('other.html'), 'other.html');
});

test('the links the pages build point into the file', () => {
  assert.equal(slideHref('why-scale'), '?page=deck#/why-scale');
  assert.equal(articleHref('multi-head'), '?page=article&from=multi-head#multi-head');
});

test('an address without a page, or with one the file lacks, opens the deck', () => {
  assert.equal(pageOf(''), 'deck');
  assert.equal(pageOf('?figure=title&sentence=The+cat'), 'deck');
  assert.equal(pageOf('?page=nonsense'), 'deck');
  assert.equal(pageOf('?page=__proto__'), 'deck');
  assert.equal(pageOf('?page=article&from=title'), 'article');
  assert.equal(pageOf('?page=practice'), 'practice');
  assert.equal(pageOf('?page=lessons'), 'lessons');
});

test('script text cannot end its element early, and means the same', () => {
  const code =
    'globalThis.out = ["</script>", "<!--", String(/<!--x/.test("a<!--x")), "</SCRIPT "];';
  const safe = scriptText(code);
  assert.doesNotMatch(safe, /<\/script|<!--/i);
  const context = vm.createContext({});
  vm.runInContext(safe, context);
  assert.deepEqual([...context.out], ['</script>', '<!--', 'true', '</SCRIPT ']);
});

test('every page of the file keeps its body and class, with no link to another file', () => {
  for (const file of ['index.html', 'article.html', 'practice.html', 'lessons.html']) {
    const page = pageBody(readFileSync(new URL(file, web), 'utf8'), file);
    assert.ok(page.title.length > 0 && page.bodyClass.endsWith('-page'), file);
    assert.doesNotMatch(page.body, /href="[^"?#]*\.html/, file);
  }
  assert.throws(() => pageBody('<p>no body</p>', 'broken.html'), /broken\.html: no <body>/);
});

test('the policy of the file admits its one script by hash and nothing from elsewhere', () => {
  const policy = offlinePolicy("'sha256-abc='");
  assert.match(policy, /^default-src 'none'; script-src 'sha256-abc=' 'wasm-unsafe-eval' /);
  assert.doesNotMatch(policy, /'unsafe-eval'|'self' 'unsafe-inline'|https?:|\*/);
});
