// The article: the whole lesson as one page, from the same data as the deck, with every figure
// live (each its own instance, with its own inputs). A figure with more than one view shows the
// chosen one; each view keeps its own inputs while another is shown.
import 'katex/dist/katex.min.css';
import '../styles/base.css';
import '../widgets/shared/widgets.css';
import '../widgets/shared/choices.css';
import '../styles/heatmap.css';
import '../styles/article.css';
import '../styles/article-text.css';
import '../styles/figure-tools.css';
import lesson, { LINK_KEY } from '../lesson.js';
import '../widgets/index.js';
import { EMBED_EXTRA_PX, canEmbed, embedHref, embedSnippet } from '../share/embed-code.js';
import { linkSettings } from '../share/figure-link.js';
import { buildFigureTools } from '../share/figure-tools.js';
import { figureFileName, figureViews, savedAs, viewsOf } from '../share/figure-views.js';
import { showFigure } from '../share/show-figure.js';
import { startLoading } from '../widgets/shared/engine-loader.js';
import { needsOf } from '../widgets/shared/registry.js';
import { PRACTICE_URL, lessonHref } from '../links.js';
import { wireBackLinks } from './back-link.js';
import { openDeeperForPrint } from './deeper.js';
import { fillFooter } from './footer.js';
import { buildArticle } from './sections.js';
import { fillToc, followReading } from './toc.js';
import { offerUpdates } from '../app-updates.js';

const main = /** @type {HTMLElement} */ (document.getElementById('article'));
const toc = /** @type {HTMLOListElement} */ (document.querySelector('.toc-list'));
const footer = /** @type {HTMLElement} */ (document.querySelector('.article-footer'));

document.title = `${lesson.lesson.title} (article) \u00b7 ${lesson.lesson.course} \u00b7 ${lesson.lesson.code}`;
// The engine and the files the figures' widgets declare (the word vectors, the trained models)
// start loading now, side by side, and serve every figure.
const pageLoads = startLoading(needsOf(figureViews(lesson.slides)));
const sections = buildArticle(document, lesson, LINK_KEY);
main.replaceChildren(...sections);
fillToc(toc, sections);
fillFooter(footer, lesson.lesson, LINK_KEY);
// The top bar's link to the practice bank is this lesson's (the page's own link, the first's).
if (LINK_KEY) {
  for (const link of document.querySelectorAll('a.practice-link')) {
    /** @type {HTMLAnchorElement} */ (link).href = lessonHref(PRACTICE_URL, LINK_KEY);
  }
}
openDeeperForPrint(window, main);
wireBackLinks(
  document,
  lesson.slides.map((slide) => slide.id),
  LINK_KEY,
);

const specs = new Map(lesson.slides.map((slide) => [slide.id, slide.widget]));
const titles = new Map(lesson.slides.map((slide) => [slide.id, slide.title]));
for (const section of sections) {
  const host = /** @type {HTMLElement | null} */ (section.querySelector('.widget-host'));
  const spec = specs.get(section.id);
  if (!host || !spec) continue;
  const views = viewsOf(spec);
  const shown = showFigure(section, host, views);
  if (spec.type === 'knowledge-check') continue;
  const title = titles.get(section.id) ?? section.id;
  const saved = () =>
    savedAs(views, shown.view().type, figureFileName(lesson.lesson.key, section.id), title);
  // The figure as it is now, in a frame of its own in another page (not in the single file).
  const embed = () => {
    const view = shown.view();
    const src = embedHref(
      document.baseURI,
      section.id,
      linkSettings(view.type, shown.settings()),
      view === views[0] ? undefined : view.type,
      LINK_KEY,
    );
    const height = host.offsetHeight + EMBED_EXTRA_PX;
    return embedSnippet({ src, title: saved().title, height });
  };
  host.after(
    buildFigureTools(document, {
      host: () => host,
      saved,
      ...(canEmbed ? { embed } : {}),
    }),
  );
}

// The sections did not exist when the browser looked for the address's #fragment, which may be
// anything a link holds (malformed escapes included): only an element's id finds anything.
const target = location.hash ? document.getElementById(fragmentId(location.hash)) : null;
target?.scrollIntoView();
followReading(toc, sections);

// The site keeps itself for offline use, and offers a new version when there is one.
offerUpdates({ after: pageLoads });

/**
 * @param {string} hash the address's fragment, with its '#'
 * @returns {string} the id it names: decoded, or as written when it is no valid escape
 */
function fragmentId(hash) {
  const text = hash.slice(1);
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
