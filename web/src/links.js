// Where the lesson's pages live, relative to each other: the deck, the article, the practice page,
// the list of lessons and the page that shows one figure for embedding sit side by side in one
// folder. A link to a page of any lesson but the first names it: `?lesson=<key>`
// (lesson-address.js); `lesson` below is that key, or none for the first lesson.
import { withLesson } from './lesson-address.js';

export const DECK_URL = 'index.html';
export const ARTICLE_URL = 'article.html';
export const PRACTICE_URL = 'practice.html';
export const LESSONS_URL = 'lessons.html';
export const EMBED_URL = 'embed.html';

/**
 * A page of a lesson: `practice.html`, `practice.html?lesson=transformer`.
 * @param {string} page one of the URLs above
 * @param {string | null} [lesson]
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
  return `${withLesson(ARTICLE_URL, lesson)}${lesson ? '&' : '?'}from=${key}#${key}`;
}
