// The one path a trained model takes to a figure: a widget declares the models it shows when it
// registers (web/src/widgets/shared/registry.js), one table names each model's loader and the
// learner's words for it (web/src/text/trained-models.js), and the host loads them and hands
// them to the widget (web/src/widgets/shared/host.js). The browser tests check the figures and
// their loading and failure lines (tests/e2e/translation.test.js, language-model.test.js); this
// test keeps the declarations, the table and the pages' preloading in step.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { register } from 'node:module';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { loadLesson } from '../../web/build/content.js';
import { ROOT } from './helpers.js';

register('./page-modules.js', import.meta.url);
const { mountsEarly, needsOf, registerWidget, widgetNames } =
  await import('../../web/src/widgets/shared/registry.js');
const { TRAINED_MODELS, isModelFailure, isTrainedModel } =
  await import('../../web/src/text/trained-models.js');
const { figureViews } = await import('../../web/src/share/figure-views.js');
await import('../../web/src/widgets/index.js');

const lesson = loadLesson(fileURLToPath(new URL('../../slides/attention', import.meta.url)));
const read = (path) => readFileSync(`${ROOT}/${path}`, 'utf8');

describe('the table of trained models', () => {
  test('names each model with its loaders, its loading line (with its size) and its error', () => {
    assert.deepEqual(Object.keys(TRAINED_MODELS).sort(), [
      'language-model',
      'transformer',
      'translation',
    ]);
    for (const [name, entry] of Object.entries(TRAINED_MODELS)) {
      assert.ok(isTrainedModel(name), name);
      for (const loader of ['fetchOnce', 'loadOnce', 'loaded']) {
        assert.equal(typeof entry[loader], 'function', `${name}: ${loader}`);
      }
      assert.match(entry.loading, /^Loading .* \(about [\d.]+ (kB|MB)\)\u2026$/, name);
      assert.match(entry.missing, /could not be loaded$/, name);
      const failure = new entry.Unavailable('the learner reads this');
      assert.ok(failure instanceof Error, name);
      assert.ok(isModelFailure(failure), `${name}: its failure is a model's`);
    }
    assert.equal(isModelFailure(new Error('anything else')), false);
    assert.equal(isTrainedModel('toString'), false);
  });
});

describe('what the widgets declare', () => {
  test('the translation and language-model figures declare their models, and read the vectors', () => {
    assert.deepEqual(needsOf(['translation']), { vectors: true, models: ['translation'] });
    assert.deepEqual(needsOf(['language-model']), { vectors: true, models: ['language-model'] });
    assert.deepEqual(needsOf(['knowledge-check']), { vectors: false, models: [] });
    assert.deepEqual(needsOf(['no-such-widget']), { vectors: false, models: [] });
  });

  test('a widget whose views show different models loads only those of the view shown', () => {
    const view = (props) => needsOf([{ type: 'transformer', props }]);
    assert.deepEqual(view({ view: 'heads' }), { vectors: true, models: ['transformer'] });
    assert.deepEqual(view({ view: 'compare' }).models, ['transformer', 'translation']);
    // By name alone, every model it declares.
    assert.deepEqual(needsOf(['transformer']).models, ['transformer', 'translation']);
    registerWidget('widget-models-views', () => ({}), {
      models: ['translation'],
      modelsFor: () => ['language-model'],
    });
    assert.throws(
      () => needsOf([{ type: 'widget-models-views', props: {} }]),
      /shows a model it does not declare: "language-model"/,
    );
  });

  test('a page of the lesson preloads every model its figures show, each once', () => {
    const needs = needsOf(figureViews(lesson.slides));
    assert.equal(needs.vectors, true);
    assert.deepEqual([...needs.models].sort(), ['language-model', 'translation']);
  });

  test('the pages take what to preload from the declarations, naming no widget', () => {
    for (const path of [
      'web/src/embed/main.js',
      'web/src/deck/main.js',
      'web/src/article/main.js',
    ]) {
      const source = read(path);
      assert.match(source, /startLoading\(needsOf\(/, path);
      assert.doesNotMatch(source, /'language-model'|'translation'|'transformer'/, path);
    }
  });

  test('a widget cannot declare a model the page does not have', () => {
    assert.throws(
      () => registerWidget('widget-models-test', () => ({}), { models: ['no-such-model'] }),
      /needs no model "no-such-model"/,
    );
    assert.equal(widgetNames().includes('widget-models-test'), false);
  });

  test('a widget that declares a model neither loads it nor waits for it itself', () => {
    const declaring = widgetNames().filter(
      (name) => !name.startsWith('widget-models-') && needsOf([name]).models.length > 0,
    );
    assert.deepEqual(declaring.sort(), ['language-model', 'transformer', 'translation']);
    for (const name of declaring) {
      const source = read(`web/src/widgets/${name}/index.js`);
      assert.doesNotMatch(
        source,
        /\w+Once\(|loaded(Model|Translation|Transformer)\b/,
        `${name} loads`,
      );
      assert.doesNotMatch(source, /\bgone\b/, `${name} keeps a flag of its own`);
      assert.doesNotMatch(source, /from '[^']*(engine-loader|after-load)\.js'/, `${name} waits`);
    }
  });
});

describe('the title figure mounts before anything has loaded, on its recording alone', () => {
  const title = lesson.slides.find((slide) => slide.id === 'title');

  test('its alignment view, whose sentence is recorded, mounts early', () => {
    assert.equal(title?.widget?.type, 'translation');
    const props = { ...title.widget.props, state: {} };
    assert.equal(mountsEarly('translation', props), true);
    // What the learner last typed, kept by the page, decides as the slide's sentence does.
    const kept = { ...props, state: { sentence: title.widget.props.sentence } };
    assert.equal(mountsEarly('translation', kept), true);
  });

  test('a sentence or view without a recording waits for the models as other figures do', () => {
    const props = { ...title.widget.props, state: { sentence: 'A sentence no one recorded.' } };
    assert.equal(mountsEarly('translation', props), false);
    assert.equal(mountsEarly('translation', { ...title.widget.props, view: 'compare' }), false);
    assert.equal(mountsEarly('language-model', { state: {} }), false);
  });
});
