// The lesson a page shows: the one its address names (`?lesson=<key>`, lesson-address.js), else
// the first. The first lesson's content comes with the page's own scripts; another lesson's is a
// chunk of its own, loaded before the page's modules run (the build: web/build/vite-plugin-lesson.js).
import first from 'virtual:lesson';
import { LESSONS, loadOtherLesson } from 'virtual:lessons';
import { lessonAsked } from './lesson-address.js';

/**
 * @typedef {{ key: string, course: string, module: number, lesson: number, title: string,
 *   subtitle: string | null, next: { title: string, available: boolean, key: string | null }
 *   | null, code: string }} LessonMeta a lesson's lesson.yaml, as docs/content.md shows it
 */

/** Every lesson of the site, in the order of their numbers. @type {LessonMeta[]} */
export const ALL_LESSONS = LESSONS;

/** The key of the lesson shown. */
export const LESSON_KEY = lessonAsked(
  globalThis.location?.search ?? '',
  ALL_LESSONS.map(({ key }) => key),
);

/**
 * The key the page's links carry (lesson-address.js, withLesson): none for the first lesson, so
 * its addresses stay as they are without one.
 * @type {string | null}
 */
export const LINK_KEY = linkKeyOf(LESSON_KEY);

/**
 * The key a link to `key`'s lesson carries: none for the first.
 * @param {string} key
 * @returns {string | null}
 */
export function linkKeyOf(key) {
  return key === first.lesson.key ? null : key;
}

/** The content of the lesson shown: the object of docs/content.md, "What the build produces". */
const lesson = LINK_KEY === null ? first : await loadOtherLesson(LINK_KEY);
export default lesson;
