// Heatmap view: draws weights in [0, 1], given as plain arrays, as a grid, legend, read-out, table.
import { el } from './dom.js';
import { buildGrid, cellIndexOf } from './grid.js';
import { wireKeyboard } from './keyboard.js';
import { buildLegend } from './legend.js';
import { buildReadout, wireReadout } from './readout.js';
import { buildDetails } from './table.js';

export { formatWeight } from './format.js';

/**
 * @typedef {object} HeatmapData
 * @property {string[]} rowLabels one label per row (the queries)
 * @property {string[]} colLabels one label per column (the keys)
 * @property {ArrayLike<number>} values rows x cols weights, row-major, each in [0, 1]
 * @property {ArrayLike<boolean>} [masked] rows x cols, true where a cell is masked out
 * @property {string} caption one sentence describing the figure
 * @property {string} [rowName] what a row is, e.g. 'query'
 * @property {string} [colName] what a column is, e.g. 'key'
 */

/** Per-container state kept between renders. */
const states = new WeakMap();
let nextId = 0;

/**
 * Draws (or redraws) the heatmap into a container, replacing what the container held.
 * @param {HTMLElement} container an empty element owned by the heatmap
 * @param {HeatmapData} data the labels and weights to show
 */
export function renderHeatmap(container, data) {
  const rows = data.rowLabels.length;
  const cols = data.colLabels.length;
  if (data.values.length !== rows * cols) {
    throw new Error(`heatmap: values has ${data.values.length} entries, expected ${rows}x${cols}`);
  }
  const state = stateFor(container);
  const previous = container.querySelector('details');
  const focusedIndex = indexOfFocusedCell(container);
  state.data = data;
  state.width = container.clientWidth;
  state.active = Math.min(state.active, rows * cols - 1);

  const parts = buildParts(container, data, state);
  container.replaceChildren(parts.root);
  if (previous) parts.details.open = previous.open;
  if (focusedIndex >= 0 && focusedIndex < rows * cols) parts.cells[focusedIndex].focus();
}

/**
 * Empties the container (for example when there is nothing to show).
 * @param {HTMLElement} container
 */
export function clearHeatmap(container) {
  const state = states.get(container);
  if (state) state.data = null;
  container.replaceChildren();
}

/**
 * @param {HTMLElement} container
 * @returns {{ id: number, active: number, width: number, data: HeatmapData | null }}
 */
function stateFor(container) {
  let state = states.get(container);
  if (!state) {
    state = { id: nextId++, active: 0, width: 0, data: null };
    states.set(container, state);
    // Lay the grid out again when the space for it changes (phone rotation, window resize).
    if (typeof ResizeObserver === 'function') {
      new ResizeObserver(() => {
        if (state.data && Math.abs(container.clientWidth - state.width) > 8) {
          renderHeatmap(container, state.data);
        }
      }).observe(container);
    }
  }
  return state;
}

/**
 * @param {HTMLElement} container
 * @returns {number} the index of the focused cell, or -1
 */
function indexOfFocusedCell(container) {
  const active = container.ownerDocument.activeElement;
  return active && container.contains(active) ? cellIndexOf(active) : -1;
}

/**
 * @param {HTMLElement} container
 * @param {HeatmapData} data
 * @param {{ id: number, active: number }} state
 */
function buildParts(container, data, state) {
  const doc = container.ownerDocument;
  const root = el(doc, 'div', { class: 'heatmap' });
  const readoutId = `heatmap-readout-${state.id}`;
  const readout = buildReadout(doc, readoutId);
  const scroll = el(doc, 'div', { class: 'heatmap-scroll' });
  const grid = buildGrid(doc, data, state, container.clientWidth, readoutId);
  scroll.append(grid.svg);
  const details = buildDetails(doc, data);

  root.append(scroll, buildLegend(doc, data, state.id), readout, details);
  wireKeyboard(grid.svg, grid.cells, state, data.rowLabels.length, data.colLabels.length);
  wireReadout(grid, readout, data.colLabels.length);
  return { root, details, cells: grid.cells };
}
