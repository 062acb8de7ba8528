// What a few slides add to their content: the closing slide what comes next and where to go from
// here, the knowledge check a link to more practice.
import { LESSONS_URL, PRACTICE_URL, articleHref } from '../links.js';

/**
 * @typedef {{ title: string, available: boolean }} NextLesson
 */

/**
 * A row of links, e.g. "All lessons · Read article".
 * @param {Document} doc
 * @param {[string, string][]} links [text, href] pairs
 * @returns {HTMLElement}
 */
export function linkRow(doc, links) {
  const nav = doc.createElement('p');
  nav.className = 'slide-links';
  for (const [text, href] of links) {
    const a = doc.createElement('a');
    a.href = href;
    a.textContent = text;
    nav.append(a);
  }
  return nav;
}

/**
 * The closing slide's "Up next" line (a link only once the next lesson exists) and its links.
 * @param {Document} doc
 * @param {NextLesson | undefined} next
 * @param {string} id the slide's id
 * @returns {HTMLElement}
 */
export function summaryExtras(doc, next, id) {
  const box = doc.createElement('div');
  box.className = 'slide-next';
  if (next) {
    const line = doc.createElement('p');
    line.className = 'up-next';
    const label = doc.createElement('span');
    label.className = 'up-next-label';
    label.textContent = 'Up next:';
    const title = doc.createElement('span');
    title.className = 'up-next-title';
    title.textContent = next.available ? next.title : `${next.title} \u2014 coming soon`;
    line.append(label, ' ', title);
    box.append(line);
  }
  box.append(
    linkRow(doc, [
      ['All lessons', LESSONS_URL],
      ['Read article', articleHref(id)],
      ['Practice questions', PRACTICE_URL],
    ]),
  );
  return box;
}

/**
 * The knowledge check's pointer to the full set of questions.
 * @param {Document} doc
 * @returns {HTMLElement}
 */
export function practiceExtras(doc) {
  return linkRow(doc, [['More practice questions', PRACTICE_URL]]);
}
