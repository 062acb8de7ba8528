// The SCORM 1.2 reporting (web/src/lms/scorm.js) against fake windows and a fake LMS API: where
// the API is found (and where not), what the LMS is told and when, that a failing LMS never
// throws into the lesson, and that a lesson reports only to its own SCO; and the package's
// manifest (web/build/scorm-package.js): one item and SCO per lesson.
import assert from 'node:assert/strict';
import path from 'node:path';
import { describe, test } from 'node:test';
import { loadLessons } from '../../web/build/content.js';
import { LAUNCH, lessonIdentifiers, manifestXml } from '../../web/build/scorm-package.js';
import { packageMeta } from '../../tools/build-scorm.js';
import { addAnswer, answerDetail, answerFollower } from '../../web/src/quiz/answer.js';
import { createSession } from '../../web/src/quiz/session.js';
import { ROOT } from './helpers.js';
import { register } from 'node:module';
import {
  MAX_DEPTH,
  choiceLetter,
  clockTime,
  createReporter,
  findApi,
  launchedLesson,
  percentScore,
  timespan,
} from '../../web/src/lms/scorm.js';

// The deck's side imports the figure views, whose styles only a page can load.
register('./page-modules.js', import.meta.url);
const { SUMMARY_SLIDE, reportToLms } = await import('../../web/src/deck/lms.js');

const LESSONS = loadLessons(path.join(ROOT, 'slides'));

/**
 * A fake SCORM 1.2 API that keeps the values set and logs every call.
 * @param {{ values?: Record<string, string>, refuse?: (name: string, args: string[]) => boolean,
 *   throws?: boolean }} [options] refuse: calls answered 'false' (error 201 after them)
 */
function fakeApi({ values = {}, refuse = () => false, throws = false } = {}) {
  const data = {
    'cmi.core.lesson_status': 'not attempted',
    'cmi.interactions._count': '0',
    ...values,
  };
  /** @type {[string, ...string[]][]} */
  const calls = [];
  let error = '0';
  const answer = (name, args, value) => {
    calls.push([name, ...args]);
    if (throws) throw new Error(`${name} broke`);
    if (refuse(name, args)) {
      error = '201';
      return name === 'LMSGetValue' ? '' : 'false';
    }
    error = '0';
    return value();
  };
  const api = {
    LMSInitialize: (...args) => answer('LMSInitialize', args, () => 'true'),
    LMSFinish: (...args) => answer('LMSFinish', args, () => 'true'),
    LMSCommit: (...args) => answer('LMSCommit', args, () => 'true'),
    LMSGetValue: (...args) => answer('LMSGetValue', args, () => data[args[0]] ?? ''),
    LMSSetValue: (...args) =>
      answer('LMSSetValue', args, () => {
        data[args[0]] = args[1];
        return 'true';
      }),
    LMSGetLastError: () => error,
  };
  const sets = () => calls.filter(([name]) => name === 'LMSSetValue').map(([, k, v]) => [k, v]);
  const count = (name) => calls.filter(([called]) => called === name).length;
  return { api, data, calls, sets, count };
}

/**
 * A chain of fake windows, innermost first; `api` sits in the window at `at`.
 * @param {number} length
 * @param {{ api?: object, at?: number, top?: object }} [options]
 */
function windowChain(length, { api, at = -1, top } = {}) {
  const wins = Array.from({ length }, () => ({}));
  wins.forEach((win, i) => {
    win.parent = wins[i + 1] ?? top ?? win;
    if (i === at) win.API = api;
  });
  return wins;
}

const answer = (overrides = {}) => ({
  id: 'scale-saturation',
  choice: 1,
  correctChoice: 2,
  correct: false,
  choices: 4,
  right: 0,
  total: 5,
  ...overrides,
});

describe('findApi', () => {
  const { api } = fakeApi();

  test('finds the API in the window itself or a parent, within the bound', () => {
    assert.equal(findApi(windowChain(3, { api, at: 0 })[0]), api);
    assert.equal(findApi(windowChain(4, { api, at: 3 })[0]), api);
    assert.equal(findApi(windowChain(MAX_DEPTH + 1, { api, at: MAX_DEPTH })[0]), api);
    assert.equal(findApi(windowChain(MAX_DEPTH + 3, { api, at: MAX_DEPTH + 2 })[0]), null);
  });

  test('looks in the opener and its parents after the parents', () => {
    const opener = windowChain(2, { api, at: 1 })[0];
    const [win] = windowChain(2);
    win.opener = opener;
    assert.equal(findApi(win), api);
    const own = fakeApi().api;
    win.parent.API = own;
    assert.equal(findApi(win), own, 'the parents come first');
  });

  test('no API: none in the chain, or something that is not one', () => {
    assert.equal(findApi(windowChain(3)[0]), null);
    assert.equal(findApi(windowChain(2, { api: { LMSInitialize() {} }, at: 1 })[0]), null);
    assert.equal(findApi(windowChain(2, { api: 'API', at: 1 })[0]), null);
    assert.equal(findApi({}), null);
  });

  test('a cross-origin window that throws on access counts as having nothing', () => {
    const foreign = {};
    for (const name of ['API', 'parent', 'opener']) {
      Object.defineProperty(foreign, name, {
        get() {
          throw new DOMException(
            'Blocked a frame from accessing a cross-origin frame.',
            'SecurityError',
          );
        },
      });
    }
    const [win] = windowChain(1, { top: foreign });
    assert.equal(findApi(win), null);
    assert.equal(findApi(foreign), null);
    // Beyond a foreign frame, the opener is still searched.
    win.opener = windowChain(1, { api, at: 0 })[0];
    assert.equal(findApi(win), api);
  });

  test('a parent chain that loops ends at the bound', () => {
    const a = {};
    const b = { parent: a };
    a.parent = b;
    assert.equal(findApi(a), null);
  });
});

describe('the formats SCORM 1.2 asks for', () => {
  test('timespan is HHHH:MM:SS.SS', () => {
    assert.equal(timespan(0), '0000:00:00.00');
    assert.equal(timespan(3_723_456), '0001:02:03.46');
    assert.equal(timespan(59_999), '0000:01:00.00');
    assert.equal(timespan(-5), '0000:00:00.00');
  });
  test('clock time is HH:MM:SS', () => {
    assert.equal(clockTime(new Date(2024, 4, 6, 7, 8, 9)), '07:08:09');
  });
  test('choices are letters a to z', () => {
    assert.deepEqual([0, 1, 25].map(choiceLetter), ['a', 'b', 'z']);
    assert.deepEqual([26, -1, 1.5].map(choiceLetter), [null, null, null]);
  });
  test('the score is the percentage of the questions right', () => {
    assert.equal(percentScore(3, 5), 60);
    assert.equal(percentScore(1, 3), 33);
    assert.equal(percentScore(0, 5), 0);
    assert.equal(percentScore(5, 5), 100);
    assert.equal(percentScore(0, 0), 0);
  });
});

describe('launchedLesson', () => {
  test('the launch data names the lesson, else the launch address, else none', () => {
    assert.equal(launchedLesson('lesson=transformer', ''), 'transformer');
    assert.equal(launchedLesson('?lesson=transformer', '?lesson=attention'), 'transformer');
    assert.equal(launchedLesson(' lesson=attention ', ''), 'attention');
    assert.equal(launchedLesson('', '?lesson=transformer'), 'transformer');
    assert.equal(
      launchedLesson('something else', '?figure=title&lesson=transformer'),
      'transformer',
    );
    assert.equal(launchedLesson('', ''), null);
    assert.equal(launchedLesson('', '?figure=title'), null);
  });
});

describe('createReporter', () => {
  test('a whole visit: incomplete, answers, completed, finished', () => {
    const lms = fakeApi();
    let ms = 1_000;
    const reporter = createReporter(lms.api, {
      now: () => ms,
      clock: () => new Date(2024, 0, 1, 9, 30, 5),
    });
    assert.equal(reporter.start(), true);
    assert.deepEqual(lms.calls[0], ['LMSInitialize', '']);
    assert.equal(lms.data['cmi.core.lesson_status'], 'incomplete');

    reporter.answer(
      answer({
        id: 'retrieval-no-supervision',
        choice: 0,
        correctChoice: 0,
        correct: true,
        right: 1,
      }),
    );
    reporter.answer(answer({ right: 1 }));
    assert.deepEqual(
      Object.fromEntries(
        Object.entries(lms.data).filter(([k]) => k.startsWith('cmi.interactions.')),
      ),
      {
        'cmi.interactions._count': '0',
        'cmi.interactions.0.id': 'retrieval-no-supervision',
        'cmi.interactions.0.type': 'choice',
        'cmi.interactions.0.time': '09:30:05',
        'cmi.interactions.0.student_response': 'a',
        'cmi.interactions.0.correct_responses.0.pattern': 'a',
        'cmi.interactions.0.result': 'correct',
        'cmi.interactions.1.id': 'scale-saturation',
        'cmi.interactions.1.type': 'choice',
        'cmi.interactions.1.time': '09:30:05',
        'cmi.interactions.1.student_response': 'b',
        'cmi.interactions.1.correct_responses.0.pattern': 'c',
        'cmi.interactions.1.result': 'wrong',
      },
    );
    assert.equal(lms.data['cmi.core.score.raw'], '20');
    assert.equal(lms.data['cmi.core.score.min'], '0');
    assert.equal(lms.data['cmi.core.score.max'], '100');
    // A commit after the start and after each answer.
    assert.equal(lms.count('LMSCommit'), 3);

    reporter.complete();
    reporter.complete();
    assert.equal(lms.data['cmi.core.lesson_status'], 'completed');
    assert.equal(lms.count('LMSCommit'), 4);

    ms += 65_250;
    reporter.finish();
    reporter.finish();
    assert.equal(lms.data['cmi.core.session_time'], '0000:01:05.25');
    assert.equal(lms.data['cmi.core.exit'], '');
    assert.equal(lms.count('LMSFinish'), 1);
    assert.deepEqual(lms.calls.at(-1), ['LMSFinish', '']);
    assert.deepEqual(lms.calls.at(-2), ['LMSCommit', '']);
    assert.equal(reporter.active(), false);

    // After LMSFinish nothing more is sent.
    const before = lms.calls.length;
    reporter.answer(answer());
    reporter.complete();
    assert.equal(lms.calls.length, before);
  });

  test('a learner who had finished is not turned back into incomplete', () => {
    for (const status of ['completed', 'passed', 'failed']) {
      const lms = fakeApi({ values: { 'cmi.core.lesson_status': status } });
      const reporter = createReporter(lms.api);
      reporter.start();
      reporter.complete();
      reporter.finish();
      assert.equal(lms.data['cmi.core.lesson_status'], status);
      assert.ok(!lms.sets().some(([k]) => k === 'cmi.core.lesson_status'), status);
    }
  });

  test('leaving before the summary suspends the attempt', () => {
    const lms = fakeApi();
    const reporter = createReporter(lms.api);
    reporter.start();
    reporter.finish();
    assert.equal(lms.data['cmi.core.exit'], 'suspend');
    assert.equal(lms.data['cmi.core.lesson_status'], 'incomplete');
  });

  test('the score is the best reached, never lowered', () => {
    const lms = fakeApi();
    const reporter = createReporter(lms.api);
    reporter.start();
    reporter.answer(answer({ right: 0 }));
    reporter.answer(answer({ correct: true, right: 1 }));
    reporter.answer(answer({ right: 1 }));
    reporter.answer(answer({ correct: true, right: 2 }));
    // Try again: a new attempt starts from nothing right.
    reporter.answer(answer({ right: 0 }));
    reporter.answer(answer({ correct: true, right: 1 }));
    const raws = lms.sets().filter(([k]) => k === 'cmi.core.score.raw');
    assert.deepEqual(
      raws.map(([, v]) => v),
      ['0', '20', '40'],
    );
    assert.equal(lms.data['cmi.core.score.raw'], '40');
    assert.equal(lms.count('LMSCommit'), 7, 'a commit after every answer all the same');
    assert.equal(lms.data['cmi.interactions.5.id'], 'scale-saturation');

    // Another day: the LMS has 60 from before.
    const again = fakeApi({ values: { 'cmi.core.score.raw': '60' } });
    const later = createReporter(again.api);
    later.start();
    later.answer(answer({ correct: true, right: 3 }));
    assert.equal(again.data['cmi.core.score.raw'], '60');
    later.answer(answer({ correct: true, right: 4 }));
    assert.equal(again.data['cmi.core.score.raw'], '80');
  });

  test('new interactions follow those the LMS has from an earlier visit', () => {
    const lms = fakeApi({ values: { 'cmi.interactions._count': '3' } });
    const reporter = createReporter(lms.api);
    reporter.start();
    reporter.answer(answer());
    assert.equal(lms.data['cmi.interactions.3.id'], 'scale-saturation');
    assert.equal(lms.data['cmi.interactions.0.id'], undefined);
  });

  test('review mode writes nothing', () => {
    const lms = fakeApi({ values: { 'cmi.core.lesson_mode': 'review' } });
    const reporter = createReporter(lms.api);
    reporter.start();
    reporter.answer(answer());
    reporter.complete();
    reporter.finish();
    assert.deepEqual(lms.sets(), []);
    assert.equal(lms.count('LMSFinish'), 1);
  });

  test('another lesson\u2019s SCO is neither read nor written', () => {
    const lms = fakeApi({
      values: {
        'cmi.launch_data': 'lesson=transformer',
        'cmi.core.lesson_location': 'heads',
        'cmi.suspend_data': '{"format":1,"figures":{}}',
      },
    });
    /** @type {string[]} */
    const asked = [];
    const reporter = createReporter(lms.api, {
      ours: (data) => {
        asked.push(data);
        return data === 'lesson=attention';
      },
    });
    assert.equal(reporter.start(), true);
    assert.deepEqual(asked, ['lesson=transformer']);
    assert.deepEqual(reporter.saved(), { location: '', data: '' });
    reporter.answer(answer());
    reporter.keep('title', '{}');
    reporter.complete();
    reporter.finish();
    assert.deepEqual(lms.sets(), []);
    assert.deepEqual(
      lms.calls.filter(([name]) => name === 'LMSGetValue').map(([, element]) => element),
      ['cmi.launch_data'],
    );
    assert.equal(lms.count('LMSFinish'), 1);
  });

  test('an LMS that refuses to start gets nothing more', () => {
    const lms = fakeApi({ refuse: (name) => name === 'LMSInitialize' });
    const reporter = createReporter(lms.api);
    assert.equal(reporter.start(), false);
    assert.equal(reporter.lastError(), '201');
    reporter.answer(answer());
    reporter.complete();
    reporter.finish();
    assert.deepEqual(
      lms.calls.map(([name]) => name),
      ['LMSInitialize'],
    );
  });

  test('refused optional fields are skipped, the rest still sent', () => {
    const lms = fakeApi({
      refuse: (name, [key]) => name === 'LMSSetValue' && key.includes('correct_responses'),
    });
    const reporter = createReporter(lms.api);
    reporter.start();
    reporter.answer(answer({ correct: true, choice: 2, right: 1 }));
    assert.equal(lms.data['cmi.interactions.0.result'], 'correct');
    assert.equal(lms.data['cmi.interactions.0.correct_responses.0.pattern'], undefined);
    assert.equal(lms.data['cmi.core.score.raw'], '20');
    assert.equal(reporter.lastError(), '201');
  });

  test('an LMS without interactions still gets the score', () => {
    const lms = fakeApi({
      refuse: (name, [key]) => name === 'LMSSetValue' && key.startsWith('cmi.interactions'),
    });
    const reporter = createReporter(lms.api);
    reporter.start();
    reporter.answer(answer({ right: 2 }));
    reporter.answer(answer({ right: 2 }));
    assert.equal(lms.data['cmi.core.score.raw'], '40');
    // Only the id was tried each time: the rest of a refused interaction is not sent.
    assert.equal(lms.sets().filter(([k]) => k.startsWith('cmi.interactions')).length, 2);
  });

  test('an LMS that throws never throws into the lesson', () => {
    const lms = fakeApi({ throws: true });
    const reporter = createReporter(lms.api);
    assert.equal(reporter.start(), false);
    assert.equal(reporter.lastError(), 'exception');

    // It starts, then breaks.
    const flaky = fakeApi();
    const later = createReporter(flaky.api);
    assert.equal(later.start(), true);
    for (const name of Object.keys(flaky.api)) {
      flaky.api[name] = () => {
        throw new Error('gone');
      };
    }
    assert.doesNotThrow(() => {
      later.answer(answer());
      later.complete();
      later.finish();
    });
    assert.equal(later.active(), false);
  });
});

describe('the deck in an LMS', () => {
  const items = [
    {
      id: 'one',
      slide: 'a',
      promptHtml: 'One?',
      choicesHtml: ['x', 'y', 'z'],
      answer: 2,
      explanationHtml: '',
    },
    {
      id: 'two',
      slide: 'a',
      promptHtml: 'Two?',
      choicesHtml: ['x', 'y'],
      answer: 0,
      explanationHtml: '',
    },
  ];

  /** A fake deck: its handlers by event name, and whether it prints. */
  function fakeDeck() {
    /** @type {Record<string, Function[]>} */
    const handlers = {};
    return {
      on: (name, fn) => (handlers[name] ??= []).push(fn),
      isPrintView: () => false,
      getSlides: () => [],
      emit: (name, id) => handlers[name]?.forEach((fn) => fn({ currentSlide: { id } })),
    };
  }

  test('every lesson has the summary slide, after its knowledge check', () => {
    for (const { lesson, slides } of LESSONS) {
      const ids = slides.map((slide) => slide.id);
      assert.ok(ids.includes(SUMMARY_SLIDE), `no slide "${SUMMARY_SLIDE}" in ${lesson.key}`);
      const check = slides.findIndex((slide) => slide.widget?.type === 'knowledge-check');
      assert.ok(check >= 0 && check < ids.indexOf(SUMMARY_SLIDE), lesson.key);
    }
  });

  test('an answer carries the choice and the score so far', () => {
    const session = createSession(items);
    session.answer(2);
    assert.deepEqual(answerDetail(session, /** @type {any} */ (session.current())), {
      id: 'one',
      choice: 2,
      correctChoice: 2,
      correct: true,
      choices: 3,
      right: 1,
      total: 2,
    });
    session.next();
    assert.equal(
      answerDetail(session, /** @type {any} */ (session.current())),
      null,
      'not answered',
    );
  });

  test('each answer a state counts is passed on once, however often the state comes back', () => {
    const heard = [];
    const follow = answerFollower((answer) => heard.push(answer.id));
    /** @type {Record<string, unknown>} */
    const state = {};
    follow(state);
    addAnswer(state, /** @type {any} */ ({ id: 'one' }));
    follow({ ...state });
    follow({ ...state });
    addAnswer(state, /** @type {any} */ ({ id: 'two' }));
    follow({ ...state });
    follow({ answered: 1, answer: { id: 'old' } });
    follow({ answered: 'many', answer: { id: 'bad' } });
    follow({ answered: 3 });
    assert.deepEqual(heard, ['one', 'two']);
    assert.equal(state.answered, 2);
  });

  test('outside an LMS nothing is listened to', () => {
    const deck = fakeDeck();
    const win = { parent: null, addEventListener: () => assert.fail('listens to the window') };
    win.parent = win;
    assert.equal(reportToLms(/** @type {any} */ (win), /** @type {any} */ (deck), []), null);
  });

  /**
   * The deck of lesson `lesson` (first: the site's first) in an LMS whose SCO hands it
   * `launchData`, at the address `search`: whether it reports, answers and completion included.
   * @param {{ lesson: string, first: boolean, launchData?: string, search?: string }} launch
   */
  function reports({ lesson, first, launchData, search = '' }) {
    const lms = fakeApi({
      values: launchData === undefined ? {} : { 'cmi.launch_data': launchData },
    });
    const deck = fakeDeck();
    const win = Object.assign(new EventTarget(), {
      API: lms.api,
      setTimeout: () => 0,
      location: { search },
    });
    Object.assign(win, { parent: win });
    reportToLms(/** @type {any} */ (win), /** @type {any} */ (deck), [], { lesson, first });
    deck.emit('ready', 'title');
    deck.emit('slidechanged', SUMMARY_SLIDE);
    win.dispatchEvent(new Event('pagehide'));
    assert.equal(lms.count('LMSFinish'), 1);
    return lms.sets().length > 0 && lms.data['cmi.core.lesson_status'] === 'completed';
  }

  test('each lesson reports to its own SCO, and to no other', () => {
    const attention = { lesson: 'attention', first: true };
    const transformer = { lesson: 'transformer', first: false };
    // The package's launches: lesson 1 at index.html, lesson 2 with its key in the address,
    // each item's launch data naming its lesson.
    assert.equal(reports({ ...attention, launchData: 'lesson=attention' }), true);
    assert.equal(
      reports({ ...transformer, launchData: 'lesson=transformer', search: '?lesson=transformer' }),
      true,
    );
    // A package of lesson 1 alone, which gives no launch data.
    assert.equal(reports({ ...attention, launchData: '' }), true);
    assert.equal(reports({ ...transformer, search: '?lesson=transformer' }), true);
    // The LMS launched one lesson's SCO and the page shows another: nothing is written.
    assert.equal(reports({ ...attention, launchData: 'lesson=transformer' }), false);
    assert.equal(reports({ ...transformer, launchData: 'lesson=attention' }), false);
    assert.equal(reports({ ...transformer, launchData: '' }), false);
    assert.equal(reports({ ...attention, launchData: 'lesson=lesson-9' }), false);
  });

  test('answers, the summary and leaving reach the LMS', () => {
    const lms = fakeApi();
    const deck = fakeDeck();
    const win = Object.assign(new EventTarget(), { API: lms.api, setTimeout: () => 0 });
    Object.assign(win, { parent: win });
    const place = reportToLms(/** @type {any} */ (win), /** @type {any} */ (deck), []);
    assert.ok(place?.reporter.active());
    deck.emit('ready', 'title');
    const session = createSession(items);
    session.answer(1);
    // The check hands its state back with the answer counted, as the deck passes it on.
    /** @type {Record<string, unknown>} */
    const state = {};
    addAnswer(
      state,
      /** @type {any} */ (answerDetail(session, /** @type {any} */ (session.current()))),
    );
    place?.figures.onState?.('knowledge-check', 'knowledge-check', { ...state });
    place?.figures.onState?.('knowledge-check', 'knowledge-check', { ...state });
    place?.figures.onState?.('title', 'heatmap', { answered: 5, answer: {} });
    assert.equal(lms.data['cmi.interactions.1.id'], undefined, 'one answer, told once');
    assert.equal(lms.data['cmi.interactions.0.result'], 'wrong');
    assert.equal(lms.data['cmi.core.score.raw'], '0');
    deck.emit('slidechanged', 'knowledge-check');
    assert.equal(lms.data['cmi.core.lesson_status'], 'incomplete');
    deck.emit('slidechanged', SUMMARY_SLIDE);
    assert.equal(lms.data['cmi.core.lesson_status'], 'completed');
    win.dispatchEvent(new Event('pagehide'));
    win.dispatchEvent(new Event('pagehide'));
    assert.equal(lms.count('LMSFinish'), 1);
  });
});

describe('the package\u2019s manifest', () => {
  const meta = packageMeta();
  const files = ['assets/index.js', LAUNCH, 'models/transformer.bin'];
  const manifest = manifestXml(files, meta);
  const items = [...manifest.matchAll(/<item\b([^>]*)>([\s\S]*?)<\/item>/g)];
  const resources = [...manifest.matchAll(/<resource\b([^>]*)>([\s\S]*?)<\/resource>/g)];
  const attribute = (tag, name) => new RegExp(`\\b${name}="([^"]*)"`).exec(tag)?.[1];

  test('has one item and one SCO per lesson, named and described from the lessons', () => {
    assert.equal(items.length, LESSONS.length);
    assert.ok(LESSONS.length >= 2);
    LESSONS.forEach(({ lesson }, index) => {
      const [, tag, body] = items[index];
      const ids = lessonIdentifiers('attention-lab', lesson.key, index);
      assert.equal(attribute(tag, 'identifier'), ids.item);
      assert.equal(attribute(tag, 'identifierref'), ids.sco);
      assert.match(body, new RegExp(`<title>${lesson.title} \\(`));
      assert.ok(body.includes(`${lesson.subtitle}</imsmd:langstring>`), 'its description');
      const sco = resources.find(([, attrs]) => attribute(attrs, 'identifier') === ids.sco);
      assert.ok(sco, `${lesson.key}: its resource`);
      assert.equal(attribute(sco[1], 'adlcp:scormtype'), 'sco');
    });
  });

  test('keeps lesson 1\u2019s identifiers: an LMS that has it sees the same activity', () => {
    assert.equal(attribute(items[0][1], 'identifier'), 'attention-lab-item');
    assert.equal(attribute(items[0][1], 'identifierref'), 'attention-lab-sco');
    assert.match(manifest, /<organizations default="attention-lab-org">/);
  });

  test('each launch names its lesson: in its launch data, and in the address but the first', () => {
    LESSONS.forEach(({ lesson }, index) => {
      const [, tag, body] = items[index];
      const data = /<adlcp:datafromlms>([^<]*)<\/adlcp:datafromlms>/.exec(body)?.[1] ?? '';
      assert.equal(launchedLesson(data, ''), lesson.key, `${lesson.key}: launch data`);
      const sco = resources.find(
        ([, attrs]) => attribute(attrs, 'identifier') === attribute(tag, 'identifierref'),
      );
      const href = attribute(sco?.[1] ?? '', 'href') ?? '';
      const [file, query = ''] = href.split('?');
      assert.equal(file, LAUNCH);
      assert.equal(launchedLesson('', query ? `?${query}` : ''), index === 0 ? null : lesson.key);
    });
  });

  test('lists every file once, in the shared files every SCO depends on', () => {
    const shared = resources.filter(([attrs]) => /adlcp:scormtype="asset"/.test(attrs));
    assert.equal(shared.length, 1);
    const listed = [...shared[0][2].matchAll(/<file href="([^"]+)"/g)].map(([, href]) => href);
    assert.deepEqual(listed, files);
    const id = attribute(shared[0][1], 'identifier');
    for (const [, attrs, body] of resources) {
      if (attrs === shared[0][1]) continue;
      assert.match(body, new RegExp(`<dependency identifierref="${id}" />`));
    }
    assert.doesNotMatch(manifest, /masteryscore/i);
  });
});
