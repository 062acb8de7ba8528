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
import lesson from 'virtual:lesson';
import '../widgets/index.js';
import { buildFigureTools } from '../share/figure-tools.js';
import { savedAs, viewsOf } from '../share/figure-views.js';
import { startLoading } from '../widgets/shared/engine-loader.js';
import { placeWidget } from '../widgets/shared/host.js';
import { wireBackLinks } from './back-link.js';
import { fillFooter } from './footer.js';
import { buildArticle } from './sections.js';
import { fillToc, followReading } from './toc.js';
import { offerUpdates } from '../app-updates.js';

const main = /** @type {HTMLElement} */ (document.getElementById('article'));
const toc = /** @type {HTMLOListElement} */ (document.querySelector('.toc-list'));
const footer = /** @type {HTMLElement} */ (document.querySelector('.article-footer'));

document.title = `${lesson.lesson.title} (article) \u00b7 ${lesson.lesson.course} \u00b7 ${lesson.lesson.code}`;
// The engine, the word vectors and the trained language model start loading now, side by side,
// and serve every figure.
const pageLoads = startLoading({ vectors: true, model: true });
const sections = buildArticle(document, lesson);
main.replaceChildren(...sections);
fillToc(toc, sections);
fillFooter(footer, lesson.lesson);
wireBackLinks(
  document,
  lesson.slides.map((slide) => slide.id),
);

const specs = new Map(lesson.slides.map((slide) => [slide.id, slide.widget]));
for (const section of sections) {
  const host = /** @type {HTMLElement | null} */ (section.querySelector('.widget-host'));
  const spec = specs.get(section.id);
  if (!host || !spec) continue;
  const shown = showViews(section, host, viewsOf(spec));
  if (spec.type === 'knowledge-check') continue;
  const title = section.querySelector('h2')?.textContent ?? section.id;
  const saved = () => savedAs(viewsOf(spec), shown(), `attention-${section.id}`, title);
  host.after(
    buildFigureTools(document, {
      host: () => host,
      get name() {
        return saved().name;
      },
      get title() {
        return saved().title;
      },
    }),
  );
}

/**
 * Mounts the first view of a section's figure, and another when the learner chooses it; each view
 * keeps its state object, so its inputs survive the switch.
 * @param {HTMLElement} section
 * @param {HTMLElement} host
 * @param {import('../share/figure-views.js').FigureView[]} views
 * @returns {() => string} the type of the view shown
 */
function showViews(section, host, views) {
  /** @type {Map<string, object>} */
  const states = new Map(views.map((view) => [view.type, {}]));
  let view = views[0];
  let placed = placeWidget(host, { type: view.type, props: view.props }, states.get(view.type));
  section.querySelector('.figure-views')?.addEventListener('change', (event) => {
    const input = /** @type {HTMLInputElement} */ (event.target);
    const next = views.find((candidate) => candidate.type === input.value);
    if (!next || next === view) return;
    placed.destroy();
    host.classList.remove(`widget-${view.type}`);
    host.classList.add(`widget-${next.type}`);
    host.dataset.widget = next.type;
    view = next;
    placed = placeWidget(host, { type: view.type, props: view.props }, states.get(view.type));
  });
  return () => view.type;
}

// The sections did not exist when the browser looked for the address's #fragment.
const target = location.hash
  ? document.getElementById(decodeURIComponent(location.hash.slice(1)))
  : null;
target?.scrollIntoView();
followReading(toc, sections);

// The site keeps itself for offline use, and offers a new version when there is one.
offerUpdates({ after: pageLoads });
