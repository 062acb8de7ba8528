// Module hooks that let a Node test import page modules as Vite would serve them:
// `virtual:lesson` becomes the lesson loaded from slides/, and a CSS import an empty module.
// Register with `register('./page-modules.js', import.meta.url)` from node:module.
import { fileURLToPath } from 'node:url';
import { loadLesson } from '../../web/build/content.js';

const LESSON_URL = 'attention-lab:virtual-lesson';
const SLIDES = new URL('../../slides/', import.meta.url);

/**
 * @param {string} specifier
 * @param {object} context
 * @param {Function} nextResolve
 */
export async function resolve(specifier, context, nextResolve) {
  if (specifier === 'virtual:lesson') return { url: LESSON_URL, shortCircuit: true };
  return nextResolve(specifier, context);
}

/**
 * @param {string} url
 * @param {object} context
 * @param {Function} nextLoad
 */
export async function load(url, context, nextLoad) {
  if (url === LESSON_URL) {
    const source = `export default ${JSON.stringify(loadLesson(fileURLToPath(SLIDES)))};`;
    return { format: 'module', source, shortCircuit: true };
  }
  if (url.endsWith('.css')) return { format: 'module', source: '', shortCircuit: true };
  return nextLoad(url, context);
}
