// The lifecycle every widget shares. On mount: build the elements, put them in the page, fill the
// inputs from the kept state (else the props, else the widget's defaults) and draw. On every input
// inside the widget: copy the inputs into the state, hand it to the host (props.onState,
// registry.js) and draw again: at once, or for a widget that follows typing, once per frame
// (frame-redraw.js). The draw gets the engine and the trained models the host handed the mount
// (props.models, registry.js). On destroy: stop, clear the figures and take the elements out. A widget
// supplies only those steps; one with no inputs of its own (the knowledge check, whose answers are
// its session's) leaves out fill and read, and its elements' input events are not listened to.
// New props mean a new mount: the host destroys the widget and mounts it again.

import { frameRedraw } from './frame-redraw.js';
import { stateReporter } from './registry.js';

/**
 * @typedef {object} FormContext what a widget's extra listeners may use
 * @property {() => void} redraw reads the inputs into the state, hands it to the host and draws
 *   at once: for a change the learner made (a click, a key)
 * @property {() => void} draw draws again at once from the state, telling the host nothing: for
 *   a redraw that changes no input (e.g. once a model has loaded)
 * @property {() => void} report hands the state, as the widget has changed it, to the host, and
 *   draws nothing: for what the learner did that is no input (an answer checked)
 * @property {() => Record<string, any>} state the state kept across mounts
 * @property {() => object} engine the engine facade
 * @property {() => import('./registry.js').LoadedModels} models the trained models the widget
 *   declared, as the host handed them (props.models): none yet for an `early` widget's first mount
 */

/**
 * @template {{ root: HTMLElement }} Parts
 * @typedef {object} FormSpec
 * @property {(doc: Document, props: Record<string, any>) => Parts} build makes the widget's
 *   elements (not yet in the page), for the props it is mounted with
 * @property {(parts: Parts, props: Record<string, any>, state: Record<string, any>) => void} [fill]
 *   sets the inputs from the state, else the props, else defaults (a link may carry any value)
 * @property {(parts: Parts, state: Record<string, any>) => void} [read] copies the inputs into the
 *   state
 * @property {(parts: Parts, engine: object, state: Record<string, any>,
 *   models: import('./registry.js').LoadedModels) => void} draw draws the figures for the state
 *   with the engine and the declared models, or says why there is nothing to draw
 * @property {(parts: Parts) => void} [clear] stops work in flight and empties the figures
 * @property {(parts: Parts, context: FormContext) => () => void} [wire] adds listeners beyond
 *   `input` (e.g. a button's click) and returns what removes them
 * @property {'frame' | 'after-paint'} [typing] for figures that follow typing: an input draws
 *   once however many arrive before it, at the start of the next animation frame ('frame'), or
 *   once that frame, which shows the keystroke, is painted ('after-paint': a redraw too long to
 *   share the keystroke's frame); the host still hears of each at once. Without it, an input
 *   draws at once.
 */

/**
 * @template {{ root: HTMLElement }} Parts
 * @param {FormSpec<Parts>} spec
 * @returns {import('./registry.js').Widget}
 */
export function formWidget(spec) {
  /** @type {Parts | null} */
  let parts = null;
  let engine = null;
  /** @type {import('./registry.js').LoadedModels} */
  let models = {};
  /** @type {Record<string, any>} */
  let state = {};
  let unwire = () => {};
  let report = stateReporter({});

  // Draws from the state, which holds the inputs as last read.
  const draw = () => {
    if (parts) spec.draw(parts, engine, state, models);
  };
  const frame = frameRedraw(draw, spec.typing);
  // A change the learner made: read once, and the host learns of it before the figure is drawn.
  const changed = () => {
    if (!parts) return;
    spec.read?.(parts, state);
    report(state);
  };
  const onInput = () => {
    changed();
    if (spec.typing) frame.request();
    else frame.now();
  };
  const redraw = () => {
    changed();
    frame.now();
  };
  const apply = (props) => {
    state = props.state ?? {};
    report = stateReporter(props);
    spec.fill?.(parts, props, state);
    spec.read?.(parts, state);
    frame.now();
  };
  /** @type {FormContext} */
  const context = {
    redraw,
    draw: frame.now,
    report: () => report(state),
    state: () => state,
    engine: () => engine,
    models: () => models,
  };

  return {
    mount(el, props, facade) {
      engine = facade;
      models = props.models ?? {};
      parts = spec.build(el.ownerDocument, props);
      el.replaceChildren(parts.root);
      if (spec.read) parts.root.addEventListener('input', onInput);
      unwire = spec.wire?.(parts, context) ?? (() => {});
      apply(props);
    },
    destroy() {
      if (!parts) return;
      parts.root.removeEventListener('input', onInput);
      frame.cancel();
      unwire();
      spec.clear?.(parts);
      parts.root.remove();
      parts = null;
      engine = null;
      models = {};
    },
  };
}
