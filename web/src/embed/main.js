// The embed page: one live figure of the lesson alone, to be framed by another page (a course
// page, a blog). `embed.html?figure=<slide id>&<settings>` shows that slide's figure with the
// settings a figure link carries (share/figure-link.js): its controls, the figure, its tables and
// its Figure menu, at the width of the frame, with the line naming the model it shows above it
// (share/figure-views.js) and a caption line naming the lesson and a link to the full slide. In a frame it reports its height to the parent (height.js). An address naming
// no figure, or one the lesson does not have, gets a message listing the figures there are.
import '../styles/base.css';
import '../widgets/shared/widgets.css';
import '../widgets/shared/choices.css';
import '../styles/heatmap.css';
import '../styles/article-text.css';
import '../styles/figure-tools.css';
import '../styles/embed.css';
import lesson, { LINK_KEY } from '../lesson.js';
import '../widgets/index.js';
import { figureParts } from '../article/sections.js';
import { withLesson } from '../lesson-address.js';
import { EMBED_URL, slideHref } from '../links.js';
import { embedHref, embedSnippet } from '../share/embed-code.js';
import {
  FIGURE_PARAM,
  linkSettings,
  settingsFromUrl,
  urlWithSettings,
  viewFromUrl,
} from '../share/figure-link.js';
import { buildFigureTools } from '../share/figure-tools.js';
import { figureFileName, savedAs, viewsOf } from '../share/figure-views.js';
import { showFigure } from '../share/show-figure.js';
import { startLoading } from '../widgets/shared/engine-loader.js';
import { needsOf } from '../widgets/shared/registry.js';
import { reportHeight } from './height.js';

/** How long the caption's link waits after the last change before it follows the figure, in ms. */
const SETTLE_MS = 250;

/**
 * @typedef {import('../article/sections.js').Slide} Slide
 */

const main = /** @type {HTMLElement} */ (document.getElementById('embed'));
const { lesson: about, slides } = /** @type {{ lesson: any, slides: Slide[] }} */ (lesson);
/** The slides whose figure can be embedded: every live figure but the knowledge check's. */
const embeddable = slides.filter(
  (slide) => slide.widget && slide.widget.type !== 'knowledge-check',
);
const asked = new URL(location.href).searchParams.get(FIGURE_PARAM);
const slide = embeddable.find((candidate) => candidate.id === asked);

if (slide?.widget) showOne(slide, slide.widget);
else showChoices(asked);
reportHeight(window, slide?.id ?? '');

/**
 * Shows the figure of one slide.
 * @param {Slide} slide
 * @param {NonNullable<Slide['widget']>} widget
 */
function showOne(slide, widget) {
  const views = viewsOf(widget);
  const first = views.find((view) => view.type === viewFromUrl(location.href, slide.id));
  const start = first ?? views[0];
  // Only what this view needs: the engine, and the word vectors and models its widget declares.
  startLoading(needsOf([start]));
  document.title = `${slide.title} \u00b7 ${about.title} \u00b7 Attention Lab`;

  const parts = figureParts(document, slide.id, widget);
  const host = /** @type {HTMLElement} */ (parts[parts.length - 1]);
  host.classList.add('embed-figure');
  const bar = make('div', 'embed-bar');
  bar.append(...parts.slice(0, -1));
  const caption = make('p', 'embed-caption');
  const link = /** @type {HTMLAnchorElement} */ (
    make('a', 'embed-slide-link', 'Open the slide in a new tab')
  );
  link.target = '_blank';
  link.rel = 'noopener';
  const from = `${about.course} \u00b7 Module ${about.module} \u00b7 Lesson ${about.lesson}`;
  const source =
    slide.title === about.title
      ? `From \u201c${about.title}\u201d, ${from}.`
      : `${slide.title}: from \u201c${about.title}\u201d, ${from}.`;
  caption.append(make('span', 'embed-source', source), ' ', link);
  // Screen readers get the figure's name as the page's heading; sighted readers see the caption.
  const heading = make('h1', 'visually-hidden', `${slide.title}: a live figure`);
  main.replaceChildren(heading, bar, host, caption);

  // The caption's link follows the figure, as the deck's address does.
  let timer = 0;
  const follow = () => {
    clearTimeout(timer);
    link.href = slideUrl();
  };
  const soon = () => {
    clearTimeout(timer);
    timer = window.setTimeout(follow, SETTLE_MS);
  };
  const shown = showFigure(main, host, views, {
    view: start.type,
    settings: settingsFromUrl(location.href, slide.id, start.type),
    onChange: soon,
  });
  /** What a link to the figure as it is now carries. */
  const settings = () => linkSettings(shown.view().type, shown.settings());
  const viewName = () => (shown.view() === views[0] ? undefined : shown.view().type);
  const saved = () =>
    savedAs(views, shown.view().type, figureFileName(lesson.lesson.key, slide.id), slide.title);
  /** The full slide in the deck, with the figure as it is now. */
  const slideUrl = () =>
    urlWithSettings(
      new URL(slideHref(slide.id, LINK_KEY), document.baseURI),
      slide.id,
      settings(),
      viewName(),
    );
  bar.append(
    buildFigureTools(document, {
      host: () => host,
      saved,
      link: slideUrl,
      embed: () =>
        embedSnippet({
          src: embedHref(document.baseURI, slide.id, settings(), viewName(), LINK_KEY),
          title: saved().title,
          height: document.body.getBoundingClientRect().height,
        }),
    }),
  );

  follow();
  link.addEventListener('pointerdown', follow);
  link.addEventListener('focus', follow);
}

/**
 * The message for an address that names no figure the lesson has, with a link to each one there
 * is.
 * @param {string | null} asked the figure the address names, if any
 */
function showChoices(asked) {
  document.title = `Figures to embed \u00b7 ${about.title} \u00b7 Attention Lab`;
  const box = make('div', 'embed-choices');
  box.setAttribute('role', 'alert');
  const heading = make('h1', 'embed-choices-title');
  heading.textContent = asked
    ? `There is no figure called \u201c${asked}\u201d in this lesson.`
    : 'This page shows one figure of the lesson; its address names which.';
  const intro = make(
    'p',
    '',
    `The figures of \u201c${about.title}\u201d that can be embedded, by the name to give after ?${FIGURE_PARAM}=:`,
  );
  const list = make('ul', 'embed-choices-list');
  for (const candidate of embeddable) {
    const item = make('li', '');
    const a = /** @type {HTMLAnchorElement} */ (make('a', '', candidate.title));
    a.href = withLesson(
      `${EMBED_URL}?${new URLSearchParams({ [FIGURE_PARAM]: candidate.id })}`,
      LINK_KEY,
    );
    item.append(a, ' ', make('code', '', candidate.id));
    list.append(item);
  }
  box.append(heading, intro, list);
  main.replaceChildren(box);
}

/**
 * @param {string} tag
 * @param {string} className
 * @param {string} [text]
 * @returns {HTMLElement}
 */
function make(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}
