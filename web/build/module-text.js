// What the site says of itself as a whole, the module of every lesson in slides/: the installable
// app's name and description (vite.config.js). Only the lessons' lesson.yaml files are read, so
// that loading the configuration renders no slide; loadLessons (content.js) checks the rest when
// the site is built.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { checkLessonMeta } from './schema.js';
import { parseYaml } from './yaml.js';

/**
 * Every lesson's lesson.yaml under `slidesDir`, checked, in the order of their numbers.
 * @param {string} slidesDir the project's `slides/`
 * @returns {{ key: string, course: string, module: number, lesson: number, title: string }[]}
 */
export function lessonMetas(slidesDir) {
  const top = path.basename(path.resolve(slidesDir));
  return readdirSync(slidesDir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && !entry.name.startsWith('.'))
    .map(({ name }) => {
      const file = `${top}/${name}/lesson.yaml`;
      const text = readFileSync(path.join(slidesDir, name, 'lesson.yaml'), 'utf8');
      return checkLessonMeta(parseYaml(text, file), file);
    })
    .sort((a, b) => a.lesson - b.lesson);
}

/**
 * The installable app's name and description: the module and each of its lessons.
 * @param {{ course: string, module: number, lesson: number, title: string }[]} lessons in order
 * @returns {{ name: string, description: string }}
 */
export function moduleText(lessons) {
  const [{ course, module }] = lessons;
  const titles = lessons.map(({ lesson, title }) => `Lesson ${lesson}, ${title}`);
  const count = lessons.length === 1 ? 'one lesson' : `${lessons.length} lessons`;
  return {
    name: `Attention Lab · ${course}, Module ${module}`,
    description: `${course}, Module ${module}, ${count} with live figures: ${titles.join('; ')}.`,
  };
}
