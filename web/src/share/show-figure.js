// Shows one slide's figure in a page of its own layout, outside the deck: the article mounts
// every figure this way, the embed page one. The chosen view's widget is mounted into the host;
// choosing another view in the figure's choice (figure-views.js) swaps it, and each view keeps
// its state object, so its inputs survive the switch.
import { showChosen } from './figure-views.js';
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
 * @param {Element} scope holds the figure's choice of views (`.figure-views`), if it has one
 * @param {HTMLElement} host the figure's widget host
 * @param {FigureView[]} views
 * @param {{ view?: string | null, settings?: Record<string, unknown> }} [start] the view to show
 *   first (the first view when it names none of them) and the settings it starts from
 * @returns {ShownFigure}
 */
export function showFigure(scope, host, views, start = {}) {
  let view = views.find((candidate) => candidate.type === start.view) ?? views[0];
  /** @type {Map<string, Record<string, unknown>>} */
  const states = new Map(views.map((candidate) => [candidate.type, {}]));
  states.set(view.type, { ...start.settings });
  const choice = scope.querySelector('.figure-views');
  showChosen(choice, view.type);
  const mount = () => {
    for (const other of views) host.classList.remove(`widget-${other.type}`);
    host.classList.add(`widget-${view.type}`);
    host.dataset.widget = view.type;
    const state = /** @type {Record<string, unknown>} */ (states.get(view.type));
    return placeWidget(host, { type: view.type, props: view.props }, state);
  };
  let placed = mount();
  choice?.addEventListener('change', (event) => {
    const input = /** @type {HTMLInputElement} */ (event.target);
    const next = views.find((candidate) => candidate.type === input.value);
    if (!next || next === view) return;
    placed.destroy();
    view = next;
    placed = mount();
  });
  return {
    view: () => view,
    settings: () => /** @type {Record<string, unknown>} */ (states.get(view.type)),
  };
}
