// Puts one widget into a host element the page owns: a loading line while the engine starts, the
// widget once it is ready, or a clear message when it cannot run; a widget registered `early`
// is mounted at once and loads the engine itself. The deck and the article both place their
// widgets through here.
import { VectorsUnavailable, loadVectorsOnce, vectorsLoaded } from '../../text/vectors.js';
import { EngineUnavailable, loadEngineOnce, loadedEngine } from './engine-loader.js';
import { createWidget, mountsEarly, needsVectors } from './registry.js';

const LOADING = 'Loading the attention engine\u2026';
const LOADING_VECTORS = 'Loading word vectors\u2026';
const BROKEN = 'This figure could not be drawn. Please reload the page to try again.';

/**
 * @typedef {object} Placement
 * @property {() => void} destroy removes the widget (or stops waiting for the engine)
 */

/**
 * @typedef {object} Kept what the page keeps for one place a widget is shown in
 * @property {Record<string, unknown>} state the widget's last state (registry.js): it is mounted
 *   from a copy of it, so the learner's inputs survive leaving and coming back
 * @property {object} place stands for the place as long as the page is open: what must outlive a
 *   mount (a training run, a quiz in progress) is keyed by it
 * @property {(state: Record<string, unknown>) => void} onState called with the widget's whole
 *   state, a new object, whenever it changes after mount; the page keeps it as the next `state`
 */

/**
 * Mounts the widget `spec.type` into `host` with `spec.props` plus `state`, `place` and `onState`
 * (registry.js).
 * @param {HTMLElement} host an element the page owns; its content is replaced
 * @param {{ type: string, props?: object }} spec as a slide names its widget
 * @param {Kept} kept
 * @returns {Placement}
 */
export function placeWidget(host, spec, kept) {
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
      const onState = (/** @type {Record<string, unknown>} */ next) => {
        if (!gone) kept.onState(next);
      };
      const props = { ...spec.props, state: { ...kept.state }, place: kept.place, onState };
      widget.mount(area, props, engine);
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
  if (mountsEarly(spec.type)) {
    mount(engine ?? null);
  } else if (engine && (!needsVectors(spec.type) || vectorsLoaded())) {
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
