// Embedding a figure: the embed page's address carries the figure's settings as a figure link
// does and always names the figure; the <iframe> snippet escapes what it quotes, so a sentence
// with quotes, ampersands or angle brackets can neither end an attribute nor open a tag, and
// comes back unchanged when the snippet is parsed.
import assert from 'node:assert/strict';
import { register } from 'node:module';
import { describe, test } from 'node:test';
import {
  attributeText,
  embedHref,
  embedSnippet,
  frameHeight,
} from '../../web/src/share/embed-code.js';
import { settingsFromUrl, viewFromUrl } from '../../web/src/share/figure-link.js';

// The widgets declare the settings a link gives them; they import their CSS as Vite serves it.
register('./page-modules.js', import.meta.url);
await import('../../web/src/widgets/index.js');

const DECK = 'https://school.example/ml/attention/index.html?figure=title#/title';

/**
 * The attributes of the one tag in `html`, unescaped as an HTML parser would.
 * @param {string} html
 * @returns {Record<string, string>}
 */
function attributes(html) {
  const tag = /^<iframe((?:\s+[\w-]+="[^"]*")*)><\/iframe>$/.exec(html);
  assert.ok(tag, `one iframe and nothing else: ${html}`);
  const unescape = (text) =>
    text
      .replaceAll('&quot;', '"')
      .replaceAll('&lt;', '<')
      .replaceAll('&gt;', '>')
      .replaceAll('&amp;', '&');
  return Object.fromEntries(
    Array.from(tag[1].matchAll(/([\w-]+)="([^"]*)"/g), ([, name, value]) => [
      name,
      unescape(value),
    ]),
  );
}

describe('the embed address', () => {
  test('sits beside the page, carries the settings and the view, and drops the hash', () => {
    const settings = { sentence: 'Tom & "Jerry" <3', heads: 2, seed: 3 };
    const src = embedHref(DECK, 'multi-head', settings, 'multi-head');
    const url = new URL(src);
    assert.equal(url.origin + url.pathname, 'https://school.example/ml/attention/embed.html');
    assert.equal(url.hash, '');
    assert.equal(url.searchParams.get('figure'), 'multi-head');
    assert.equal(viewFromUrl(src, 'multi-head'), 'multi-head');
    assert.deepEqual(settingsFromUrl(src, 'multi-head', 'multi-head'), settings);
  });

  test('names its figure even with no settings to carry', () => {
    const src = embedHref(DECK, 'why-scale', {});
    assert.equal(src, 'https://school.example/ml/attention/embed.html?figure=why-scale');
  });
});

describe('the iframe snippet', () => {
  test('has the address, a title, the width of the page, a rounded height and no border', () => {
    const src = embedHref(DECK, 'why-scale', { dims: 64 });
    const snippet = embedSnippet({ src, title: 'Why Scale?', height: 487.2 });
    assert.deepEqual(attributes(snippet), {
      src,
      title: 'Why Scale? \u00b7 Attention Lab',
      width: '100%',
      height: '490',
      style: 'border:0',
      loading: 'lazy',
    });
  });

  test('quotes, ampersands and angle brackets stay inside their attribute', () => {
    const sentence = 'He said "stop" & <b>left</b>';
    const src = embedHref(DECK, 'title', { sentence }, 'heatmap');
    const snippet = embedSnippet({ src, title: 'A "quoted" <title> & more', height: 300 });
    assert.doesNotMatch(snippet, /<b>|"stop"|"quoted"/);
    assert.match(snippet, /&amp;show=heatmap&amp;sentence=/, 'the query’s ampersands escaped');
    const attrs = attributes(snippet);
    assert.equal(attrs.src, src);
    assert.equal(attrs.title, 'A "quoted" <title> & more \u00b7 Attention Lab');
    assert.equal(settingsFromUrl(attrs.src, 'title', 'heatmap').sentence, sentence);
  });

  test('attribute text escapes the ampersand first, so nothing is escaped twice', () => {
    assert.equal(attributeText('&quot; "a" & <b>'), '&amp;quot; &quot;a&quot; &amp; &lt;b&gt;');
  });

  test('the height is rounded up to 10 px, and a missing or bad one is never 0', () => {
    assert.equal(frameHeight(480), 480);
    assert.equal(frameHeight(480.01), 490);
    assert.equal(frameHeight(1), 10);
    assert.equal(frameHeight(0), 10);
    assert.equal(frameHeight(Number.NaN), 10);
    assert.equal(frameHeight(-5), 10);
  });
});
