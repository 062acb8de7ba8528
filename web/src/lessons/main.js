// All lessons of the module: this lesson (slides and article), and the next one, shown as coming
// until it exists. The lesson entries come from the same data as the deck.
import '../styles/base.css';
import '../styles/lessons.css';
import lesson from 'virtual:lesson';
import { ARTICLE_URL, DECK_URL } from '../links.js';
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
 * @param {{ number: number, title: string, subtitle?: string, available: boolean }} entry
 */
function lessonItem(doc, entry) {
  const item = make(doc, 'li', entry.available ? 'lesson-item' : 'lesson-item is-coming');
  const head = make(doc, entry.available ? 'a' : 'span', 'lesson-link');
  head.append(
    make(doc, 'span', 'lesson-number', `Lesson ${entry.number}`),
    make(doc, 'span', 'lesson-name', entry.title),
  );
  if (entry.available) {
    /** @type {HTMLAnchorElement} */ (head).href = DECK_URL;
    item.append(head);
    if (entry.subtitle) item.append(make(doc, 'p', 'lesson-subtitle', entry.subtitle));
    const more = make(doc, 'p', 'lesson-more');
    const article = make(doc, 'a', '', 'Read as an article');
    /** @type {HTMLAnchorElement} */ (article).href = ARTICLE_URL;
    more.append(article);
    item.append(more);
  } else {
    head.setAttribute('aria-disabled', 'true');
    item.append(head, make(doc, 'p', 'lesson-status', 'Coming soon'));
  }
  return item;
}

const { course, module, title, subtitle, next } = lesson.lesson;
document.title = `All lessons \u00b7 ${course} \u00b7 Module ${module}: ${MODULE_TITLE}`;
document.querySelector('.lessons-course').textContent = course;
document.querySelector('.lessons-title').textContent = `Module ${module}: ${MODULE_TITLE}`;

const entries = [{ number: lesson.lesson.lesson, title, subtitle, available: true }];
if (next) {
  // The next lesson's title reads "Lesson 2: ..."; its number is shown on its own line.
  const name = next.title.replace(/^Lesson\s+\d+\s*:\s*/, '');
  entries.push({ number: lesson.lesson.lesson + 1, title: name, available: next.available });
}
document
  .querySelector('.lesson-list')
  .replaceChildren(...entries.map((e) => lessonItem(document, e)));

// The site keeps itself for offline use, and offers a new version when there is one.
offerUpdates();
