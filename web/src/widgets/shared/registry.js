// Widgets by name. A widget module registers a factory; the deck and the article create one
// instance per place it appears.
//
// The contract: create() returns { mount(el, props, engine), destroy() }.
// - mount draws into `el` (an empty element the host owns) from `props` (the slide's widget props
//   plus `state`, `place`, `onState` and `models`) with `engine` (the facade from
//   web/src/engine/). The host (host.js) loads what the widget declared when it registered (the
//   engine always, the word vectors for `vectors`, each trained model named in `models`) before
//   it mounts it, with one loading line while it waits and one alert if a load fails; the widget
//   only draws. `props.models` holds the declared models, loaded, by name
//   (web/src/text/trained-models.js, `LoadedModels`): `props.models.translation`.
// - A widget registered `early` whose props say so is mounted at once, before anything has
//   loaded, with `engine` null (or the engine, if it has loaded) and `props.models` empty: it
//   draws what it can without them (a recording). The host loads what it declared once the page
//   has loaded (web/src/after-load.js) and then mounts it again from the state it has handed back,
//   with the engine and the models; the control the learner is in keeps its focus, its text and
//   its caret. An early widget that declares nothing (the knowledge check) is mounted once and
//   loads the engine itself (engine-loader.js).
// - `state` is a copy of what the host keeps for this place: the widget starts from it (else from
//   its props, else its defaults), and it is the widget's own to change. `place` is an object that
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
// - What a page starts downloading before its widgets ask (engine-loader.js, `startLoading`) is
//   what the views it shows declare: `needsOf`. A widget whose views show different models
//   declares every one in `models` and, in `modelsFor`, which of them a mount with given props
//   shows: the host loads only those.

import { isTrainedModel } from '../../text/trained-models.js';

/**
 * @typedef {import('../../text/trained-models.js').TrainedModel} TrainedModel
 * @typedef {import('../../text/trained-models.js').LoadedModels} LoadedModels
 */

/**
 * What a widget is mounted with, beside the slide's own props.
 * @typedef {Record<string, any> & { state?: Record<string, unknown>, place?: object,
 *   onState?: (state: Record<string, unknown>) => void, models?: LoadedModels }} MountProps
 */

/**
 * What a widget needs loaded before it can draw live.
 * @typedef {{ vectors: boolean, models: TrainedModel[] }} Needs
 */

/**
 * A widget shown with given props (a view of a slide's figure), or its name alone: then every
 * model it declares.
 * @typedef {string | { type: string, props?: Record<string, any> }} WidgetView
 */

/**
 * @typedef {{ mount(el: HTMLElement, props: MountProps, engine: object | null): void,
 *   destroy(): void }} Widget
 */

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
/** @type {Map<string, Needs & { modelsFor?: (props: MountProps) => TrainedModel[] }>} */
const needs = new Map();
/** @type {Map<string, (props: MountProps) => boolean>} */
const early = new Map();
/** @type {Map<string, import('./link-settings.js').SettingsDeclaration>} */
const declarations = new Map();

/**
 * @param {string} name kebab-case, as slides name it in `widget.type`
 * @param {() => Widget} create
 * @param {{ vectors?: boolean, models?: TrainedModel[],
 *   modelsFor?: (props: MountProps) => TrainedModel[],
 *   early?: boolean | ((props: MountProps) => boolean),
 *   settings?: import('./link-settings.js').SettingsDeclaration }} [declared]
 *   `vectors: true` for a widget that embeds tokens: it is mounted once the word vectors are in
 *   the engine (web/src/text/vectors.js); `models`: the trained models it shows, by name
 *   (web/src/text/trained-models.js): it is mounted once they are loaded, and given them as
 *   `props.models`; `modelsFor`: of those, the ones a mount with the given props (the slide's
 *   props and `state`) shows, for a widget whose views show different models (all of them
 *   without it); `early` for a widget mounted at once, before anything has loaded (it is then
 *   given null and no models): `true`, or a function of the props it would be mounted with
 *   (the slide's props and `state`) saying whether it has something to draw without them (a
 *   recording of its figure), else it waits as the others do; `settings`: what a link or an LMS
 *   may set, by name (link-settings.js), `{}` for a widget that takes nothing from outside
 */
export function registerWidget(name, create, declared = {}) {
  if (factories.has(name)) throw new Error(`widget "${name}" is registered twice`);
  for (const model of declared.models ?? []) {
    if (!isTrainedModel(model)) throw new Error(`widget "${name}" needs no model "${model}"`);
  }
  factories.set(name, create);
  needs.set(name, {
    vectors: Boolean(declared.vectors),
    models: [...(declared.models ?? [])],
    modelsFor: declared.modelsFor,
  });
  const { early: mounts } = declared;
  if (mounts) early.set(name, typeof mounts === 'function' ? mounts : () => true);
  if (declared.settings) declarations.set(name, declared.settings);
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
 * What the widgets need loaded, together: the word vectors if one of them declares them or a
 * trained model (which reads them), and every trained model one of them shows.
 * @param {Iterable<WidgetView>} views widgets with the props they are shown with, or by name
 *   alone (every model each declares; a name not registered needs nothing)
 * @returns {Needs}
 */
export function needsOf(views) {
  let vectors = false;
  /** @type {Set<TrainedModel>} */
  const models = new Set();
  for (const view of views) {
    const { type, props } = typeof view === 'string' ? { type: view, props: undefined } : view;
    const declared = needs.get(type);
    if (!declared) continue;
    const shown = props && declared.modelsFor ? declared.modelsFor(props) : declared.models;
    for (const model of shown) {
      if (!declared.models.includes(model)) {
        throw new Error(`widget "${type}" shows a model it does not declare: "${model}"`);
      }
    }
    vectors ||= declared.vectors || shown.length > 0;
    for (const model of shown) models.add(model);
  }
  return { vectors, models: [...models] };
}

/**
 * @param {string} name
 * @param {MountProps} props what it would be mounted with: the slide's props and `state`
 * @returns {boolean} whether the widget is mounted at once, before anything has loaded
 */
export function mountsEarly(name, props) {
  return early.get(name)?.(props) ?? false;
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
