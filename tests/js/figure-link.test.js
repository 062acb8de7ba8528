// Links to a figure: the settings of the shown slide's figure go into the query and come back
// out with their types, as far as the figure's widget declares and accepts them; links naming
// another slide, reserved, undeclared, oversized and odd parameters give nothing; the hash and the
// print view's parameter survive.
import assert from 'node:assert/strict';
import { register } from 'node:module';
import { describe, test } from 'node:test';

// The widgets, whose declarations decide what a link sets, import their CSS as Vite serves it.
register('./page-modules.js', import.meta.url);
await import('../../web/src/widgets/index.js');
const { settingsFromUrl, urlWithSettings } = await import('../../web/src/share/figure-link.js');

const PAGE = 'http://127.0.0.1:5173/index.html#/multi-head';

describe('figure links', () => {
  test('settings go into the query and come back with their types', () => {
    const settings = { sentence: 'The dog & the cat?', causal: true, view: 'lines', from: 2 };
    const url = urlWithSettings(PAGE, 'title', settings, 'heatmap');
    assert.equal(new URL(url).hash, '#/multi-head');
    assert.equal(new URL(url).searchParams.get('figure'), 'title');
    assert.deepEqual(settingsFromUrl(url, 'title', 'heatmap'), settings);
    const scores = { mode: 'drag', scores: [1.5, -2] };
    const dragged = urlWithSettings(PAGE, 'weighted-retrieval', scores);
    assert.deepEqual(settingsFromUrl(dragged, 'weighted-retrieval', 'weighted-retrieval'), scores);
  });

  test('text stays text, even when it reads like a number', () => {
    const url = urlWithSettings(PAGE, 'multi-head', { sentence: '42', seed: 7 });
    assert.deepEqual(settingsFromUrl(url, 'multi-head', 'multi-head'), {
      sentence: '42',
      seed: 7,
    });
  });

  test('a link for another slide, or none, gives no settings', () => {
    const url = urlWithSettings(PAGE, 'title', { sentence: 'Hello' });
    assert.deepEqual(settingsFromUrl(url, 'multi-head', 'multi-head'), {});
    assert.deepEqual(settingsFromUrl(PAGE, 'multi-head', 'multi-head'), {});
  });

  test('a widget takes only the settings it declares', () => {
    const url = urlWithSettings(PAGE, 'title', { sentence: 'Hi', heads: 2, keyboard: false });
    assert.deepEqual(settingsFromUrl(url, 'title', 'heatmap'), { sentence: 'Hi' });
    assert.deepEqual(settingsFromUrl(url, 'title', 'knowledge-check'), {});
    assert.deepEqual(settingsFromUrl(url, 'title', 'no-such-widget'), {});
  });

  test('empty settings clear the figure but keep the print view and the hash', () => {
    const start = 'http://127.0.0.1/index.html?print-pdf&figure=title&sentence=x#/title';
    const url = urlWithSettings(start, 'title', {});
    assert.equal(url, 'http://127.0.0.1/index.html?print-pdf=#/title');
  });

  test('reserved names, oversized values and odd text are left out, never thrown on', () => {
    const long = 'a'.repeat(2001);
    const url = urlWithSettings(PAGE, 'title', { figure: 'x', sentence: long, from: 1 });
    assert.deepEqual(settingsFromUrl(url, 'title', 'heatmap'), { from: 1 });
    const odd = `${PAGE.replace('#', '?figure=title&from=[1,&__proto__=1&view=<b>&causal=1#')}`;
    assert.deepEqual(settingsFromUrl(odd, 'title', 'heatmap'), {});
  });
});
