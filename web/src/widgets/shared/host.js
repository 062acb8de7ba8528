// Puts one widget into a host element the page owns. The host loads what the widget declared when
// it registered (registry.js): the engine, the word vectors, the trained models it shows
// (web/src/text/trained-models.js). Until they are in, it shows one loading line, which says what
// is on its way; once they are, it mounts the widget with them; when one cannot load, it shows the
// learner's message of that load in one alert instead. A widget registered `early` that has
// something to draw without them (a recording) is mounted at once; what it declared then loads
// once the page has (web/src/after-load.js), and the host mounts it again from its kept state,
// the learner's control keeping its focus, text and caret. The deck, the article and the embed
// page place their widgets through here.
import { afterLoad } from '../../after-load.js';
import { TRAINED_MODELS, isModelFailure } from '../../text/trained-models.js';
import { VectorsUnavailable, loadVectorsOnce, vectorsLoaded } from '../../text/vectors.js';
import { EngineUnavailable, loadEngineOnce, loadedEngine } from './engine-loader.js';
import { createWidget, mountsEarly, needsOf } from './registry.js';

const LOADING = 'Loading the attention engine\u2026';
const LOADING_VECTORS = 'Loading word vectors\u2026';
const BROKEN = 'This figure could not be drawn. Please reload the page to try again.';
/** The controls whose focus survives a new mount: what a widget builds, not what it draws. */
const CONTROLS = 'input, textarea, select, button';

/**
 * @typedef {import('./registry.js').Needs} Needs
 * @typedef {import('./registry.js').LoadedModels} LoadedModels
 */

/**
 * @typedef {object} Placement
 * @property {() => void} destroy removes the widget (or stops waiting for what it needs)
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
 * Mounts the widget `spec.type` into `host` with `spec.props` plus `state`, `place`, `onState`
 * and `models` (registry.js), once what it declared has loaded.
 * @param {HTMLElement} host an element the page owns; its content is replaced
 * @param {{ type: string, props?: object }} spec as a slide names its widget
 * @param {Kept} kept
 * @returns {Placement}
 */
export function placeWidget(host, spec, kept) {
  /** @type {import('./registry.js').Widget | null} */
  let widget = null;
  let gone = false;
  /** The state the widget last handed back: a second mount starts from it. */
  let state = kept.state;
  const needs = needsOf([{ type: spec.type, props: { ...spec.props, state } }]);

  /**
   * @param {object | null} engine
   * @param {LoadedModels} models
   */
  const mount = (engine, models) => {
    if (gone) return;
    const keep = focusIn(host);
    widget?.destroy();
    const area = host.ownerDocument.createElement('div');
    area.className = 'widget-area';
    host.replaceChildren(area);
    host.removeAttribute('aria-busy');
    try {
      widget = createWidget(spec.type);
      const onState = (/** @type {Record<string, unknown>} */ next) => {
        if (gone) return;
        state = next;
        kept.onState(next);
      };
      const props = { ...spec.props, state: { ...state }, place: kept.place, onState, models };
      widget.mount(area, props, engine);
      keep(area);
    } catch (error) {
      console.error(error);
      widget = null;
      showMessage(host, 'alert', BROKEN);
    }
  };
  /** @param {unknown} error */
  const fail = (error) => {
    if (gone) return;
    const known =
      error instanceof EngineUnavailable ||
      error instanceof VectorsUnavailable ||
      isModelFailure(error);
    if (!known) console.error(error);
    widget?.destroy();
    widget = null;
    showMessage(host, 'alert', known ? /** @type {Error} */ (error).message : BROKEN);
  };
  /** @param {string} text */
  const loading = (text) => {
    if (!gone) showMessage(host, 'status', text);
  };

  const engine = loadedEngine();
  const models = engine ? modelsIn(engine, needs) : undefined;
  if (engine && models) {
    mount(engine, models);
  } else if (mountsEarly(spec.type, { ...spec.props, state })) {
    mount(engine ?? null, {});
    // A widget that declares nothing loads what it wants itself (the knowledge check).
    if (needs.vectors || needs.models.length > 0) {
      afterLoad()
        .then(() => (gone ? undefined : loadNeeds(needs, () => {})))
        .then((loaded) => loaded && mount(loaded.engine, loaded.models), fail);
    }
  } else {
    loadNeeds(needs, loading).then(({ engine, models }) => mount(engine, models), fail);
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
 * @param {object} engine
 * @param {Needs} needs
 * @returns {LoadedModels | undefined} the declared models, if all are in the engine with the word
 *   vectors a widget needs
 */
function modelsIn(engine, needs) {
  if (needs.vectors && !vectorsLoaded()) return undefined;
  /** @type {Record<string, unknown>} */
  const models = {};
  for (const name of needs.models) {
    const model = TRAINED_MODELS[name].loaded(engine);
    if (!model) return undefined;
    models[name] = model;
  }
  return /** @type {LoadedModels} */ (models);
}

/**
 * Loads the engine, then the declared trained models (each with the word vectors) or the word
 * vectors alone, saying what it waits for.
 * @param {Needs} needs
 * @param {(text: string) => void} say shows the loading line
 * @returns {Promise<{ engine: object, models: LoadedModels }>} rejects with the failed load's error
 */
async function loadNeeds(needs, say) {
  let engine = loadedEngine();
  if (!engine) {
    say(LOADING);
    engine = await loadEngineOnce();
  }
  const waiting = needs.models.filter((name) => !TRAINED_MODELS[name].loaded(engine));
  if (waiting.length > 0) say(waiting.map((name) => TRAINED_MODELS[name].loading).join(' '));
  else if (needs.vectors && !vectorsLoaded()) say(LOADING_VECTORS);
  // Side by side, and every failure handled here; the models' loads take the vectors in too.
  await Promise.all([
    needs.vectors ? loadVectorsOnce(/** @type {any} */ (engine)) : undefined,
    ...needs.models.map((name) => TRAINED_MODELS[name].loadOnce(engine)),
  ]);
  return { engine, models: /** @type {LoadedModels} */ (modelsIn(engine, needs)) };
}

/**
 * Where the focus is in the host, to put back into the same control of the next mount: the
 * control's place among the widget's controls, and its text selection and scroll.
 * @param {HTMLElement} host
 * @returns {(area: HTMLElement) => void} focuses that control in `area` (nothing when the focus
 *   was not in a control of the host)
 */
function focusIn(host) {
  const active = host.ownerDocument.activeElement;
  if (!(active instanceof HTMLElement) || !host.contains(active)) return () => {};
  const index = Array.from(host.querySelectorAll(CONTROLS)).indexOf(active);
  if (index < 0) return () => {};
  const field =
    active instanceof HTMLTextAreaElement || active instanceof HTMLInputElement ? active : null;
  const selection =
    typeof field?.selectionStart === 'number'
      ? {
          start: field.selectionStart,
          end: field.selectionEnd ?? field.selectionStart,
          direction: field.selectionDirection ?? 'none',
          scroll: field.scrollTop,
        }
      : null;
  return (area) => {
    const control = area.querySelectorAll(CONTROLS)[index];
    if (!(control instanceof HTMLElement) || control.className !== active.className) return;
    control.focus({ preventScroll: true });
    if (!selection || !('setSelectionRange' in control)) return;
    const next = /** @type {HTMLInputElement | HTMLTextAreaElement} */ (control);
    next.setSelectionRange(selection.start, selection.end, selection.direction);
    next.scrollTop = selection.scroll;
  };
}

/**
 * Shows one message line in the host, in place of its content; a loading line that is already
 * there takes the new words, so that there is one line however many loads it waits for.
 * @param {HTMLElement} host
 * @param {'status' | 'alert'} role
 * @param {string} text
 */
function showMessage(host, role, text) {
  const shown = host.firstElementChild;
  const line =
    role === 'status' && shown?.getAttribute('role') === 'status' && host.childElementCount === 1
      ? shown
      : host.ownerDocument.createElement('p');
  line.className = role === 'alert' ? 'widget-message error' : 'widget-message status busy';
  line.setAttribute('role', role);
  line.textContent = text;
  if (line !== shown) host.replaceChildren(line);
  if (role === 'status') host.setAttribute('aria-busy', 'true');
  else host.removeAttribute('aria-busy');
}
