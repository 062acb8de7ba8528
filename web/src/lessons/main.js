// All lessons of the module: every lesson of slides/ (its slides and article), and the next one a
// lesson announces, shown as coming until its folder exists. The lesson entries come from the same
// data as the deck.
import '../styles/base.css';
import '../styles/lessons.css';
import { LESSONS } from 'virtual:lessons';
import { ARTICLE_URL, DECK_URL, lessonHref } from '../links.js';
import { offerUpdates } from '../app-updates.js';

const MODULE_TITLE = 'Attention and Transformers';

/**
 * @param {Document} doc
 * @param {string} tag
 * @param {string} className
 * @param {string} [text]
 */
function make(doc, tag, className, text) {
  const node = doc.createElement(tag);
  node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

/**
 * One lesson: a link to its slides (and article) when it exists, plain text marked as not yet
 * available when it does not.
 * @param {Document} doc
 * @param {{ number: number, title: string, subtitle?: string, available: boolean,
 *   link?: string | null }} entry link: the key the lesson's links carry (none: the first)
 */
function lessonItem(doc, entry) {
  const item = make(doc, 'li', entry.available ? 'lesson-item' : 'lesson-item is-coming');
  const head = make(doc, entry.available ? 'a' : 'span', 'lesson-link');
  head.append(
    make(doc, 'span', 'lesson-number', `Lesson ${entry.number}`),
    make(doc, 'span', 'lesson-name', entry.title),
  );
  if (entry.available) {
    /** @type {HTMLAnchorElement} */ (head).href = lessonHref(DECK_URL, entry.link);
    item.append(head);
    if (entry.subtitle) item.append(make(doc, 'p', 'lesson-subtitle', entry.subtitle));
    const more = make(doc, 'p', 'lesson-more');
    const article = make(doc, 'a', '', 'Read as an article');
    /** @type {HTMLAnchorElement} */ (article).href = lessonHref(ARTICLE_URL, entry.link);
    more.append(article);
    item.append(more);
  } else {
    head.setAttribute('aria-disabled', 'true');
    item.append(head, make(doc, 'p', 'lesson-status', 'Coming soon'));
  }
  return item;
}

const [first] = LESSONS;
const { course, module } = first;
document.title = `All lessons \u00b7 ${course} \u00b7 Module ${module}: ${MODULE_TITLE}`;
document.querySelector('.lessons-course').textContent = course;
document.querySelector('.lessons-title').textContent = `Module ${module}: ${MODULE_TITLE}`;

const entries = LESSONS.map(({ key, lesson, title, subtitle }) => ({
  number: lesson,
  title,
  subtitle,
  available: true,
  link: key === first.key ? null : key,
}));
for (const { lesson, next } of LESSONS) {
  if (!next || next.available) continue;
  // The next lesson's title reads "Lesson 2: ..."; its number is shown on its own line.
  const name = next.title.replace(/^Lesson\s+\d+\s*:\s*/, '');
  entries.push({ number: lesson + 1, title: name, available: false });
}
entries.sort((a, b) => a.number - b.number);
document
  .querySelector('.lesson-list')
  .replaceChildren(...entries.map((e) => lessonItem(document, e)));

// The site keeps itself for offline use, and offers a new version when there is one.
offerUpdates();
