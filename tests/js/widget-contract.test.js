// Every widget goes through the one contract (web/src/widgets/shared/registry.js) by the one
// lifecycle, formWidget (web/src/widgets/shared/form-widget.js), which hands the state a link or
// an LMS keeps back through props.onState; and the pages that host widgets learn of changes from
// that callback alone, with no listener on the figures' input, change or click events standing in
// for it. The browser tests check the behaviour (tests/e2e/figure-link.test.js,
// each widget's "survives leaving the slide" test, tests/e2e/scorm.test.js); this test keeps a new
// widget or host from going around the contract.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { register } from 'node:module';
import { test } from 'node:test';
import { ROOT } from './helpers.js';

register('./page-modules.js', import.meta.url);
const { createWidget, widgetNames } = await import('../../web/src/widgets/shared/registry.js');
await import('../../web/src/widgets/index.js');

const read = (path) => readFileSync(`${ROOT}/${path}`, 'utf8');

test('every widget is made by the shared lifecycle, formWidget', () => {
  const names = widgetNames();
  assert.ok(names.length >= 14, `${names.length} widgets registered`);
  const around = names.filter(
    (name) => !/\bformWidget\(/.test(read(`web/src/widgets/${name}/index.js`)),
  );
  assert.deepEqual(around, [], 'these keep a lifecycle of their own');
});

test('the hosts listen to no figure events in place of onState', () => {
  for (const path of ['web/src/deck/widgets.js', 'web/src/embed/main.js', 'web/src/deck/lms.js']) {
    const source = read(path);
    assert.doesNotMatch(source, /addEventListener\(\s*'(input|click)'/, path);
    assert.doesNotMatch(source, /CustomEvent|'quiz-/, `${path} hears no event of a widget's`);
    assert.match(source, /onState|onChange/, `${path} takes changes from the widgets`);
  }
});

test('no widget sends events of its own: onState is the one way back', () => {
  for (const name of widgetNames()) {
    const source = read(`web/src/widgets/${name}/index.js`);
    assert.doesNotMatch(source, /dispatchEvent|CustomEvent/, `${name} sends an event`);
  }
});

test('the contract is mount and destroy: no widget offers update', () => {
  for (const name of widgetNames()) {
    const widget = createWidget(name);
    assert.deepEqual(Object.keys(widget).sort(), ['destroy', 'mount'], name);
  }
});
