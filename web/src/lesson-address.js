// Which lesson an address asks for: `?lesson=<key>` on any page (the deck, the article, the
// practice bank, the embed page; the single file too), the first lesson when it names none. A
// value that names no lesson of the site (mistyped, hostile, or a lesson this copy of the site
// does not have yet) is no error: the page shows the first lesson, as it does with no value.

/** The query parameter naming the lesson a page shows. */
export const LESSON_PARAM = 'lesson';

/**
 * The key of the lesson `search` asks for.
 * @param {string} search e.g. location.search
 * @param {string[]} keys the site's lessons' keys, the first lesson's first
 * @returns {string} one of `keys`: the one named, else the first
 */
export function lessonAsked(search, keys) {
  const asked = new URLSearchParams(search).get(LESSON_PARAM);
  return asked !== null && keys.includes(asked) ? asked : keys[0];
}

/**
 * A page's address with the lesson's key in its query: `index.html` ->
 * `index.html?lesson=transformer`, `?page=article` -> `?page=article&lesson=transformer`.
 * @param {string} href a page's address, with no fragment
 * @param {string | null} [lesson] the key, or none (the first lesson: the address as it is)
 * @returns {string}
 */
export function withLesson(href, lesson) {
  if (!lesson) return href;
  const query = `${LESSON_PARAM}=${encodeURIComponent(lesson)}`;
  return `${href}${href.includes('?') ? '&' : '?'}${query}`;
}
