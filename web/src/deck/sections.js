// Builds one <section id="<slide id>"> per slide from the lesson data: the running chrome, the
// heading, the body (HTML the build has already rendered, math included), the widget's host, and
// the speaker notes. The first slide is the title slide; the one with id `summary` (else the last)
// closes the lesson. A figure with more than one view gets the choice between them in the header,
// beside its Figure menu; every figure, the line naming the model of the view shown, between the
// course code and the choice (deck/widgets.js keeps it in step with the view).
import { EMBED_EXTRA_PX, canEmbed, embedHref, embedSnippet } from '../share/embed-code.js';
import { settingsFromUrl } from '../share/figure-link.js';
import { buildFigureTools } from '../share/figure-tools.js';
import {
  buildModelLine,
  buildViewChoice,
  figureFileName,
  savedAs,
  viewsOf,
} from '../share/figure-views.js';
import { buildChrome } from './chrome.js';
import { practiceExtras, summaryExtras } from './extras.js';

/**
 * @typedef {object} Slide
 * @property {string} id
 * @property {string} title
 * @property {string} [kicker]
 * @property {Parameters<typeof viewsOf>[0]} [widget]
 * @property {string} html
 * @property {string} notesHtml
 */

/**
 * @param {Document} doc
 * @param {{ lesson: object, slides: Slide[] }} content the lesson's content (web/src/lesson.js)
 * @param {string | null} [linkKey] the lesson's key for links (none: the first lesson)
 * @returns {HTMLElement[]}
 */
export function buildSections(doc, content, linkKey) {
  const { lesson, slides } = content;
  const named = slides.findIndex((slide) => slide.id === 'summary');
  const summary = named >= 0 ? named : slides.length - 1;
  return slides.map((slide, index) => {
    const role = index === 0 ? 'title' : index === summary ? 'summary' : 'content';
    const section = doc.createElement('section');
    section.id = slide.id;
    section.className = `slide slide-${role}${slide.widget ? ' has-widget' : ''}`;
    section.setAttribute('aria-label', slide.title);

    const frame = doc.createElement('div');
    frame.className = 'slide-frame';
    const main = doc.createElement('div');
    main.className = 'slide-main';
    const text = doc.createElement('div');
    text.className = 'slide-text';
    text.append(...heading(doc, lesson, slide, role), body(doc, slide.html));
    if (role === 'summary') text.append(summaryExtras(doc, lesson.next, slide.id, linkKey));
    if (slide.widget?.type === 'knowledge-check') text.append(practiceExtras(doc, linkKey));
    main.append(text);
    if (slide.widget) main.append(widgetHost(doc, slide.widget.type));

    const chrome = buildChrome(doc, lesson, slide.id, index, slides.length, linkKey);
    if (slide.widget && slide.widget.type !== 'knowledge-check') {
      const end = chrome.querySelector('.slide-chrome-end');
      const views = viewsOf(slide.widget);
      end?.prepend(figureTools(doc, section, lesson.key, slide.id, views, linkKey));
      if (views.length > 1) end?.prepend(buildViewChoice(doc, views, `${slide.id}-view`));
      const model = buildModelLine(doc, views);
      if (model && end) chrome.insertBefore(model, end);
    }
    frame.append(chrome, main);
    section.append(frame);
    if (slide.notesHtml) section.append(notes(doc, slide.notesHtml));
    return section;
  });
}

/**
 * The title slide gets the course line, the lesson title (h1) and subtitle; others a kicker and
 * an h2.
 * @param {Document} doc
 * @param {{ course: string, module: number, lesson: number, subtitle: string }} lesson
 * @param {Slide} slide
 * @param {string} role
 * @returns {HTMLElement[]}
 */
function heading(doc, lesson, slide, role) {
  const line = (tag, className, text) => {
    const node = doc.createElement(tag);
    node.className = className;
    node.textContent = text;
    return node;
  };
  if (role === 'title') {
    return [
      line(
        'p',
        'slide-course',
        `${lesson.course} \u00b7 Module ${lesson.module} \u00b7 Lesson ${lesson.lesson}`,
      ),
      line('h1', 'slide-heading', slide.title),
      line('p', 'slide-subtitle', lesson.subtitle),
    ];
  }
  const parts = [];
  if (slide.kicker) parts.push(line('p', 'slide-kicker', slide.kicker));
  parts.push(line('h2', 'slide-heading', slide.title));
  return parts;
}

/**
 * @param {Document} doc
 * @param {string} html rendered by the build from the lesson's own files
 */
function body(doc, html) {
  const div = doc.createElement('div');
  div.className = 'slide-body';
  div.innerHTML = html;
  return div;
}

/**
 * The menu that saves the slide's figure (the view shown), copies a link to it (the address
 * follows the figure: deck/widgets.js) or the code that embeds it, with the same settings, in
 * another page (not in the single-file lesson, which has no page to embed).
 * @param {Document} doc
 * @param {HTMLElement} section
 * @param {string} lessonKey the lesson's key, which the saved figure's file name starts with
 * @param {string} id
 * @param {import('../share/figure-views.js').FigureView[]} views
 * @param {string | null} [linkKey]
 */
function figureTools(doc, section, lessonKey, id, views, linkKey) {
  const host = () => /** @type {HTMLElement | null} */ (section.querySelector('.widget-host'));
  const shown = () => views.find((view) => view.type === host()?.dataset.widget) ?? views[0];
  const saved = () => {
    const title = section.getAttribute('aria-label') ?? id;
    return savedAs(views, shown().type, figureFileName(lessonKey, id), title);
  };
  const embed = () => {
    const view = shown();
    const settings = settingsFromUrl(doc.location.href, id, view.type);
    const named = view === views[0] ? undefined : view.type;
    const src = embedHref(doc.baseURI, id, settings, named, linkKey);
    // The slide's figure at its own size, unscaled, plus the embed page's caption line.
    const height = figureHeight(section, host()) + EMBED_EXTRA_PX;
    return embedSnippet({ src, title: saved().title, height });
  };
  return buildFigureTools(doc, {
    host,
    saved,
    link: () => doc.location.href,
    ...(canEmbed ? { embed } : {}),
  });
}

/**
 * How tall the slide's figure is, in the slide's own pixels (reveal scales the slide). Some
 * figures lay their parts out in the slide's grid (their host is display: contents): for them
 * this spans every part that has a box. The deck lays a figure out for its 16:9 slide, so this is
 * an estimate of its height in a frame; the embed page's height messages correct it.
 * @param {HTMLElement} section
 * @param {HTMLElement | null} host
 * @returns {number}
 */
function figureHeight(section, host) {
  if (!host) return 0;
  // A host with a box of its own scrolls what does not fit: its content is what it holds.
  if (host.getClientRects().length > 0) return host.scrollHeight;
  const scale = section.getBoundingClientRect().width / section.offsetWidth || 1;
  let top = Infinity;
  let bottom = -Infinity;
  for (const part of [host, ...host.querySelectorAll('*')]) {
    const box = part.getBoundingClientRect();
    if (box.height === 0 && box.width === 0) continue;
    top = Math.min(top, box.top);
    bottom = Math.max(bottom, box.bottom);
  }
  return bottom > top ? (bottom - top) / scale : 0;
}

/**
 * The empty element a widget is mounted into while its slide is shown. Swipes that start inside
 * it stay with the widget.
 * @param {Document} doc
 * @param {string} type
 */
function widgetHost(doc, type) {
  const host = doc.createElement('div');
  host.className = `widget-host widget-${type}`;
  host.dataset.widget = type;
  host.setAttribute('data-prevent-swipe', '');
  return host;
}

/**
 * @param {Document} doc
 * @param {string} html
 */
function notes(doc, html) {
  const aside = doc.createElement('aside');
  aside.className = 'notes';
  aside.innerHTML = html;
  return aside;
}
