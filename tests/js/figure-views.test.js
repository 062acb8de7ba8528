// A figure with more than one view: its views from the lesson data (the slide's own widget
// first), the view a link names (`show`), which never becomes a widget setting, and the name and
// title a saved picture of a view gets.
import assert from 'node:assert/strict';
import { register } from 'node:module';
import { describe, test } from 'node:test';

import {
  VIEW_PARAM,
  settingsFromUrl,
  urlWithSettings,
  viewFromUrl,
} from '../../web/src/share/figure-link.js';

// figure-views.js and the widgets (whose declarations decide what a link sets) import their CSS
// as Vite serves it; these hooks do the same for Node.
register('./page-modules.js', import.meta.url);
await import('../../web/src/widgets/index.js');
const { figureFileName, savedAs, viewsOf } = await import('../../web/src/share/figure-views.js');

const PAGE = 'http://127.0.0.1:5173/index.html#/bottleneck';

describe('viewsOf', () => {
  test('lists the slide\u2019s own widget first, then the others, props filled in', () => {
    const views = viewsOf({
      type: 'bottleneck',
      label: 'Stored facts',
      props: { width: 64 },
      also: [{ type: 'training', label: 'Trained models', props: { experiment: 'bottleneck' } }],
    });
    assert.deepEqual(views, [
      { type: 'bottleneck', label: 'Stored facts', props: { width: 64 } },
      { type: 'training', label: 'Trained models', props: { experiment: 'bottleneck' } },
    ]);
  });

  test('a figure of one view is one view', () => {
    assert.deepEqual(viewsOf({ type: 'heatmap' }), [
      { type: 'heatmap', label: 'heatmap', props: {} },
    ]);
  });
});

describe('links to a view', () => {
  test('name the view after the slide, and bring it back with the settings', () => {
    const url = urlWithSettings(PAGE, 'bottleneck', { seed: 3, rate: '0.01' }, 'training');
    const params = new URL(url).searchParams;
    assert.deepEqual(
      [...params.keys()],
      ['figure', VIEW_PARAM, 'seed', 'rate'],
      'the view first, then the settings',
    );
    assert.equal(viewFromUrl(url, 'bottleneck'), 'training');
    assert.deepEqual(settingsFromUrl(url, 'bottleneck', 'training'), { seed: 3, rate: 0.01 });
    assert.equal(new URL(url).hash, '#/bottleneck');
  });

  test('a view is named even when its settings are all empty', () => {
    const url = urlWithSettings(PAGE, 'bottleneck', {}, 'training');
    assert.equal(viewFromUrl(url, 'bottleneck'), 'training');
  });

  test('the first view is not named; a link for another slide names none', () => {
    const first = urlWithSettings(PAGE, 'bottleneck', { width: 32 });
    assert.equal(viewFromUrl(first, 'bottleneck'), null);
    assert.equal(new URL(first).searchParams.has(VIEW_PARAM), false);
    const other = urlWithSettings(PAGE, 'why-scale', {}, 'training');
    assert.equal(viewFromUrl(other, 'bottleneck'), null);
    assert.equal(urlWithSettings(PAGE, 'bottleneck', {}), PAGE, 'nothing to say, no query');
  });

  test('a widget setting named like the view parameter never reaches the widget', () => {
    const url = urlWithSettings(PAGE, 'bottleneck', { show: 'junk', seed: 1 }, 'training');
    assert.equal(viewFromUrl(url, 'bottleneck'), 'training');
    assert.deepEqual(settingsFromUrl(url, 'bottleneck', 'training'), { seed: 1 });
  });
});

describe('figureFileName', () => {
  test('names the lesson shown, then the slide', () => {
    assert.equal(figureFileName('attention', 'title'), 'attention-title');
    assert.equal(figureFileName('transformer', 'title'), 'transformer-title');
  });
});

describe('savedAs', () => {
  const views = viewsOf({
    type: 'why-scale',
    label: 'Random scores',
    also: [{ type: 'training', label: 'Trained models' }],
  });

  test('the first view keeps the slide\u2019s file name and title', () => {
    assert.deepEqual(savedAs(views, 'why-scale', 'attention-why-scale', 'Keeping Scores'), {
      name: 'attention-why-scale',
      title: 'Keeping Scores',
    });
  });

  test('another view adds its name and label', () => {
    assert.deepEqual(savedAs(views, 'training', 'attention-why-scale', 'Keeping Scores'), {
      name: 'attention-why-scale-training',
      title: 'Keeping Scores: Trained models',
    });
  });
});
