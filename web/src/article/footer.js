// The article's closing block: what comes next (a link only once it exists) and where to go.
import { DECK_URL, LESSONS_URL, PRACTICE_URL, lessonHref } from '../links.js';

/**
 * @param {HTMLElement} footer the page's footer, filled here
 * @param {{ next?: { title: string, available: boolean, key?: string | null } }} lesson
 * @param {string | null} [linkKey] the lesson's key for links (none: the first lesson)
 */
export function fillFooter(footer, lesson, linkKey) {
  const doc = footer.ownerDocument;
  const inner = doc.createElement('div');
  inner.className = 'article-footer-inner';
  if (lesson.next) {
    const line = doc.createElement('p');
    line.className = 'up-next';
    const label = doc.createElement('strong');
    label.textContent = 'Up next:';
    if (lesson.next.available) {
      const next = doc.createElement('a');
      next.href = lessonHref(DECK_URL, lesson.next.key);
      next.textContent = lesson.next.title;
      line.append(label, ' ', next);
    } else {
      line.append(label, ` ${lesson.next.title} \u2014 coming soon`);
    }
    inner.append(line);
  }
  const links = doc.createElement('p');
  links.className = 'article-footer-links';
  for (const [text, href, className] of [
    ['Back to the slides', '', 'back-link'],
    ['Practice questions', lessonHref(PRACTICE_URL, linkKey), ''],
    ['All lessons', LESSONS_URL, ''],
  ]) {
    const a = doc.createElement('a');
    a.textContent = text;
    if (href) a.href = href;
    if (className) a.className = className;
    links.append(a);
  }
  inner.append(links);
  footer.replaceChildren(inner);
}
