// Links to a figure: the settings of the shown slide's figure go into the query and come back
// out with their types; links naming another slide, reserved and oversized parameters give
// nothing; the hash and the print view's parameter survive.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { settingsFromUrl, urlWithSettings } from '../../web/src/share/figure-link.js';

const PAGE = 'http://127.0.0.1:5173/index.html#/multi-head';

describe('figure links', () => {
  test('settings go into the query and come back with their types', () => {
    const settings = { sentence: 'The dog & the cat?', heads: 5, causal: true, scores: [1.5, -2] };
    const url = urlWithSettings(PAGE, 'multi-head', settings);
    assert.equal(new URL(url).hash, '#/multi-head');
    assert.equal(new URL(url).searchParams.get('figure'), 'multi-head');
    assert.deepEqual(settingsFromUrl(url, 'multi-head'), settings);
  });

  test('text stays text when the slide’s default is text, even if it reads like a number', () => {
    const url = urlWithSettings(PAGE, 'title', { sentence: '42', seed: 7 });
    assert.deepEqual(settingsFromUrl(url, 'title', { sentence: 'The cat sat.' }), {
      sentence: '42',
      seed: 7,
    });
    assert.deepEqual(settingsFromUrl(url, 'title'), { sentence: 42, seed: 7 });
  });

  test('a link for another slide, or none, gives no settings', () => {
    const url = urlWithSettings(PAGE, 'title', { sentence: 'Hello' });
    assert.deepEqual(settingsFromUrl(url, 'multi-head'), {});
    assert.deepEqual(settingsFromUrl(PAGE, 'multi-head'), {});
  });

  test('empty settings clear the figure but keep the print view and the hash', () => {
    const start = 'http://127.0.0.1/index.html?print-pdf&figure=title&sentence=x#/title';
    const url = urlWithSettings(start, 'title', {});
    assert.equal(url, 'http://127.0.0.1/index.html?print-pdf=#/title');
  });

  test('reserved names, oversized values and odd text are handled, never thrown on', () => {
    const long = 'a'.repeat(2001);
    const url = urlWithSettings(PAGE, 'title', { figure: 'x', sentence: long, seed: 1 });
    assert.deepEqual(settingsFromUrl(url, 'title'), { seed: 1 });
    const odd = `${PAGE.replace('#', '?figure=title&from=[1,&__proto__=1&view=<b>#')}`;
    assert.deepEqual(settingsFromUrl(odd, 'title'), { from: '[1,', view: '<b>' });
  });
});
