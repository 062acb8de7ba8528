// The lesson a page shows: the one its address names (`?lesson=<key>`, lesson-address.js), else
// the first. The first lesson's content comes with the page's own scripts; another lesson's is a
// chunk of its own, loaded before any module that imports this one runs (the build:
// web/build/vite-plugin-lesson.js).
import first from 'virtual:lesson';
import { LESSONS, loadOtherLesson } from 'virtual:lessons';
import { lessonAsked } from './lesson-address.js';

/** The key of the lesson shown. */
export const LESSON_KEY = lessonAsked(
  globalThis.location?.search ?? '',
  LESSONS.map(({ key }) => key),
);

/**
 * The key the page's links carry (lesson-address.js, withLesson): none for the first lesson, so
 * its addresses stay as they are without one.
 * @type {string | null}
 */
export const LINK_KEY = LESSON_KEY === first.lesson.key ? null : LESSON_KEY;

/** The content of the lesson shown: the object of docs/content.md, "What the build produces". */
const lesson = LINK_KEY === null ? first : await loadOtherLesson(LINK_KEY);
export default lesson;
