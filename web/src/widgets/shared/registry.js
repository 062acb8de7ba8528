// Widgets by name. A widget module registers a factory; the deck and the article create one
// instance per place it appears.
//
// The contract: create() returns { mount(el, props, engine), destroy() }.
// - mount draws into `el` (an empty element the host owns) from `props` (the slide's widget props
//   plus `state`, `place` and `onState`) with `engine` (the facade from web/src/engine/), or with
//   `engine` null for a widget registered `early` whose engine has not loaded yet: such a widget
//   draws what it can without one (a recording) and loads the engine itself (engine-loader.js). `state`
//   is a copy of what the host keeps for this place: the widget starts from it (else from its
//   props, else its defaults), and it is the widget's own to change. `place` is an object that
//   stands for the place while the page is open: what must outlive a mount and is no plain value
//   (a training run in a worker, a quiz in progress) is keyed by it.
// - props.onState(state) is the one way back: the widget calls it with its whole state, a plain
//   object, whenever it changes after mount, whatever changed it (typing, a click, a key, a timer,
//   a worker). The host keeps the last one, mounts the widget from it again when the learner
//   comes back, and keeps the address, the embed code, the saved figure and an LMS's saved data
//   in step with it. A widget mounted without it (a test, a print view) runs the same.
// - destroy() removes listeners and empties `el`; new props are a new mount.
// - Keys handled inside the widget do not reach the deck: typing never moves the slides.
// - What a link (or an LMS) may set is declared with it: `settings`, in the widget folder's
//   `link-settings.js` (link-settings.js). The pages accept nothing else from outside, so a
//   widget registered without it takes no settings from an address.

/** @typedef {{ mount(el: HTMLElement, props: object, engine: object): void, destroy(): void }} Widget */

/**
 * What a widget calls to hand its state back, from props.onState, or nothing when the host gave
 * none.
 * @param {{ onState?: unknown }} props as mount() received them
 * @returns {(state: Record<string, unknown>) => void}
 */
export function stateReporter(props) {
  const onState = props?.onState;
  if (typeof onState !== 'function') return () => {};
  return (state) => onState({ ...state });
}

/** @type {Map<string, () => Widget>} */
const factories = new Map();
/** @type {Set<string>} */
const needVectors = new Set();
/** @type {Set<string>} */
const early = new Set();
/** @type {Map<string, import('./link-settings.js').SettingsDeclaration>} */
const declarations = new Map();

/**
 * @param {string} name kebab-case, as slides name it in `widget.type`
 * @param {() => Widget} create
 * @param {{ vectors?: boolean, early?: boolean,
 *   settings?: import('./link-settings.js').SettingsDeclaration }} [needs]
 *   `vectors: true` for a widget that embeds tokens: it is mounted once the word vectors are in
 *   the engine (web/src/text/vectors.js); `early: true` for a widget mounted at once, before the
 *   engine has loaded (it is then given null); `settings`: what a link or an LMS may set, by
 *   name (link-settings.js), `{}` for a widget that takes nothing from outside
 */
export function registerWidget(name, create, needs = {}) {
  if (factories.has(name)) throw new Error(`widget "${name}" is registered twice`);
  factories.set(name, create);
  if (needs.vectors) needVectors.add(name);
  if (needs.early) early.add(name);
  if (needs.settings) declarations.set(name, needs.settings);
}

/**
 * @param {string} name
 * @returns {import('./link-settings.js').SettingsDeclaration | undefined} what a link or an LMS
 *   may set in the widget, or undefined when it declares nothing (it then takes nothing)
 */
export function settingsOf(name) {
  return declarations.get(name);
}

/**
 * @param {string} name
 * @returns {boolean} whether the widget needs the word vectors loaded before it is mounted
 */
export function needsVectors(name) {
  return needVectors.has(name);
}

/**
 * @param {string} name
 * @returns {boolean} whether the widget is mounted before the engine has loaded
 */
export function mountsEarly(name) {
  return early.has(name);
}

/**
 * @param {string} name
 * @returns {Widget}
 */
export function createWidget(name) {
  const create = factories.get(name);
  if (!create) throw new Error(`no widget is registered as "${name}"`);
  return create();
}

/** @returns {string[]} every registered name */
export function widgetNames() {
  return [...factories.keys()];
}
