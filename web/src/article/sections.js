// The article's body, built from the same slide data as the deck: the first slide opens the
// article under the lesson's title; every other slide with inArticle becomes a <section
// id="<slide id>"> with its heading, the slide's text, its live figure (with the choice of its
// views above it, when it has more than one, and the line naming the model it shows), and the
// article's prose.
import { slideHref } from '../links.js';
import { buildModelLine, buildViewChoice, viewsOf } from '../share/figure-views.js';
import { nestHeadings } from './headings.js';

/**
 * @typedef {import('../deck/sections.js').Slide & { articleHtml: string, inArticle: boolean }} Slide
 */

/**
 * @param {Document} doc
 * @param {{ lesson: object, slides: Slide[] }} content the lesson's content (web/src/lesson.js)
 * @param {string | null} [linkKey] the lesson's key for links to its slides (none: the first)
 * @returns {HTMLElement[]} the sections, in order
 */
export function buildArticle(doc, content, linkKey) {
  const { lesson, slides } = content;
  return slides
    .filter((slide, index) => index === 0 || slide.inArticle)
    .map((slide, index) => {
      const section = doc.createElement('section');
      section.id = slide.id;
      section.className = index === 0 ? 'article-section article-opening' : 'article-section';
      const headingId = `${slide.id}-heading`;
      section.setAttribute('aria-labelledby', headingId);
      section.append(
        ...(index === 0 ? opening(doc, lesson, headingId) : heading(doc, slide, headingId)),
      );
      section.append(html(doc, 'div', 'article-slide-text', slide.html));
      if (slide.widget) section.append(...figureParts(doc, slide.id, slide.widget));
      if (slide.articleHtml) {
        const prose = html(doc, 'div', 'article-prose', slide.articleHtml);
        nestHeadings(prose);
        section.append(prose);
      }
      section.append(slideLink(doc, slide.id, linkKey));
      return section;
    });
}

/**
 * The article's title block: course line, h1, subtitle.
 * @param {Document} doc
 * @param {{ course: string, module: number, lesson: number, title: string, subtitle: string }} lesson
 * @param {string} headingId
 */
function opening(doc, lesson, headingId) {
  const course = text(doc, 'p', 'article-course');
  course.textContent = `${lesson.course} \u00b7 Module ${lesson.module} \u00b7 Lesson ${lesson.lesson}`;
  const title = text(doc, 'h1', 'article-title', lesson.title);
  title.id = headingId;
  return [course, title, text(doc, 'p', 'article-subtitle', lesson.subtitle)];
}

/**
 * A section's kicker (if any) and h2.
 * @param {Document} doc
 * @param {Slide} slide
 * @param {string} headingId
 */
function heading(doc, slide, headingId) {
  const h2 = text(doc, 'h2', 'article-heading', slide.title);
  h2.id = headingId;
  return slide.kicker ? [text(doc, 'p', 'article-kicker', slide.kicker), h2] : [h2];
}

/**
 * @param {Document} doc
 * @param {string} tag
 * @param {string} className
 * @param {string} [content] plain text
 */
function text(doc, tag, className, content) {
  const node = doc.createElement(tag);
  node.className = className;
  if (content !== undefined) node.textContent = content;
  return node;
}

/**
 * @param {Document} doc
 * @param {string} tag
 * @param {string} className
 * @param {string} markup HTML rendered by the build from the lesson's own files
 */
function html(doc, tag, className, markup) {
  const node = text(doc, tag, className);
  node.innerHTML = markup;
  return node;
}

/**
 * A slide's figure as the article shows it, before its widget is mounted (show-figure.js): the
 * choice of its views, when it has more than one, the line naming the model of the view shown
 * (but for the knowledge check, which shows none), and the host its widget is mounted into, last.
 * The embed page shows its one figure the same way.
 * @param {Document} doc
 * @param {string} id the slide's id, unique on the page
 * @param {Slide['widget'] & object} widget
 * @returns {HTMLElement[]}
 */
export function figureParts(doc, id, widget) {
  const views = viewsOf(widget);
  const parts = [];
  if (views.length > 1) {
    const choice = buildViewChoice(doc, views, `${id}-view`);
    choice.classList.add('article-views');
    parts.push(choice);
  }
  const model = buildModelLine(doc, views);
  if (model) parts.push(model);
  parts.push(widgetHost(doc, widget.type));
  return parts;
}

/**
 * @param {Document} doc
 * @param {string} type
 */
function widgetHost(doc, type) {
  const host = text(doc, 'div', `widget-host article-figure widget-${type}`);
  host.dataset.widget = type;
  return host;
}

/**
 * @param {Document} doc
 * @param {string} id
 * @param {string | null} [linkKey]
 */
function slideLink(doc, id, linkKey) {
  const p = text(doc, 'p', 'article-slide-link');
  const a = text(doc, 'a', '', 'Show this slide');
  /** @type {HTMLAnchorElement} */ (a).href = slideHref(id, linkKey);
  p.append(a);
  return p;
}
