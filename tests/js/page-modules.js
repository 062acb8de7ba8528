// Module hooks that let a Node test import page modules as Vite would serve them:
// `virtual:lesson` becomes the lesson loaded from slides/, a CSS import an empty module, and a JSON
// import (which Vite takes without an import attribute) a module whose default is the JSON.
// Register with `register('./page-modules.js', import.meta.url)` from node:module.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { loadLesson } from '../../web/build/content.js';

const LESSON_URL = 'attention-lab:virtual-lesson';
const SLIDES = new URL('../../slides/attention/', import.meta.url);

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
  if (url.endsWith('.json') && url.startsWith('file:')) {
    const source = `export default ${readFileSync(fileURLToPath(url), 'utf8')};`;
    return { format: 'module', source, shortCircuit: true };
  }
  return nextLoad(url, context);
}
