// Vite plugin: the lessons of slides/ (web/build/content.js, loadLessons) as virtual modules.
//   virtual:lessons          { LESSONS, loadOtherLesson }: every lesson's lesson.yaml, in the
//                            order of their numbers, and the content of any but the first, each
//                            in a chunk of its own, loaded on demand (web/src/lesson.js)
//   virtual:lesson           the first lesson's content, the object of loadLesson (the default
//                            export), which the pages import without waiting
//   virtual:lesson/<key>     the content of the lesson with that key
// Broken content fails the build, and shows in the dev server's error overlay, with the
// ContentError message that names the file and the field. In dev, any change in the content
// folder reloads the page.
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { ContentError, loadLessons } from './content.js';

const INDEX_ID = 'virtual:lessons';
const FIRST_ID = 'virtual:lesson';
const ONE_PREFIX = 'virtual:lesson/';

/**
 * The source of `virtual:lessons`.
 * @param {import('./content.js').Lesson[]} lessons
 * @returns {string}
 */
export function indexSource(lessons) {
  const metas = lessons.map((content) => content.lesson);
  const loaders = lessons
    .slice(1)
    .map(({ lesson: { key } }) => {
      const id = JSON.stringify(`${ONE_PREFIX}${key}`);
      return `  ${JSON.stringify(key)}: () => import(${id}),\n`;
    })
    .join('');
  return [
    `export const LESSONS = ${JSON.stringify(metas)};`,
    `const LOADERS = {\n${loaders}};`,
    '/** @param {string} key a lesson but the first */',
    'export function loadOtherLesson(key) {',
    '  return LOADERS[key]().then((module) => module.default);',
    '}',
    '',
  ].join('\n');
}

/**
 * @param {{ dir: string }} options dir: the content folder, the project's `slides/`
 * @returns {import('vite').Plugin}
 */
export default function lessonPlugin({ dir }) {
  const contentDir = path.resolve(dir);
  const inContent = (file) => path.resolve(file).startsWith(contentDir + path.sep);
  const isOurs = (id) => id === INDEX_ID || id === FIRST_ID || id.startsWith(ONE_PREFIX);

  let building = false;
  /** @type {import('./content.js').Lesson[] | null} loaded once a build, and after each change */
  let lessons = null;
  const allLessons = () => (lessons ??= loadLessons(contentDir));

  /**
   * @param {string} id without its \0
   * @returns {string}
   */
  const source = (id) => {
    const all = allLessons();
    if (id === INDEX_ID) return indexSource(all);
    const key = id === FIRST_ID ? all[0].lesson.key : id.slice(ONE_PREFIX.length);
    const content = all.find(({ lesson }) => lesson.key === key);
    if (!content) throw new ContentError(path.basename(contentDir), '', `has no lesson "${key}"`);
    return `export default ${JSON.stringify(content)};\n`;
  };

  return {
    name: 'attention-lab:lesson',

    configResolved(config) {
      building = config.command === 'build';
    },

    buildStart() {
      lessons = null;
    },

    resolveId(id) {
      return isOurs(id) ? `\0${id}` : undefined;
    },

    load(id) {
      if (!id.startsWith('\0') || !isOurs(id.slice(1))) return undefined;
      // `vite build --watch` rebuilds when a content file changes; the dev server has its own
      // watcher (configureServer).
      if (building && existsSync(contentDir)) {
        for (const name of readdirSync(contentDir, { recursive: true, encoding: 'utf8' })) {
          this.addWatchFile(path.join(contentDir, name));
        }
      }
      try {
        return source(id.slice(1));
      } catch (err) {
        if (err instanceof ContentError) this.error(err.message);
        throw err;
      }
    },

    configureServer(server) {
      server.watcher.add(contentDir);
      const reload = (file) => {
        if (!inContent(file)) return;
        lessons = null;
        for (const environment of Object.values(server.environments)) {
          for (const [id, module] of environment.moduleGraph.idToModuleMap) {
            if (id.startsWith('\0') && isOurs(id.slice(1))) {
              environment.moduleGraph.invalidateModule(module);
            }
          }
        }
        server.ws.send({ type: 'full-reload' });
      };
      for (const event of ['add', 'change', 'unlink']) server.watcher.on(event, reload);
    },
  };
}
