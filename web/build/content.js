// Loads the lessons from slides/ (one folder each), checks them against docs/content.md and
// renders their Markdown and math to HTML: the objects that the pages import through
// `virtual:lessons` and `virtual:lesson` (vite-plugin-lesson.js).
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { ContentError } from './content-error.js';
import { renderMarkdown, renderMarkdownInline } from './markdown.js';
import { checkLessonMeta, checkQuiz, checkSlideIds, checkSlideMeta } from './schema.js';
import { parseSlideFile, splitDeeper } from './slide-file.js';
import { parseYaml } from './yaml.js';

export { ContentError };

const SLIDE_NAME = /^\d{2}-[^/]+\.md$/;

/**
 * Reads one content file.
 * @param {string} dir
 * @param {string} name
 * @param {string} file the label for messages
 */
function read(dir, name, file) {
  try {
    return readFileSync(path.join(dir, name), 'utf8');
  } catch (err) {
    if (err.code === 'ENOENT') throw new ContentError(file, '', 'is missing');
    throw err;
  }
}

/**
 * Renders Markdown, turning a rendering error (bad TeX, unmatched `$`) into a ContentError.
 * @param {(source: string) => string} render
 * @param {string} source
 * @param {string} file
 * @param {string} field
 */
function rendered(render, source, file, field) {
  try {
    return render(source);
  } catch (err) {
    throw new ContentError(file, field, err.message);
  }
}

/**
 * Loads one slide file.
 * @param {string} dir
 * @param {string} name e.g. '05-scaled-dot-product.md'
 * @param {string} file the label for messages, e.g. 'slides/05-scaled-dot-product.md'
 * @param {Record<string, Model>} models lesson.yaml's models, checked
 */
function loadSlide(dir, name, file, models) {
  const { meta, body, notes, article } = parseSlideFile(read(dir, name, file), file);
  const { id, title, kicker, widget, article: inArticle } = checkSlideMeta(meta, file, models);
  return {
    id,
    title,
    kicker: kicker ?? null,
    widget: widget ? renderWidget(widget, models) : null,
    html: rendered(renderMarkdown, body, file, 'body'),
    notesHtml: rendered(renderMarkdown, notes, file, 'notes'),
    articleHtml: renderArticle(article, file),
    inArticle: inArticle !== false,
    file,
  };
}

/**
 * Renders a slide's article section: its main line as it is, and each deeper part as a closed
 * `<details class="deeper">` whose summary says "Go deeper:" and the part's title.
 * @param {string} article
 * @param {string} file
 * @returns {string} HTML; '' when the slide has no article section
 * @throws {ContentError} on a malformed deeper part, bad TeX or an unmatched `$`
 */
function renderArticle(article, file) {
  return splitDeeper(article, file)
    .map(({ title, markdown }) => {
      const html = rendered(renderMarkdown, markdown, file, 'article');
      if (title === null) return html;
      const summary = rendered(renderMarkdownInline, title, file, 'article');
      return (
        `<details class="deeper"><summary>Go deeper: ${summary}</summary>\n` +
        `<div class="deeper-body">\n${html}</div>\n</details>\n`
      );
    })
    .join('');
}

/**
 * @typedef {{ name: string, trained: boolean, what: string }} Model one of lesson.yaml's models
 */

/**
 * A slide's checked widget as the pages get it: props always there; the label and the further
 * views only when the slide names them; each view's model as lesson.yaml describes it, with its
 * key (none for the knowledge check).
 * @param {{ type: string, label?: string, model?: string, props?: object,
 *   also?: { type: string, label: string, model: string, props?: object }[] }} widget
 * @param {Record<string, Model>} models lesson.yaml's models, checked
 */
function renderWidget({ type, label, model, props, also }, models) {
  /** @param {string | undefined} key */
  const modelOf = (key) => {
    if (key === undefined) return {};
    const { name, trained, what } = models[key];
    return { model: { key, name, trained, what } };
  };
  return {
    type,
    ...(label === undefined ? {} : { label }),
    ...modelOf(model),
    props: props ?? {},
    ...(also === undefined
      ? {}
      : {
          also: also.map((view) => ({
            type: view.type,
            label: view.label,
            ...modelOf(view.model),
            props: view.props ?? {},
          })),
        }),
  };
}

/**
 * Renders one checked quiz item.
 * @param {Record<string, any>} item
 * @param {string} file
 * @param {string} field e.g. 'items[2]'
 */
function renderItem(item, file, field) {
  const { id, slide } = item;
  if (item.generator) return { id, slide, generator: item.generator };
  return {
    id,
    slide,
    promptHtml: rendered(renderMarkdownInline, item.prompt, file, `${field}.prompt`),
    choicesHtml: item.choices.map((choice, i) =>
      rendered(renderMarkdownInline, choice, file, `${field}.choices[${i}]`),
    ),
    answer: item.answer,
    explanationHtml: rendered(renderMarkdown, item.explanation, file, `${field}.explanation`),
  };
}

/**
 * Loads, checks and renders the lesson in `dir`: lesson.yaml, every NN-<id>.md in file-name
 * order, and quiz.yaml. Slide bodies, notes, articles and quiz explanations render as block
 * HTML; quiz prompts and choices as inline HTML (no wrapping paragraph). Math is KaTeX markup
 * with MathML; raw HTML in the content is escaped. Alone it knows no other lesson: `next` is
 * lesson.yaml's, never available (loadLessons works that out).
 * @param {string} dir the lesson's folder (e.g. the project's `slides/attention/`)
 * @param {string} [folder] the folder as messages name it (files as `<folder>/<file>`, e.g.
 *   `slides/attention/quiz.yaml`); the folder's own name by default
 * @returns {Lesson} the shape in docs/content.md: `check` the knowledge check's item ids in order,
 *   `ideas` the idea each asks
 * @throws {ContentError} on the first broken file, naming it and the field
 */
export function loadLesson(dir, folder = path.basename(path.resolve(dir))) {
  const label = (name) => `${folder}/${name}`;

  const yamlFile = (name) => parseYaml(read(dir, name, label(name)), label(name));

  const meta = checkLessonMeta(yamlFile('lesson.yaml'), label('lesson.yaml'));
  const pad = (n) => String(n).padStart(2, '0');

  const names = readdirSync(dir)
    .filter((name) => name.endsWith('.md'))
    .sort();
  const misnamed = names.find((name) => !SLIDE_NAME.test(name));
  if (misnamed) throw new ContentError(label(misnamed), '', 'is not named NN-<id>.md');
  if (names.length === 0) throw new ContentError(label(''), '', 'holds no NN-<id>.md slides');
  const models = meta.models ?? {};
  const slides = names.map((name) => loadSlide(dir, name, label(name), models));
  checkSlideIds(slides);

  const quizFile = label('quiz.yaml');
  const quiz = checkQuiz(yamlFile('quiz.yaml'), quizFile, new Set(slides.map(({ id }) => id)));

  return {
    lesson: {
      key: meta.key,
      course: meta.course,
      module: meta.module,
      lesson: meta.lesson,
      title: meta.title,
      subtitle: meta.subtitle ?? null,
      next: meta.next ? { title: meta.next.title, available: false, key: null } : null,
      code: `M${pad(meta.module)} · L${pad(meta.lesson)}`,
    },
    slides,
    quiz: {
      check: quiz.check.map(({ item }) => item),
      ideas: quiz.check.map(({ idea, item }) => ({ idea, item })),
      items: quiz.items.map((item, i) => renderItem(item, quizFile, `items[${i}]`)),
    },
  };
}

/**
 * @typedef {{ key: string, course: string, module: number, lesson: number, title: string,
 *   subtitle: string | null, next: { title: string, available: boolean, key: string | null }
 *   | null, code: string }} LessonMeta a lesson's lesson.yaml as the pages get it
 * @typedef {{ lesson: LessonMeta, slides: any[], quiz: { check: string[],
 *   ideas: Array<{ idea: string, item: string }>, items: object[] } }} Lesson
 */

/**
 * Loads every lesson under `slidesDir`, one a folder (each as loadLesson loads it), in the order
 * of their numbers: no two lessons may share a number or a key, and all belong to the first one's
 * course and module. A lesson's `next` is the lesson numbered one more when its folder is there
 * (available, with its own title and key), else the one lesson.yaml announces (not available).
 * @param {string} slidesDir the project's `slides/`; messages name files as
 *   `<its name>/<lesson folder>/<file>`, e.g. `slides/attention/lesson.yaml`
 * @returns {Lesson[]} the first is the lesson a page shows when its address names none
 * @throws {ContentError} on the first broken file, naming it and the field
 */
export function loadLessons(slidesDir) {
  const top = path.basename(path.resolve(slidesDir));
  const entries = readdirSync(slidesDir, { withFileTypes: true })
    .filter((entry) => !entry.name.startsWith('.'))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const stray = entries.find((entry) => !entry.isDirectory());
  if (stray) {
    const problem = "is not in a lesson's folder: each lesson's files sit in slides/<key>/";
    throw new ContentError(`${top}/${stray.name}`, '', problem);
  }
  if (entries.length === 0) throw new ContentError(`${top}/`, '', 'holds no lesson folder');

  const loaded = entries.map(({ name }) => {
    const folder = `${top}/${name}`;
    return {
      file: `${folder}/lesson.yaml`,
      content: loadLesson(path.join(slidesDir, name), folder),
    };
  });
  const numbers = new Map();
  const keys = new Map();
  for (const { file, content } of loaded) {
    const { lesson, key } = content.lesson;
    if (numbers.has(lesson)) {
      throw new ContentError(
        file,
        'lesson',
        `${lesson} is already the number of ${numbers.get(lesson)}`,
      );
    }
    numbers.set(lesson, file);
    if (keys.has(key)) {
      throw new ContentError(file, 'key', `"${key}" is already the key of ${keys.get(key)}`);
    }
    keys.set(key, file);
  }
  loaded.sort((a, b) => a.content.lesson.lesson - b.content.lesson.lesson);

  const [first] = loaded;
  for (const { file, content } of loaded.slice(1)) {
    for (const field of /** @type {const} */ (['course', 'module'])) {
      const expected = first.content.lesson[field];
      if (content.lesson[field] !== expected) {
        const problem = `must be ${JSON.stringify(expected)}, as in ${first.file}: the lessons are one module's`;
        throw new ContentError(file, field, problem);
      }
    }
  }

  const lessons = loaded.map(({ content }) => content);
  return lessons.map((content) => {
    const following = lessons.find(({ lesson }) => lesson.lesson === content.lesson.lesson + 1);
    if (!following) return content;
    const { lesson: number, title, key } = following.lesson;
    const next = { title: `Lesson ${number}: ${title}`, available: true, key };
    return { ...content, lesson: { ...content.lesson, next } };
  });
}

/**
 * Checks that every widget a slide names, in any of its figure's views, is registered.
 * @param {{ slides: Array<{ widget: { type: string, also?: { type: string }[] } | null,
 *   file: string }> }} lesson as loadLesson returns it
 * @param {string[]} knownNames the registered widget names (widgetNames() of the registry)
 * @throws {ContentError} naming the slide file and widget.type (or widget.also[i].type)
 */
export function checkWidgets(lesson, knownNames) {
  const known = knownNames.length ? knownNames.join(', ') : 'none';
  for (const { widget, file } of lesson.slides) {
    if (!widget) continue;
    const named = [
      ['widget.type', widget.type],
      ...(widget.also ?? []).map((view, i) => [`widget.also[${i}].type`, view.type]),
    ];
    for (const [field, type] of named) {
      if (!knownNames.includes(type)) {
        throw new ContentError(
          file,
          field,
          `"${type}" is not a registered widget (known: ${known})`,
        );
      }
    }
  }
}
