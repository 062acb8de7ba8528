// Vite plugin: the lesson content as the virtual module `virtual:lesson`
// (`import lesson from 'virtual:lesson'`; its default export is the object of loadLesson).
// Broken content fails the build, and shows in the dev server's error overlay, with the
// ContentError message that names the file and the field. In dev, any change in the content
// folder reloads the page.
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { ContentError, loadLesson } from './content.js';

const VIRTUAL_ID = 'virtual:lesson';
const RESOLVED_ID = `\0${VIRTUAL_ID}`;

/**
 * @param {{ dir: string }} options dir: the content folder (the project's `slides/`)
 * @returns {import('vite').Plugin}
 */
export default function lessonPlugin({ dir }) {
  const contentDir = path.resolve(dir);
  const inContent = (file) => path.resolve(file).startsWith(contentDir + path.sep);

  let building = false;

  return {
    name: 'attention-lab:lesson',

    configResolved(config) {
      building = config.command === 'build';
    },

    resolveId(id) {
      return id === VIRTUAL_ID ? RESOLVED_ID : undefined;
    },

    load(id) {
      if (id !== RESOLVED_ID) return undefined;
      // `vite build --watch` rebuilds when a content file changes; the dev server has its own
      // watcher (configureServer).
      if (building && existsSync(contentDir)) {
        for (const name of readdirSync(contentDir)) this.addWatchFile(path.join(contentDir, name));
      }
      try {
        return `export default ${JSON.stringify(loadLesson(contentDir))};\n`;
      } catch (err) {
        if (err instanceof ContentError) this.error(err.message);
        throw err;
      }
    },

    configureServer(server) {
      server.watcher.add(contentDir);
      const reload = (file) => {
        if (!inContent(file)) return;
        for (const environment of Object.values(server.environments)) {
          const module = environment.moduleGraph.getModuleById(RESOLVED_ID);
          if (module) environment.moduleGraph.invalidateModule(module);
        }
        server.ws.send({ type: 'full-reload' });
      };
      for (const event of ['add', 'change', 'unlink']) server.watcher.on(event, reload);
    },
  };
}
