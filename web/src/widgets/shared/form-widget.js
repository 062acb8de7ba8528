// The lifecycle most figure widgets share. On mount: build the elements, put them in the page,
// fill the inputs from the kept state (else the props, else the widget's defaults) and draw. On
// every input inside the widget: copy the inputs into the state and draw again. On destroy: stop,
// clear the figures and take the elements out. A widget supplies only those steps.

/**
 * @typedef {object} FormContext what a widget's extra listeners may use
 * @property {() => void} redraw reads the inputs into the state and draws
 * @property {() => Record<string, any>} state the state kept across mounts
 * @property {() => object} engine the engine facade
 */

/**
 * @template {{ root: HTMLElement }} Parts
 * @typedef {object} FormSpec
 * @property {(doc: Document, props: Record<string, any>) => Parts} build makes the widget's
 *   elements (not yet in the page), for the props it is mounted with
 * @property {(parts: Parts, props: Record<string, any>, state: Record<string, any>) => void} fill
 *   sets the inputs from the state, else the props, else defaults (a link may carry any value)
 * @property {(parts: Parts, state: Record<string, any>) => void} read copies the inputs into the
 *   state
 * @property {(parts: Parts, engine: object, state: Record<string, any>) => void} draw draws the
 *   figures for the state, or says why there is nothing to draw
 * @property {(parts: Parts) => void} [clear] stops work in flight and empties the figures
 * @property {(parts: Parts, context: FormContext) => () => void} [wire] adds listeners beyond
 *   `input` (e.g. a button's click) and returns what removes them
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
  /** @type {Record<string, any>} */
  let state = {};
  let unwire = () => {};

  const redraw = () => {
    if (!parts) return;
    spec.read(parts, state);
    spec.draw(parts, engine, state);
  };
  const apply = (props) => {
    state = props.state ?? {};
    spec.fill(parts, props, state);
    redraw();
  };
  /** @type {FormContext} */
  const context = { redraw, state: () => state, engine: () => engine };

  return {
    mount(el, props, facade) {
      engine = facade;
      parts = spec.build(el.ownerDocument, props);
      el.replaceChildren(parts.root);
      parts.root.addEventListener('input', redraw);
      unwire = spec.wire?.(parts, context) ?? (() => {});
      apply(props);
    },
    update(props) {
      if (parts) apply(props);
    },
    destroy() {
      if (!parts) return;
      parts.root.removeEventListener('input', redraw);
      unwire();
      spec.clear?.(parts);
      parts.root.remove();
      parts = null;
      engine = null;
    },
  };
}
