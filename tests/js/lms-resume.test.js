// Resuming in an LMS: the figures the learner left go into cmi.suspend_data and come back, checked
// against the lesson's slides, views and the widgets' declared settings (web/src/lms/resume.js);
// the reporter reads what the LMS kept and writes only what changed (web/src/lms/scorm.js); the
// deck goes back to the slide in cmi.core.lesson_location and tells the LMS where the learner is
// before it finishes (web/src/deck/lms.js). Real lesson, real widget declarations, a fake LMS.
import assert from 'node:assert/strict';
import { register } from 'node:module';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { loadLesson } from '../../web/build/content.js';
import { HOSTILE_VALUES } from './hostile-values.js';

register('./page-modules.js', import.meta.url);
await import('../../web/src/widgets/index.js');
const { SUSPEND_MAX, decodeFigures, decodeLocation, encodeFigures } =
  await import('../../web/src/lms/resume.js');
const { createReporter } = await import('../../web/src/lms/scorm.js');
const { reportToLms } = await import('../../web/src/deck/lms.js');
const { viewsOf } = await import('../../web/src/share/figure-views.js');

const lesson = loadLesson(fileURLToPath(new URL('../../slides/attention/', import.meta.url)));
/** Per slide with a figure: its views' widget types, the first the default. */
const views = new Map(
  lesson.slides.flatMap((slide) =>
    slide.widget ? [[slide.id, viewsOf(slide.widget).map((view) => view.type)]] : [],
  ),
);
const slideIds = lesson.slides.map((slide) => slide.id);
/** @param {string} type */
const withView = (type) => [...views].find(([, types]) => types.includes(type));

describe('the figures kept in cmi.suspend_data', () => {
  test('a figure comes back with its view and the settings its widget accepts', () => {
    const [heatmapSlide, heatmapTypes] = /** @type {[string, string[]]} */ (withView('heatmap'));
    const [stepsSlide] = /** @type {[string, string[]]} */ (withView('attention-steps'));
    const heatmapView = heatmapTypes[0] === 'heatmap' ? undefined : 'heatmap';
    const text = encodeFigures(
      [
        [heatmapSlide, { view: heatmapView, settings: { sentence: 'The dog barked', from: 2 } }],
        [stepsSlide, { settings: { causal: true, step: 3 } }],
      ],
      heatmapSlide,
    );
    const back = decodeFigures(text, views);
    assert.deepEqual(back.get(heatmapSlide), {
      view: 'heatmap',
      settings: { sentence: 'The dog barked', from: 2 },
    });
    assert.equal(back.get(stepsSlide)?.settings.causal, true);
    assert.equal(back.get(stepsSlide)?.settings.step, 3);
  });

  test('a figure as it opens anyway is not kept', () => {
    const [id] = /** @type {[string, string[]]} */ ([...views][0]);
    assert.equal(decodeFigures(encodeFigures([[id, { settings: {} }]]), views).size, 0);
  });

  test('at most 4,096 characters: the shown slide first, each figure whole or not at all', () => {
    const long = 'attention '.repeat(150);
    /** @type {[string, { settings: Record<string, unknown> }][]} */
    const all = [...views].map(([id]) => [id, { settings: { sentence: long } }]);
    const shown = all[Math.floor(all.length / 2)][0];
    const text = encodeFigures(all, shown);
    assert.ok(text.length <= SUSPEND_MAX, `${text.length} characters`);
    const back = JSON.parse(text).figures;
    const kept = Object.keys(back);
    assert.equal(kept[0], shown, 'the shown slide is kept first');
    assert.ok(kept.length > 1 && kept.length < all.length, `${kept.length} of ${all.length}`);
    for (const id of kept) assert.equal(back[id].set.sentence, long, 'each whole');
  });

  test('what comes back from the LMS is checked: junk gives nothing, never a throw', () => {
    const [id, types] = /** @type {[string, string[]]} */ ([...views][0]);
    const texts = [
      ...HOSTILE_VALUES.map(({ text }) => text),
      JSON.stringify({ format: 2, figures: { [id]: { set: {} } } }),
      JSON.stringify({ format: 1, figures: [] }),
      JSON.stringify({ format: 1, figures: { 'no-such-slide': { set: { sentence: 'x' } } } }),
      JSON.stringify({ format: 1, figures: { [id]: { show: 'no-such-view', set: {} } } }),
      JSON.stringify({ format: 1, figures: { [id]: 'x' } }),
      `{"format":1,"figures":{"${id}":{"set":{"sentence":"${'x'.repeat(SUSPEND_MAX)}"}}}}`,
    ];
    for (const text of texts) assert.equal(decodeFigures(text, views).size, 0, text.slice(0, 80));
    for (const { text } of HOSTILE_VALUES) {
      const figure = decodeFigures(
        JSON.stringify({ format: 1, figures: { [id]: { set: { sentence: text } } } }),
        views,
      ).get(id);
      assert.equal(figure?.view, types[0]);
      for (const value of Object.values(figure?.settings ?? {})) {
        assert.ok(typeof value !== 'string' || value.isWellFormed());
      }
    }
  });

  test('the slide kept is one the lesson has', () => {
    assert.equal(decodeLocation(slideIds[3], slideIds), slideIds[3]);
    for (const { text } of HOSTILE_VALUES) assert.equal(decodeLocation(text, slideIds), undefined);
  });
});

/**
 * A fake SCORM 1.2 API that keeps what is set; every call logged.
 * @param {Record<string, string>} [values]
 */
function fakeApi(values = {}) {
  const data = { 'cmi.core.lesson_status': 'incomplete', ...values };
  /** @type {string[][]} */
  const calls = [];
  const api = {
    LMSInitialize: () => (calls.push(['LMSInitialize']), 'true'),
    LMSFinish: () => (calls.push(['LMSFinish']), 'true'),
    LMSCommit: () => (calls.push(['LMSCommit']), 'true'),
    LMSGetValue: (name) => (calls.push(['LMSGetValue', name]), data[name] ?? ''),
    LMSSetValue: (name, value) => {
      calls.push(['LMSSetValue', name, value]);
      data[name] = value;
      return 'true';
    },
    LMSGetLastError: () => '0',
  };
  return { api, data, calls };
}

describe('the reporter keeps the learner\u2019s place', () => {
  test('reads what the LMS kept, and sets only what changed', () => {
    const lms = fakeApi({ 'cmi.core.lesson_location': 'title', 'cmi.suspend_data': '{}' });
    const reporter = createReporter(lms.api);
    assert.ok(reporter.start());
    assert.deepEqual(reporter.saved(), { location: 'title', data: '{}' });
    const before = lms.calls.length;
    reporter.keep('title', '{}');
    assert.equal(lms.calls.length, before, 'nothing changed, nothing sent');
    reporter.keep('bottleneck', '{}');
    assert.deepEqual(lms.calls.slice(before), [
      ['LMSSetValue', 'cmi.core.lesson_location', 'bottleneck'],
      ['LMSCommit'],
    ]);
    assert.deepEqual(reporter.saved(), { location: 'bottleneck', data: '{}' });
  });

  test('review mode keeps nothing', () => {
    const lms = fakeApi({ 'cmi.core.lesson_mode': 'review' });
    const reporter = createReporter(lms.api);
    reporter.start();
    reporter.keep('bottleneck', '{"format":1,"figures":{}}');
    assert.equal(lms.calls.filter(([name]) => name === 'LMSSetValue').length, 0);
  });
});

describe('the deck resumes where the learner left', () => {
  /**
   * A fake deck: handlers by event, slides by id, where it was told to go.
   * @param {string[]} ids
   */
  function fakeDeck(ids) {
    /** @type {Record<string, Function[]>} */
    const handlers = {};
    const slides = ids.map((id) => ({ id }));
    /** @type {number[][]} */
    const went = [];
    return {
      went,
      on: (name, fn) => (handlers[name] ??= []).push(fn),
      isPrintView: () => false,
      getSlides: () => slides,
      getIndices: (slide) => ({ h: slides.indexOf(slide), v: 0 }),
      slide: (h, v) => went.push([h, v]),
      emit: (name, id) => handlers[name]?.forEach((fn) => fn({ currentSlide: { id } })),
    };
  }
  /** A window holding the API, with timers that run when told. */
  function fakeWindow(api) {
    /** @type {Function[]} */
    const timers = [];
    const win = Object.assign(new EventTarget(), {
      API: api,
      setTimeout: (fn) => timers.push(fn),
      runTimers: () => timers.splice(0).forEach((fn) => fn()),
    });
    return Object.assign(win, { parent: win });
  }

  test('opens on the slide kept, with the figures kept; tells the LMS before finishing', () => {
    const [id, types] = /** @type {[string, string[]]} */ ([...views][2]);
    const kept = JSON.stringify({ format: 1, figures: { [id]: { set: { sentence: 'Hi.' } } } });
    const lms = fakeApi({ 'cmi.core.lesson_location': id, 'cmi.suspend_data': kept });
    const deck = fakeDeck(slideIds);
    const win = fakeWindow(lms.api);
    const place = reportToLms(/** @type {any} */ (win), /** @type {any} */ (deck), lesson.slides);
    assert.ok(place);
    deck.emit('ready', slideIds[0]);
    assert.deepEqual(deck.went, [[slideIds.indexOf(id), 0]]);
    assert.deepEqual(place.figures.resumed?.get(id), {
      view: types[0],
      settings: { sentence: 'Hi.' },
    });
    // The learner changes the figure and leaves before the LMS was told: it is told first.
    place.figures.onChange?.([[id, { settings: { sentence: 'Bye.' } }]], id);
    win.dispatchEvent(new Event('pagehide'));
    const names = lms.calls.map((call) => call.slice(0, 2).join(' '));
    const saved = names.indexOf('LMSSetValue cmi.suspend_data');
    assert.ok(saved >= 0 && saved < names.indexOf('LMSFinish'));
    const back = decodeFigures(lms.data['cmi.suspend_data'], views).get(id);
    assert.equal(back?.settings.sentence, 'Bye.');
  });

  test('an address naming a slide wins over the slide kept', () => {
    const lms = fakeApi({ 'cmi.core.lesson_location': slideIds[4] });
    const deck = fakeDeck(slideIds);
    reportToLms(
      /** @type {any} */ (fakeWindow(lms.api)),
      /** @type {any} */ (deck),
      lesson.slides,
      { linked: true },
    );
    deck.emit('ready', slideIds[1]);
    assert.deepEqual(deck.went, []);
  });

  test('the slide shown reaches the LMS a moment after the learner moves', () => {
    const lms = fakeApi();
    const deck = fakeDeck(slideIds);
    const win = fakeWindow(lms.api);
    reportToLms(/** @type {any} */ (win), /** @type {any} */ (deck), lesson.slides);
    deck.emit('ready', slideIds[0]);
    deck.emit('slidechanged', slideIds[1]);
    deck.emit('slidechanged', slideIds[2]);
    assert.equal(lms.data['cmi.core.lesson_location'], undefined, 'not yet');
    win.runTimers();
    assert.equal(lms.data['cmi.core.lesson_location'], slideIds[2]);
  });
});
