// The article: the whole lesson as one page, from the same data as the deck, with every figure
// live (each its own instance, with its own inputs).
import 'katex/dist/katex.min.css';
import '../styles/base.css';
import '../styles/widgets.css';
import '../styles/choices.css';
import '../styles/heatmap.css';
import '../styles/article.css';
import '../styles/article-text.css';
import '../styles/figure-tools.css';
import lesson from 'virtual:lesson';
import '../widgets/index.js';
import { buildFigureTools } from '../share/figure-tools.js';
import { startLoading } from '../widgets/engine-loader.js';
import { placeWidget } from '../widgets/host.js';
import { wireBackLinks } from './back-link.js';
import { fillFooter } from './footer.js';
import { buildArticle } from './sections.js';
import { fillToc, followReading } from './toc.js';

const main = /** @type {HTMLElement} */ (document.getElementById('article'));
const toc = /** @type {HTMLOListElement} */ (document.querySelector('.toc-list'));
const footer = /** @type {HTMLElement} */ (document.querySelector('.article-footer'));

document.title = `${lesson.lesson.title} (article) \u00b7 ${lesson.lesson.course} \u00b7 ${lesson.lesson.code}`;
// The engine and the word vectors start loading now, side by side, and serve every figure.
startLoading({ vectors: true });
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
  placeWidget(host, spec, {});
  if (spec.type === 'knowledge-check') continue;
  const title = section.querySelector('h2')?.textContent ?? section.id;
  host.after(
    buildFigureTools(document, { host: () => host, name: `attention-${section.id}`, title }),
  );
}

// The sections did not exist when the browser looked for the address's #fragment.
const target = location.hash
  ? document.getElementById(decodeURIComponent(location.hash.slice(1)))
  : null;
target?.scrollIntoView();
followReading(toc, sections);
