// Heatmap view: draws values given as plain arrays (weights in [0, 1] by default, or any range) as
// a grid, legend, read-out and table. Small multiples share one legend, read-out and table.
import { el } from './dom.js';
import { buildGrid, cellIndexOf, markRows } from './grid.js';
import { wireKeyboard } from './keyboard.js';
import { buildLegend } from './legend.js';
import { buildReadout, wireReadout } from './readout.js';
import { buildDetails } from './table.js';

export { formatWeight } from './format.js';
export { buildDetails as buildTables } from './table.js';
export { buildLegend } from './legend.js';
export { buildReadout } from './readout.js';

/**
 * @typedef {object} HeatmapData
 * @property {string[]} rowLabels one label per row (the queries)
 * @property {string[]} colLabels one label per column (the keys)
 * @property {ArrayLike<number>} values rows x cols weights, row-major, each in [0, 1]
 * @property {ArrayLike<boolean>} [masked] rows x cols, true where a cell is masked out
 * @property {string} caption one sentence describing the figure
 * @property {string} [rowName] what a row is, e.g. 'query'
 * @property {string} [colName] what a column is, e.g. 'key'
 * @property {string} [valueName] what a value is, 'weight' by default
 * @property {string} [between] the words between a row and a column in a cell's name, ' to ' by
 *   default (' to ' reads 'query “it” to key “cat”'; ', ' reads 'token “it”, feature “3”')
 * @property {[number, number]} [range] the values at the ends of the colour scale, [0, 1] by
 *   default; a range from negative to positive is drawn with a diverging scale
 * @property {string} [title] a short name of the figure (e.g. 'Head 2'), put first in each
 *   cell's description
 * @property {boolean} [compact] smaller cells, no numbers inside them
 * @property {boolean | 'rows'} [labels] false to leave out the axis labels, 'rows' to keep only
 *   the row labels (cells still name them)
 * @property {ArrayLike<boolean>} [unknownRows] per row, true where its token is not in the
 *   vocabulary of word vectors: the label is marked (class "unknown"), and the cells' names, the
 *   read-out and the table say so
 * @property {ArrayLike<boolean>} [unknownCols] the same per column
 * @property {number} [rowHeight] the height of every row in pixels, for a grid that must fit a
 *   height rather than a width (e.g. a matrix of 100 rows in a short tile); the labels shrink to
 *   fit it
 */

/**
 * @typedef {object} HeatmapOptions
 * @property {HTMLElement} [readout] a read-out shared by several heatmaps, instead of their own
 * @property {boolean} [legend] false to leave out the legend (drawn once for small multiples)
 * @property {boolean} [table] false to leave out the table (drawn once for small multiples)
 * @property {(index: number) => void} [onActive] called with the row-major index of the cell the
 *   read-out shows (pointed at, else focused), or -1 when it shows none, after the read-out is
 *   updated: for a figure that explains the active value elsewhere
 */

/** Per-container state kept between renders. */
const states = new WeakMap();
let nextId = 0;

/**
 * Draws (or redraws) the heatmap into a container, replacing what the container held.
 * @param {HTMLElement} container an empty element owned by the heatmap
 * @param {HeatmapData} data the labels and weights to show
 * @param {HeatmapOptions} [options]
 */
export function renderHeatmap(container, data, options = {}) {
  const rows = data.rowLabels.length;
  const cols = data.colLabels.length;
  if (data.values.length !== rows * cols) {
    throw new Error(`heatmap: values has ${data.values.length} entries, expected ${rows}x${cols}`);
  }
  const state = stateFor(container);
  const previous = container.querySelector('details');
  const focusedIndex = indexOfFocusedCell(container);
  state.data = data;
  state.options = options;
  state.width = container.clientWidth;
  state.active = Math.min(state.active, rows * cols - 1);

  const parts = buildParts(container, data, state, options);
  state.grid = parts.grid;
  container.replaceChildren(parts.root);
  if (previous && parts.details) parts.details.open = previous.open;
  if (focusedIndex >= 0 && focusedIndex < rows * cols) parts.cells[focusedIndex].focus();
}

/**
 * Empties the container (for example when there is nothing to show).
 * @param {HTMLElement} container
 */
export function clearHeatmap(container) {
  const state = states.get(container);
  if (state) {
    state.data = null;
    state.grid = null;
  }
  container.replaceChildren();
}

/**
 * Outlines whole rows of the heatmap drawn in the container and marks their labels, for a figure
 * that shows where a value elsewhere comes from; an empty list removes the outlines. A redraw
 * starts with none.
 * @param {HTMLElement} container
 * @param {number[]} rows row indices; those outside the grid are ignored
 */
export function highlightRows(container, rows) {
  const grid = states.get(container)?.grid;
  if (grid) markRows(grid, rows);
}

/**
 * @param {HTMLElement} container
 * @returns {{ id: number, active: number, width: number, data: HeatmapData | null,
 *   options: HeatmapOptions, grid: import('./grid.js').Grid | null }}
 */
function stateFor(container) {
  let state = states.get(container);
  if (!state) {
    state = { id: nextId++, active: 0, width: 0, data: null, options: {}, grid: null };
    states.set(container, state);
    // Lay the grid out again when the space for it changes (phone rotation, window resize).
    if (typeof ResizeObserver === 'function') {
      new ResizeObserver(() => {
        if (state.data && Math.abs(container.clientWidth - state.width) > 8) {
          renderHeatmap(container, state.data, state.options);
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
 * @param {HeatmapOptions} options
 */
function buildParts(container, data, state, options) {
  const doc = container.ownerDocument;
  const root = el(doc, 'div', { class: data.compact ? 'heatmap compact' : 'heatmap' });
  const readout = options.readout ?? buildReadout(doc, `heatmap-readout-${state.id}`);
  if (!readout.id) readout.id = `heatmap-readout-${state.id}`;
  const scroll = el(doc, 'div', { class: 'heatmap-scroll' });
  const grid = buildGrid(doc, data, state, container.clientWidth, readout.id);
  scroll.append(grid.svg);
  const details = options.table === false ? null : buildDetails(doc, data);

  root.append(scroll);
  if (options.legend !== false) root.append(buildLegend(doc, data, state.id));
  if (!options.readout) root.append(readout);
  if (details) root.append(details);
  wireKeyboard(grid.svg, grid.cells, state, data.rowLabels.length, data.colLabels.length);
  wireReadout(grid, readout, data.colLabels.length, options.onActive);
  return { root, details, cells: grid.cells, grid };
}
