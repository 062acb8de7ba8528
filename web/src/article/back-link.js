// "Back to the slides" leads to the slide the reader came from: the deck's "Read article" links
// pass it as ?from=<slide id>. Without one (or with an unknown id) it leads to the title slide.
import { slideHref } from '../links.js';

/**
 * @param {string} search the page's location.search
 * @param {string[]} ids the lesson's slide ids
 * @returns {string} the id of the slide to go back to
 */
export function originSlide(search, ids) {
  const from = new URLSearchParams(search).get('from');
  return from && ids.includes(from) ? from : (ids[0] ?? 'title');
}

/**
 * Points every back link on the page at the slide the reader came from.
 * @param {Document} doc
 * @param {string[]} ids
 * @param {string | null} [linkKey] the lesson's key for links (none: the first lesson)
 */
export function wireBackLinks(doc, ids, linkKey) {
  const href = slideHref(originSlide(doc.defaultView?.location.search ?? '', ids), linkKey);
  for (const link of doc.querySelectorAll('a.back-link')) {
    /** @type {HTMLAnchorElement} */ (link).href = href;
  }
}
