// Every lesson of slides/ as the browser tests walk them: the content the pages get
// (loadLessons) and each lesson's address, which names the lesson for any but the first
// (`index.html?lesson=transformer`), as the pages' own links do (web/src/lesson-address.js).
import { fileURLToPath } from 'node:url';
import { loadLessons } from '../../web/build/content.js';
import { withLesson } from '../../web/src/lesson-address.js';

/**
 * @typedef {import('../../web/build/content.js').Lesson & { linkKey: string | null }} WalkedLesson
 *   linkKey: the key the lesson's addresses carry, null for the first lesson
 */

/** @type {WalkedLesson[]} every lesson, the first first */
export const LESSONS = loadLessons(fileURLToPath(new URL('../../slides/', import.meta.url))).map(
  (content, index) => ({ ...content, linkKey: index === 0 ? null : content.lesson.key }),
);

/**
 * A page of the site showing `lesson`, with an optional fragment.
 * @param {WalkedLesson} lesson
 * @param {string} page e.g. 'index.html', 'article.html?from=title'
 * @param {string} [hash] e.g. '#/title'
 * @returns {string} e.g. 'index.html?lesson=transformer#/title'
 */
export function lessonPath(lesson, page, hash = '') {
  return `${withLesson(page, lesson.linkKey)}${hash}`;
}
