// The rules of docs/content.md for lesson.yaml (its models included), each slide's front matter
// (each figure view's model a key of lesson.yaml's models) and quiz.yaml. Every check throws a
// ContentError naming the file and the field; nothing here reads files or renders.
import { ContentError } from './content-error.js';
import { expectFields, expectKind, expectMapping } from './fields.js';

const LESSON_FIELDS = {
  key: { kind: 'kebab', required: true },
  course: { kind: 'string', required: true },
  module: { kind: 'positive', required: true },
  lesson: { kind: 'positive', required: true },
  title: { kind: 'string', required: true },
  subtitle: { kind: 'string' },
  next: { kind: 'mapping' },
  models: { kind: 'mapping' },
};
/** The next lesson, announced before its folder exists (loadLessons says when it does). */
const NEXT_FIELDS = {
  title: { kind: 'string', required: true },
};
/** One model a figure can show, in lesson.yaml's `models`, named by its key. */
const MODEL_FIELDS = {
  name: { kind: 'string', required: true },
  trained: { kind: 'boolean', required: true },
  what: { kind: 'string', required: true },
};
const SLIDE_FIELDS = {
  id: { kind: 'kebab', required: true },
  title: { kind: 'string', required: true },
  kicker: { kind: 'string' },
  widget: { kind: 'mapping' },
  article: { kind: 'boolean' },
};
const WIDGET_FIELDS = {
  type: { kind: 'string', required: true },
  label: { kind: 'string' },
  model: { kind: 'kebab' },
  props: { kind: 'mapping' },
  also: { kind: 'list' },
};
/** One more view of a slide's figure, in `widget.also`. */
const VIEW_FIELDS = {
  type: { kind: 'string', required: true },
  label: { kind: 'string', required: true },
  model: { kind: 'kebab' },
  props: { kind: 'mapping' },
};
/** The widget that is no figure (a quiz): it shows no model, and names none. */
const NO_MODEL = 'knowledge-check';
const QUIZ_FIELDS = {
  check: { kind: 'list', required: true },
  items: { kind: 'list', required: true },
};
/** One question of the knowledge check: the central idea it asks about and the item that asks. */
const CHECK_FIELDS = {
  idea: { kind: 'kebab', required: true },
  item: { kind: 'kebab', required: true },
};
const STATIC_FIELDS = {
  id: { kind: 'kebab', required: true },
  slide: { kind: 'kebab', required: true },
  prompt: { kind: 'string', required: true },
  choices: { kind: 'list', required: true },
  answer: { kind: 'index', required: true },
  explanation: { kind: 'string', required: true },
};
const LIVE_FIELDS = {
  id: { kind: 'kebab', required: true },
  slide: { kind: 'kebab', required: true },
  generator: { kind: 'kebab', required: true },
};
const STATIC_KEYS = ['prompt', 'choices', 'answer', 'explanation'];
const EITHER = 'an item has either prompt, choices, answer and explanation, or generator';
const MIN_CHOICES = 2;
const MAX_CHOICES = 6;

/**
 * Checks a lesson's lesson.yaml (slides/<key>/lesson.yaml).
 * @param {unknown} data the parsed YAML
 * @param {string} file
 * @returns {{ key: string, course: string, module: number, lesson: number, title: string,
 *   subtitle?: string, next?: { title: string },
 *   models?: Record<string, { name: string, trained: boolean, what: string }> }}
 */
export function checkLessonMeta(data, file) {
  const meta = expectFields(data, LESSON_FIELDS, file, '');
  if ('next' in meta) expectFields(meta.next, NEXT_FIELDS, file, 'next');
  if ('models' in meta) checkModels(/** @type {Record<string, unknown>} */ (meta.models), file);
  return /** @type {any} */ (meta);
}

/**
 * Checks lesson.yaml's `models`: kebab-case keys, each with a name, whether it was trained and
 * what it is; no name twice, so that one name always means one model.
 * @param {Record<string, unknown>} models
 * @param {string} file
 */
function checkModels(models, file) {
  const names = new Map();
  for (const [key, model] of Object.entries(models)) {
    const field = `models.${key}`;
    expectKind(key, 'kebab', file, field);
    const { name } = expectFields(model, MODEL_FIELDS, file, field);
    if (names.has(name)) {
      const problem = `"${name}" is already the name of ${names.get(name)}; each model needs its own`;
      throw new ContentError(file, `${field}.name`, problem);
    }
    names.set(name, field);
  }
}

/**
 * Checks that every view of a figure names a model of lesson.yaml (the knowledge check, which
 * is no figure, names none).
 * @param {Record<string, unknown>} widget checked against WIDGET_FIELDS, its views too
 * @param {string} file
 * @param {Record<string, unknown>} models lesson.yaml's `models`, checked
 */
function checkViewModels(widget, file, models) {
  const views = [
    ['widget', widget],
    .../** @type {Record<string, unknown>[]} */ (widget.also ?? []).map((view, i) => [
      `widget.also[${i}]`,
      view,
    ]),
  ];
  const known = Object.keys(models).join(', ') || 'none';
  for (const [field, view] of /** @type {[string, Record<string, unknown>][]} */ (views)) {
    if (view.type === NO_MODEL) {
      if (!('model' in view)) continue;
      const problem = `must be left out: ${NO_MODEL} is a quiz, not a figure of a model`;
      throw new ContentError(file, `${field}.model`, problem);
    }
    if (!('model' in view)) {
      const problem = `is required: the key of the model the view shows (known: ${known})`;
      throw new ContentError(file, `${field}.model`, problem);
    }
    const key = /** @type {string} */ (view.model);
    if (!Object.hasOwn(models, key)) {
      const problem = `"${key}" is not one of the models of lesson.yaml (known: ${known})`;
      throw new ContentError(file, `${field}.model`, problem);
    }
  }
}

/**
 * Checks a figure's views: `widget.also` lists at least one, each with a type and a label, no type
 * twice (the address names a view by its type); the first view then needs a label too.
 * @param {Record<string, unknown>} widget checked against WIDGET_FIELDS
 * @param {string} file
 */
function checkViews(widget, file) {
  if (!('also' in widget)) return;
  const also = /** @type {unknown[]} */ (widget.also);
  if (also.length === 0) throw new ContentError(file, 'widget.also', 'must list at least one view');
  if (!('label' in widget)) {
    throw new ContentError(file, 'widget.label', 'is required when widget.also lists more views');
  }
  const types = [widget.type];
  also.forEach((view, i) => {
    const { type } = expectFields(view, VIEW_FIELDS, file, `widget.also[${i}]`);
    if (types.includes(type)) {
      const problem = `"${type}" is already a view of this figure; each view needs its own type`;
      throw new ContentError(file, `widget.also[${i}].type`, problem);
    }
    types.push(type);
  });
}

/**
 * Checks one slide's front matter, and that the file is named NN-<id>.md.
 * @param {unknown} data the parsed front matter
 * @param {string} file e.g. 'slides/05-scaled-dot-product.md'
 * @param {Record<string, unknown>} [models] lesson.yaml's `models`, checked: the keys a view's
 *   `model` may name
 * @returns {{ id: string, title: string, kicker?: string,
 *   widget?: { type: string, label?: string, model?: string, props?: object,
 *     also?: { type: string, label: string, model: string, props?: object }[] },
 *   article?: boolean }}
 */
export function checkSlideMeta(data, file, models = {}) {
  expectMapping(data, file, 'front matter');
  const meta = expectFields(data, SLIDE_FIELDS, file, '');
  if ('widget' in meta) {
    const widget = expectFields(meta.widget, WIDGET_FIELDS, file, 'widget');
    checkViews(widget, file);
    checkViewModels(widget, file, models);
  }
  const name = file.slice(file.lastIndexOf('/') + 1);
  const expected = `${name.slice(0, name.indexOf('-'))}-${meta.id}.md`;
  if (name !== expected) {
    throw new ContentError(file, 'id', `"${meta.id}" must match the file name: ${expected}`);
  }
  return /** @type {any} */ (meta);
}

/**
 * Checks that slide ids are unique across the lesson.
 * @param {Array<{ id: string, file: string }>} slides
 */
export function checkSlideIds(slides) {
  const seen = new Map();
  for (const { id, file } of slides) {
    if (seen.has(id)) {
      throw new ContentError(file, 'id', `"${id}" is already the id of ${seen.get(id)}`);
    }
    seen.set(id, file);
  }
}

/**
 * Checks one quiz item: either a static question or a live one from a generator.
 * @param {unknown} item
 * @param {string} file
 * @param {string} field e.g. 'items[2]'
 * @param {Set<string>} slideIds
 */
function checkItem(item, file, field, slideIds) {
  expectMapping(item, file, field);
  const live = 'generator' in item;
  const statics = STATIC_KEYS.filter((key) => key in item);
  if (live && statics.length > 0) {
    throw new ContentError(file, `${field}.${statics[0]}`, `cannot go with generator; ${EITHER}`);
  }
  if (!live && statics.length === 0) throw new ContentError(file, field, `needs fields; ${EITHER}`);
  const checked = expectFields(item, live ? LIVE_FIELDS : STATIC_FIELDS, file, field);
  if (!slideIds.has(/** @type {string} */ (checked.slide))) {
    throw new ContentError(file, `${field}.slide`, `"${checked.slide}" is not the id of any slide`);
  }
  if (live) return;
  const choices = /** @type {unknown[]} */ (checked.choices);
  if (choices.length < MIN_CHOICES || choices.length > MAX_CHOICES) {
    const range = `${MIN_CHOICES} to ${MAX_CHOICES}`;
    throw new ContentError(file, `${field}.choices`, `must hold ${range}, got ${choices.length}`);
  }
  choices.forEach((choice, i) => expectKind(choice, 'string', file, `${field}.choices[${i}]`));
  if (Number(checked.answer) >= choices.length) {
    const problem = `${checked.answer} is not an index into choices (0 to ${choices.length - 1})`;
    throw new ContentError(file, `${field}.answer`, problem);
  }
}

/**
 * Checks a lesson's quiz.yaml, including that every item's slide exists and that `check` pairs each
 * of its ideas, named once, with an existing item, each item asked once.
 * @param {unknown} data the parsed YAML
 * @param {string} file
 * @param {Set<string>} slideIds every slide id in the lesson
 * @returns {{ check: Array<{ idea: string, item: string }>,
 *   items: Array<Record<string, unknown>> }}
 */
export function checkQuiz(data, file, slideIds) {
  const quiz = expectFields(data, QUIZ_FIELDS, file, '');
  const items = /** @type {unknown[]} */ (quiz.items);
  const check = /** @type {unknown[]} */ (quiz.check);
  if (items.length === 0) throw new ContentError(file, 'items', 'must list at least one item');
  const itemIds = new Set();
  items.forEach((item, i) => {
    checkItem(item, file, `items[${i}]`, slideIds);
    const { id } = /** @type {{ id: string }} */ (item);
    if (itemIds.has(id)) throw new ContentError(file, `items[${i}].id`, `"${id}" is used twice`);
    itemIds.add(id);
  });
  if (check.length === 0) throw new ContentError(file, 'check', 'must list at least one idea');
  const ideas = new Map();
  const asked = new Map();
  check.forEach((entry, i) => {
    const field = `check[${i}]`;
    const { idea, item } = /** @type {{ idea: string, item: string }} */ (
      expectFields(entry, CHECK_FIELDS, file, field)
    );
    if (ideas.has(idea)) {
      const problem = `"${idea}" is already the idea of ${ideas.get(idea)}`;
      throw new ContentError(file, `${field}.idea`, problem);
    }
    ideas.set(idea, field);
    if (!itemIds.has(item)) {
      throw new ContentError(file, `${field}.item`, `"${item}" is not the id of any item`);
    }
    if (asked.has(item)) {
      const problem = `"${item}" is already asked in ${asked.get(item)}`;
      throw new ContentError(file, `${field}.item`, problem);
    }
    asked.set(item, field);
  });
  return /** @type {any} */ (quiz);
}
