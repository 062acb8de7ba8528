// Module hooks that let a Node test import page modules as Vite would serve them: the virtual
// modules of web/build/vite-plugin-lesson.js (`virtual:lessons`, `virtual:lesson`,
// `virtual:lesson/<key>`) come from the lessons loaded from slides/, a CSS import becomes an empty
// module, and a JSON import (which Vite takes without an import attribute) a module whose default
// is the JSON. Register with `register('./page-modules.js', import.meta.url)` from node:module.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { loadLessons } from '../../web/build/content.js';
import { indexSource } from '../../web/build/vite-plugin-lesson.js';

const VIRTUAL_URL = 'attention-lab:virtual/';
const SLIDES = new URL('../../slides/', import.meta.url);

/** @type {ReturnType<typeof loadLessons> | null} */
let lessons = null;
const allLessons = () => (lessons ??= loadLessons(fileURLToPath(SLIDES)));

/**
 * @param {string} specifier
 * @param {object} context
 * @param {Function} nextResolve
 */
export async function resolve(specifier, context, nextResolve) {
  if (specifier === 'virtual:lessons' || specifier.startsWith('virtual:lesson')) {
    return { url: `${VIRTUAL_URL}${specifier}`, shortCircuit: true };
  }
  return nextResolve(specifier, context);
}

/**
 * @param {string} url
 * @param {object} context
 * @param {Function} nextLoad
 */
export async function load(url, context, nextLoad) {
  if (url.startsWith(VIRTUAL_URL)) {
    const id = url.slice(VIRTUAL_URL.length);
    const all = allLessons();
    if (id === 'virtual:lessons') {
      return { format: 'module', source: indexSource(all), shortCircuit: true };
    }
    const key = id === 'virtual:lesson' ? all[0].lesson.key : id.slice('virtual:lesson/'.length);
    const content = all.find(({ lesson }) => lesson.key === key);
    const source = `export default ${JSON.stringify(content)};`;
    return { format: 'module', source, shortCircuit: true };
  }
  if (url.endsWith('.css')) return { format: 'module', source: '', shortCircuit: true };
  if (url.endsWith('.json') && url.startsWith('file:')) {
    const source = `export default ${readFileSync(fileURLToPath(url), 'utf8')};`;
    return { format: 'module', source, shortCircuit: true };
  }
  return nextLoad(url, context);
}
