// The article's closing block: what comes next (a link only once it exists) and where to go.
import { LESSONS_URL, PRACTICE_URL } from '../links.js';

/**
 * @param {HTMLElement} footer the page's footer, filled here
 * @param {{ next?: { title: string, available: boolean } }} lesson
 */
export function fillFooter(footer, lesson) {
  const doc = footer.ownerDocument;
  const inner = doc.createElement('div');
  inner.className = 'article-footer-inner';
  if (lesson.next) {
    const line = doc.createElement('p');
    line.className = 'up-next';
    const label = doc.createElement('strong');
    label.textContent = 'Up next:';
    const title = lesson.next.available
      ? lesson.next.title
      : `${lesson.next.title} \u2014 coming soon`;
    line.append(label, ` ${title}`);
    inner.append(line);
  }
  const links = doc.createElement('p');
  links.className = 'article-footer-links';
  for (const [text, href, className] of [
    ['Back to the slides', '', 'back-link'],
    ['Practice questions', PRACTICE_URL, ''],
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
