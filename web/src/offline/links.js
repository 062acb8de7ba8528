// Where the lesson's pages live in the single-file lesson (the offline build puts this module in
// place of web/src/links.js): all four are the one file, told apart by its ?page= parameter
// (none: the deck). Links are a query and a hash only, so they work whatever the file is called.
// A link to a page of any lesson but the first names it, as on the site: `&lesson=<key>`.
import { withLesson } from '../lesson-address.js';

/** The file's pages, by the name of the page they stand for in the hosted site. */
export const OFFLINE_PAGES = Object.freeze({
  'index.html': 'deck',
  'article.html': 'article',
  'practice.html': 'practice',
  'lessons.html': 'lessons',
});

export const DECK_URL = '?page=deck';
export const ARTICLE_URL = '?page=article';
export const PRACTICE_URL = '?page=practice';
export const LESSONS_URL = '?page=lessons';
/** The file has no page for embedding a figure: a frame needs a hosted address. */
export const EMBED_URL = '';

/**
 * A page of a lesson: `?page=practice`, `?page=practice&lesson=transformer`.
 * @param {string} page one of the URLs above
 * @param {string | null} [lesson] the lesson's key; none for the first lesson
 * @returns {string}
 */
export function lessonHref(page, lesson) {
  return withLesson(page, lesson);
}

/**
 * The deck, opened at one slide.
 * @param {string} id a slide id
 * @param {string | null} [lesson]
 * @returns {string}
 */
export function slideHref(id, lesson) {
  return `${withLesson(DECK_URL, lesson)}#/${encodeURIComponent(id)}`;
}

/**
 * The article's section for a slide, remembering the slide so the article can lead back to it.
 * @param {string} id a slide id
 * @param {string | null} [lesson]
 * @returns {string}
 */
export function articleHref(id, lesson) {
  const key = encodeURIComponent(id);
  return `${withLesson(ARTICLE_URL, lesson)}&from=${key}#${key}`;
}

/**
 * A link of a hosted page, as it reads in the single file: `article.html?from=x#x` becomes
 * `?page=article&from=x#x`; any other link stays as it is.
 * @param {string} href
 * @returns {string}
 */
export function offlineHref(href) {
  const match = /^(?:\.\/)?([a-z]+\.html)(\?[^#]*)?(#.*)?$/.exec(href);
  const page = match && OFFLINE_PAGES[/** @type {keyof typeof OFFLINE_PAGES} */ (match[1])];
  if (!match || !page) return href;
  const query = match[2] ? `&${match[2].slice(1)}` : '';
  return `?page=${page}${query}${match[3] ?? ''}`;
}

/**
 * The page an address asks for: its ?page= parameter, the deck when it names none or one the file
 * does not have.
 * @param {string} search e.g. location.search
 * @returns {'deck' | 'article' | 'practice' | 'lessons'}
 */
export function pageOf(search) {
  const asked = new URLSearchParams(search).get('page');
  const pages = /** @type {string[]} */ (Object.values(OFFLINE_PAGES));
  return /** @type {any} */ (asked && pages.includes(asked) ? asked : 'deck');
}
