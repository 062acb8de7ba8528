// What a few slides add to their content: the closing slide what comes next and where to go from
// here, the knowledge check a link to more practice.
import { DECK_URL, LESSONS_URL, PRACTICE_URL, articleHref, lessonHref } from '../links.js';

/**
 * @typedef {{ title: string, available: boolean, key?: string | null }} NextLesson
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
 * @param {string | null} [linkKey] the lesson's key for links (none: the first lesson)
 * @returns {HTMLElement}
 */
export function summaryExtras(doc, next, id, linkKey) {
  const box = doc.createElement('div');
  box.className = 'slide-next';
  if (next) {
    const line = doc.createElement('p');
    line.className = 'up-next';
    const label = doc.createElement('span');
    label.className = 'up-next-label';
    label.textContent = 'Up next:';
    const title = doc.createElement(next.available ? 'a' : 'span');
    title.className = 'up-next-title';
    if (next.available) {
      /** @type {HTMLAnchorElement} */ (title).href = lessonHref(DECK_URL, next.key);
      title.textContent = next.title;
    } else {
      title.textContent = `${next.title} \u2014 coming soon`;
    }
    line.append(label, ' ', title);
    box.append(line);
  }
  box.append(
    linkRow(doc, [
      ['All lessons', LESSONS_URL],
      ['Read article', articleHref(id, linkKey)],
      ['Practice questions', lessonHref(PRACTICE_URL, linkKey)],
    ]),
  );
  return box;
}

/**
 * The knowledge check's pointer to the full set of questions.
 * @param {Document} doc
 * @param {string | null} [linkKey] the lesson's key for links (none: the first lesson)
 * @returns {HTMLElement}
 */
export function practiceExtras(doc, linkKey) {
  return linkRow(doc, [['More practice questions', lessonHref(PRACTICE_URL, linkKey)]]);
}
