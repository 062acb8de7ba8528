// Puts one widget into a host element the page owns: a loading line while the engine starts, the
// widget once it is ready, or a clear message when it cannot run. The deck and the article both
// place their widgets through here.
import { VectorsUnavailable, loadVectorsOnce, vectorsLoaded } from '../../text/vectors.js';
import { EngineUnavailable, loadEngineOnce, loadedEngine } from './engine-loader.js';
import { createWidget, needsVectors } from './registry.js';

const LOADING = 'Loading the attention engine\u2026';
const LOADING_VECTORS = 'Loading word vectors\u2026';
const BROKEN = 'This figure could not be drawn. Please reload the page to try again.';

/**
 * @typedef {object} Placement
 * @property {() => void} destroy removes the widget (or stops waiting for the engine)
 */

/**
 * Mounts the widget `spec.type` into `host` with `spec.props` plus `state`.
 * @param {HTMLElement} host an element the page owns; its content is replaced
 * @param {{ type: string, props?: object }} spec as a slide names its widget
 * @param {object} state kept by the caller across mounts, so the learner's inputs survive
 * @returns {Placement}
 */
export function placeWidget(host, spec, state) {
  let widget = null;
  let gone = false;

  const mount = (engine) => {
    if (gone) return;
    const area = host.ownerDocument.createElement('div');
    area.className = 'widget-area';
    host.replaceChildren(area);
    host.removeAttribute('aria-busy');
    try {
      widget = createWidget(spec.type);
      widget.mount(area, { ...spec.props, state }, engine);
    } catch (error) {
      console.error(error);
      widget = null;
      showMessage(host, 'alert', BROKEN);
    }
  };
  const fail = (error) => {
    if (gone) return;
    const known = error instanceof EngineUnavailable || error instanceof VectorsUnavailable;
    if (!known) console.error(error);
    showMessage(host, 'alert', known ? error.message : BROKEN);
  };
  // A widget that embeds tokens waits for the word vectors too, with a note of its own.
  const vectorsFor = (engine) => {
    if (!needsVectors(spec.type) || vectorsLoaded()) return engine;
    if (!gone) showMessage(host, 'status', LOADING_VECTORS);
    return loadVectorsOnce(engine).then(() => engine);
  };

  const engine = loadedEngine();
  if (engine && (!needsVectors(spec.type) || vectorsLoaded())) {
    mount(engine);
  } else {
    showMessage(host, 'status', engine ? LOADING_VECTORS : LOADING);
    (engine ? Promise.resolve(engine) : loadEngineOnce()).then(vectorsFor).then(mount, fail);
  }
  return {
    destroy() {
      gone = true;
      widget?.destroy();
      widget = null;
      host.replaceChildren();
      host.removeAttribute('aria-busy');
    },
  };
}

/**
 * Replaces the host's content with one message line.
 * @param {HTMLElement} host
 * @param {'status' | 'alert'} role
 * @param {string} text
 */
function showMessage(host, role, text) {
  const line = host.ownerDocument.createElement('p');
  line.className = role === 'alert' ? 'widget-message error' : 'widget-message status busy';
  line.setAttribute('role', role);
  line.textContent = text;
  host.replaceChildren(line);
  if (role === 'status') host.setAttribute('aria-busy', 'true');
  else host.removeAttribute('aria-busy');
}
