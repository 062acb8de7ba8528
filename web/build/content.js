// Loads the lesson content from slides/, checks it against docs/content.md and renders its
// Markdown and math to HTML: the object that the pages import as `virtual:lesson`.
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
 * with MathML; raw HTML in the content is escaped.
 * @param {string} dir the content folder (the project's `slides/`); messages name files as
 *   `<folder name>/<file>`, e.g. `slides/quiz.yaml`
 * @returns {{ lesson: object, slides: object[], quiz: { check: string[],
 *   ideas: Array<{ idea: string, item: string }>, items: object[] } }} the shape in
 *   docs/content.md: `check` the knowledge check's item ids in order, `ideas` the idea each asks
 * @throws {ContentError} on the first broken file, naming it and the field
 */
export function loadLesson(dir) {
  const folder = path.basename(path.resolve(dir));
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
      course: meta.course,
      module: meta.module,
      lesson: meta.lesson,
      title: meta.title,
      subtitle: meta.subtitle ?? null,
      next: meta.next ?? null,
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
