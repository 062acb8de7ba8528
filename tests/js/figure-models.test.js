// The models the figures show: lesson.yaml names each once, every view of every slide's
// figure declares one by its key (the knowledge check, a quiz, none), each widget always names the
// family it really shows, and the line the deck, the article and the embed page write for the
// view shown carries the declared name in those words, following the view chosen. A view that
// names no model, or one lesson.yaml does not have, fails the build with the file and the field.
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { register } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { loadLesson } from '../../web/build/content.js';
import { parseSlideFile } from '../../web/build/slide-file.js';
import { parseYaml } from '../../web/build/yaml.js';
import { assertContentError } from './content-errors.js';
import { ROOT } from './helpers.js';

// figure-views.js imports its CSS as Vite serves it; these hooks do the same for Node.
register('./page-modules.js', import.meta.url);
const { buildModelLine, modelLineText, showModel, viewsOf } =
  await import('../../web/src/share/figure-views.js');

/** Every lesson's folder. */
const LESSONS = readdirSync(path.join(ROOT, 'slides')).map((key) => path.join(ROOT, 'slides', key));
const VALID = path.join(ROOT, 'tests/js/fixtures-content/valid');
const scratch = mkdtempSync(path.join(tmpdir(), 'attention-lab-models-'));
after(() => rmSync(scratch, { recursive: true, force: true }));

/** The widget that is a quiz, not a figure of a model. */
const QUIZ = 'knowledge-check';

/**
 * The family of models a view really shows, from its widget and props: what its key in
 * lesson.yaml must be. The trained ones come from the page's own code (the translators, the Brown
 * language model) or from the learner's browser (the reversal toys, the live language model); the
 * others are untrained parts, each widget's header comment says which.
 * @param {{ type: string, props: Record<string, unknown> }} view
 * @returns {string | undefined}
 */
function familyOf({ type, props }) {
  if (type === 'translation') {
    return props.view === 'compare' ? 'two-translators' : 'attention-translator';
  }
  if (type === 'transformer') {
    return props.view === 'compare' ? 'three-translators' : 'transformer-translator';
  }
  if (type === 'training') {
    return props.experiment === 'language-model' ? 'live-language-model' : 'reversal-toys';
  }
  if (type === 'language-model') return 'brown-language-model';
  if (type === 'training-speed') return 'training-translators';
  return UNTRAINED[type];
}

/** @type {Record<string, string>} */
const UNTRAINED = {
  heatmap: 'word-vectors', // Q = K = V = the word vectors
  'attention-steps': 'word-vectors',
  'self-attention-pair': 'word-vectors',
  'cross-attention': 'word-vectors', // seeded projections only when the learner turns them on
  position: 'word-vectors', // plus the sinusoidal encoding, which has no parameters
  'query-key-value': 'random-projections', // Glorot-uniform W_Q, W_K, W_V from a seed
  'multi-head': 'random-projections',
  'weighted-retrieval': 'random-projections', // the general and additive scores' seeded weights
  'why-scale': 'random-vectors', // unit-normal q and k
  bottleneck: 'stored-facts',
};
const TRAINED = new Set([
  'attention-translator',
  'two-translators',
  'reversal-toys',
  'brown-language-model',
  'live-language-model',
  'transformer-translator',
  'three-translators',
  'training-translators',
]);

/**
 * Just enough of a document for the model line: elements with class names, attributes, a
 * dataset, children and text, and querySelector('.<class>').
 */
class FakeElement {
  /** @param {string} tag */
  constructor(tag) {
    this.tagName = tag.toUpperCase();
    /** @type {FakeElement[]} */
    this.children = [];
    this.hidden = false;
    this.title = '';
    /** @type {Record<string, string>} */
    this.dataset = {};
    /** @type {Map<string, string>} */
    this.attributes = new Map();
    this.text = '';
  }

  /** @param {...FakeElement} nodes */
  append(...nodes) {
    this.children.push(...nodes);
  }

  /** @param {string} name @param {string} value */
  setAttribute(name, value) {
    this.attributes.set(name, String(value));
  }

  /** The class attribute, as the DOM reflects it. */
  get className() {
    return this.attributes.get('class') ?? '';
  }

  set className(value) {
    this.attributes.set('class', value);
  }

  /** @param {string} name */
  getAttribute(name) {
    return this.attributes.get(name) ?? null;
  }

  get textContent() {
    return this.text + this.children.map((child) => child.textContent).join('');
  }

  set textContent(text) {
    this.children = [];
    this.text = text;
  }

  /**
   * @param {string} selector a class selector, '.name'
   * @returns {FakeElement | null}
   */
  querySelector(selector) {
    const name = selector.slice(1);
    for (const child of this.children) {
      if (child.className.split(' ').includes(name)) return child;
      const found = child.querySelector(selector);
      if (found) return found;
    }
    return null;
  }
}
const fakeDocument = /** @type {Document} */ (
  /** @type {unknown} */ ({ createElement: (tag) => new FakeElement(tag) })
);

for (const SLIDES of LESSONS)
  describe(`the real lesson, ${path.basename(SLIDES)}`, () => {
    const lesson = loadLesson(SLIDES);
    const lessonYaml = /** @type {{ models: Record<string, Record<string, unknown>> }} */ (
      parseYaml(
        readFileSync(path.join(SLIDES, 'lesson.yaml'), 'utf8'),
        `slides/${path.basename(SLIDES)}/lesson.yaml`,
      )
    );
    const models = lessonYaml.models;
    const figures = lesson.slides.filter((slide) => slide.widget);
    /** Every view of every figure, with its slide. */
    const views = figures.flatMap((slide) =>
      viewsOf(slide.widget).map((view) => ({ slide, view })),
    );

    test('lesson.yaml names each model once, and each one is shown by some view', () => {
      const names = Object.values(models).map((model) => model.name);
      assert.equal(new Set(names).size, names.length, names.join(', '));
      const shown = new Set(views.map(({ view }) => view.model?.key));
      assert.deepEqual(
        Object.keys(models).filter((key) => !shown.has(key)),
        [],
        'models no view shows',
      );
    });

    test('every view of every figure declares a model of lesson.yaml in its front matter', () => {
      const files = readdirSync(SLIDES).filter((name) => /^\d{2}-.+\.md$/.test(name));
      for (const name of files) {
        const { meta } = parseSlideFile(readFileSync(path.join(SLIDES, name), 'utf8'), name);
        const widget = /** @type {any} */ (meta).widget;
        if (!widget) continue;
        for (const [i, view] of [widget, ...(widget.also ?? [])].entries()) {
          const where = `${name}, view ${i} (${view.type})`;
          if (view.type === QUIZ) {
            assert.equal(view.model, undefined, `${where}: a quiz shows no model`);
            continue;
          }
          assert.ok(Object.hasOwn(models, view.model), `${where}: model ${view.model}`);
        }
      }
    });

    test('each view comes to the pages with its model as lesson.yaml words it', () => {
      for (const { slide, view } of views) {
        if (view.type === QUIZ) {
          assert.equal(view.model, undefined, slide.id);
          continue;
        }
        const model = /** @type {NonNullable<typeof view.model>} */ (view.model);
        assert.deepEqual(
          model,
          { key: model.key, ...models[model.key] },
          `${slide.id} ${view.type}`,
        );
      }
    });

    test('each widget names the family of models it really shows, trained or not', () => {
      for (const { slide, view } of views) {
        if (view.type === QUIZ) continue;
        const where = `${slide.id}: ${view.type} ${JSON.stringify(view.props)}`;
        assert.equal(view.model?.key, familyOf(view), where);
        assert.equal(view.model?.trained, TRAINED.has(familyOf(view) ?? ''), `${where}: trained`);
      }
    });

    test('the line names the model of the view shown, in lesson.yaml’s words, and follows it', () => {
      for (const slide of figures) {
        const list = viewsOf(slide.widget);
        const line = /** @type {FakeElement | null} */ (
          /** @type {unknown} */ (buildModelLine(fakeDocument, list))
        );
        if (slide.widget?.type === QUIZ) {
          assert.equal(line, null, 'the knowledge check has no model line');
          continue;
        }
        assert.ok(line, slide.id);
        // Plain text where it stands, for a screen reader as for the eye; spoken again on a change.
        assert.equal(line.tagName, 'P');
        assert.equal(line.className, 'figure-model');
        assert.equal(line.getAttribute('aria-live'), 'polite');
        const scope = new FakeElement('section');
        scope.append(line);
        /** @param {(typeof list)[number]} view the view the line must name */
        const assertNames = (view) => {
          const model = /** @type {NonNullable<typeof view.model>} */ (view.model);
          const where = `${slide.id} (${view.type})`;
          const { name, what, trained } = models[model.key];
          const lead = `${trained ? 'Model' : 'Untrained'}: ${name}`;
          assert.equal(line.textContent, `${lead} \u2014 ${what}`, where);
          assert.equal(line.textContent, modelLineText(model), where);
          assert.equal(line.querySelector('.figure-model-name')?.textContent, lead, where);
          assert.equal(line.title, line.textContent, `${where}: the whole line as its title`);
          assert.equal(line.dataset.model, model.key, where);
          assert.equal(line.hidden, false, where);
        };
        // The first view's line as built, then each view as the learner chooses it, and back.
        assertNames(list[0]);
        for (const view of [...list.slice(1), list[0]]) {
          showModel(/** @type {any} */ (scope), view);
          assertNames(view);
        }
      }
    });
  });

/**
 * A copy of the valid fixture as a `slides/` folder, with one more slide and, if given, another
 * lesson.yaml.
 * @param {string[]} slide the lines of 03-models.md's front matter, without the `---` lines
 * @param {string} [lessonYaml]
 * @returns {string} the folder
 */
function lessonWith(slide, lessonYaml) {
  const dir = path.join(mkdtempSync(path.join(scratch, 'case-')), 'slides');
  cpSync(VALID, dir, { recursive: true });
  writeFileSync(
    path.join(dir, '03-models.md'),
    ['---', ...slide, '---', '', 'A figure.'].join('\n'),
  );
  if (lessonYaml) writeFileSync(path.join(dir, 'lesson.yaml'), lessonYaml);
  return dir;
}

/**
 * Asserts that loading `dir` throws a ContentError about `file` and `field`.
 * @param {string} dir
 * @param {string} file
 * @param {string} field
 * @param {RegExp} problem
 */
function assertFails(dir, file, field, problem) {
  assertContentError(() => loadLesson(dir), file, field, problem);
}

const HEAD = ['id: models', 'title: Models'];
const LESSON_HEAD = [
  'key: small',
  'course: ML 101',
  'module: 9',
  'lesson: 1',
  'title: A Small Lesson',
  'models:',
].join('\n');

describe('a model that is missing or unknown fails the build, naming the file and the field', () => {
  test('a view naming no model of lesson.yaml', () => {
    const dir = lessonWith([...HEAD, 'widget: { type: heatmap, model: no-such-model }']);
    assertFails(
      dir,
      'slides/03-models.md',
      'widget.model',
      /"no-such-model" is not one of the models of lesson\.yaml \(known: raw-vectors, toy-model\)/,
    );
  });

  test('a figure whose first view declares no model', () => {
    const dir = lessonWith([...HEAD, 'widget: { type: heatmap }']);
    assertFails(dir, 'slides/03-models.md', 'widget.model', /is required: the key of the model/);
  });

  test('a further view that declares no model', () => {
    const dir = lessonWith([
      ...HEAD,
      'widget:',
      '  type: heatmap',
      '  label: Weights',
      '  model: raw-vectors',
      '  also: [{ type: training, label: Trained models }]',
    ]);
    assertFails(dir, 'slides/03-models.md', 'widget.also[0].model', /is required/);
  });

  test('a model key that is not kebab-case', () => {
    const dir = lessonWith([...HEAD, 'widget: { type: heatmap, model: Raw_Vectors }']);
    assertFails(dir, 'slides/03-models.md', 'widget.model', /must be a kebab-case string/);
  });

  test('the knowledge check, which is no figure, naming a model', () => {
    const dir = lessonWith([...HEAD, 'widget: { type: knowledge-check, model: toy-model }']);
    assertFails(dir, 'slides/03-models.md', 'widget.model', /must be left out/);
  });

  test('the knowledge check names none and loads', () => {
    const dir = lessonWith([...HEAD, 'widget: { type: knowledge-check }']);
    const slide = loadLesson(dir).slides.find((s) => s.id === 'models');
    assert.deepEqual(slide?.widget, { type: 'knowledge-check', props: {} });
  });

  test('a model of lesson.yaml without what it is', () => {
    const yaml = `${LESSON_HEAD}\n  toy-model: { name: the toy model, trained: true }\n`;
    const dir = lessonWith([...HEAD, 'widget: { type: heatmap, model: toy-model }'], yaml);
    assertFails(dir, 'slides/lesson.yaml', 'models.toy-model.what', /is required/);
  });

  test('two models of lesson.yaml with one name', () => {
    const yaml = [
      LESSON_HEAD,
      '  one: { name: the toy model, trained: true, what: one }',
      '  two: { name: the toy model, trained: true, what: two }',
      '',
    ].join('\n');
    const dir = lessonWith([...HEAD, 'widget: { type: heatmap, model: one }'], yaml);
    assertFails(
      dir,
      'slides/lesson.yaml',
      'models.two.name',
      /"the toy model" is already the name of models\.one/,
    );
  });

  test('a model of lesson.yaml whose key is not kebab-case', () => {
    const yaml = `${LESSON_HEAD}\n  Toy_Model: { name: the toy model, trained: true, what: a toy }\n`;
    const dir = lessonWith([...HEAD], yaml);
    assertFails(dir, 'slides/lesson.yaml', 'models.Toy_Model', /must be a kebab-case string/);
  });
});
