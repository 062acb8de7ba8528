// Shows one slide's figure in a page of its own layout, outside the deck: the article mounts
// every figure this way, the embed page one. The chosen view's widget is mounted into the host;
// choosing another view in the figure's choice (figure-views.js) swaps it, and the line naming
// its model with it; each view keeps the state its widget last handed back (onState,
// widgets/shared/registry.js), so its inputs survive the switch.
import { showChosen, showModel } from './figure-views.js';
import { placeWidget } from '../widgets/shared/host.js';

/**
 * @typedef {import('./figure-views.js').FigureView} FigureView
 * @typedef {object} ShownFigure
 * @property {() => FigureView} view the view shown
 * @property {() => Record<string, unknown>} settings the shown view's state: what the learner
 *   set, as a figure link carries it
 */

/**
 * Mounts a view of a figure into `host`, and another when the learner chooses it.
 * @param {Element} scope holds the figure's choice of views (`.figure-views`), if it has one, and
 *   its model line (`.figure-model`)
 * @param {HTMLElement} host the figure's widget host
 * @param {FigureView[]} views
 * @param {{ view?: string | null, settings?: Record<string, unknown>, onChange?: () => void }}
 *   [start] the view to show first (the first view when it names none of them), the settings it
 *   starts from, and what to call when the learner changes the figure (its state or its view)
 * @returns {ShownFigure}
 */
export function showFigure(scope, host, views, start = {}) {
  let view = views.find((candidate) => candidate.type === start.view) ?? views[0];
  const onChange = start.onChange ?? (() => {});
  /** @type {Map<string, Record<string, unknown>>} */
  const states = new Map(views.map((candidate) => [candidate.type, {}]));
  states.set(view.type, { ...start.settings });
  /** Per view: the place (host.js) its widget's runs are kept by. */
  const places = new Map(views.map((candidate) => [candidate.type, {}]));
  const choice = scope.querySelector('.figure-views');
  showChosen(choice, view.type);
  const mount = () => {
    for (const other of views) host.classList.remove(`widget-${other.type}`);
    host.classList.add(`widget-${view.type}`);
    host.dataset.widget = view.type;
    showModel(scope, view);
    const { type } = view;
    const state = /** @type {Record<string, unknown>} */ (states.get(type));
    const onState = (/** @type {Record<string, unknown>} */ next) => {
      states.set(type, next);
      onChange();
    };
    const place = places.get(type) ?? {};
    return placeWidget(host, { type, props: view.props }, { state, place, onState });
  };
  let placed = mount();
  choice?.addEventListener('change', (event) => {
    const input = /** @type {HTMLInputElement} */ (event.target);
    const next = views.find((candidate) => candidate.type === input.value);
    if (!next || next === view) return;
    placed.destroy();
    view = next;
    placed = mount();
    onChange();
  });
  return {
    view: () => view,
    settings: () => /** @type {Record<string, unknown>} */ (states.get(view.type)),
  };
}
