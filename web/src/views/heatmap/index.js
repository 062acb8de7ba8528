// Heatmap view: draws values given as plain arrays (weights in [0, 1] by default, or any range) as
// a grid, legend, read-out and table. Small multiples share one legend, read-out and table. A grid
// too large for an element per cell is drawn as a picture with one pixel per cell; a redraw of
// the same shape changes the drawing in place; the table is built only while it is open.
import { el } from './dom.js';
import { buildGrid, fillGrid, markRows, releaseGrid } from './grid.js';
import { wireKeyboard } from './keyboard.js';
import { layout, sameBox } from './layout.js';
import { buildLegend, legendKey } from './legend.js';
import { buildReadout, wireReadout } from './readout.js';
import { lazyDetails } from './table.js';

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
 * @property {boolean} [picture] true to draw the cells as a picture (one pixel per cell) at any
 *   size, as a dense grid is: for small multiples that are looked at rather than read cell by
 *   cell (their numbers are read elsewhere), whose hundreds of cell elements would only cost time
 * @property {boolean | 'rows'} [labels] false to leave out the axis labels, 'rows' to keep only
 *   the row labels (cells still name them)
 * @property {ArrayLike<boolean>} [unknownRows] per row, true where its token is not in the
 *   vocabulary of word vectors: the label is marked (class "unknown"), and the cells' names, the
 *   read-out and the table say so
 * @property {ArrayLike<boolean>} [unknownCols] the same per column
 * @property {number} [rowHeight] the height of every row in pixels, for a grid that must fit a
 *   height rather than a width (e.g. a matrix of 100 rows in a short tile); the labels shrink to
 *   fit it
 * @property {string} [maskedText] how a masked cell's value is written in its name, the read-out,
 *   the table, the legend and (when cells show numbers) the cell: '0' by default, e.g. '−∞' for
 *   scores hidden before a softmax
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

/**
 * @typedef {object} Parts what a heatmap keeps around its grid, made once per container
 * @property {HTMLElement} root
 * @property {HTMLElement} scroll holds the grid's SVG
 * @property {HTMLElement} readout its own, or the one shared through the options
 * @property {HTMLElement} live says a picture's keyboard moves to screen readers
 * @property {HTMLElement | null} legend
 * @property {string} legendKey what the legend was drawn from
 * @property {import('./table.js').LazyDetails | null} tables
 * @property {string} key the options the parts were made for
 */

/**
 * @typedef {object} State per container, kept between renders
 * @property {number} id
 * @property {number} active the row-major index of the active cell
 * @property {number} width the container's width at the last render
 * @property {HeatmapData | null} data
 * @property {HeatmapOptions} options
 * @property {Parts | null} parts
 * @property {import('./grid.js').Grid | null} grid
 * @property {import('./readout.js').ReadoutControl | null} control
 */

/** @type {WeakMap<HTMLElement, State>} */
const states = new WeakMap();
/** @type {WeakMap<HTMLElement, import('./table.js').LazyDetails>} */
const tableStates = new WeakMap();
let nextId = 0;

/**
 * Draws (or redraws) the heatmap into a container. A redraw with the same shape, sizes and options
 * updates the drawing in place (focus and the active cell stay); otherwise the grid is made again.
 * @param {HTMLElement} container an element owned by the heatmap
 * @param {HeatmapData} data the labels and weights to show
 * @param {HeatmapOptions} [options]
 */
export function renderHeatmap(container, data, options = {}) {
  draw(container, data, options, container.clientWidth);
}

/**
 * The height, in CSS pixels, that the grid of `data` takes when drawn into a container `width`
 * pixels wide: its picture is scaled down to the container when it is wider. Worked out, not
 * measured, so that a figure that must fit a height can choose a width before drawing.
 * @param {HeatmapData} data
 * @param {number} width
 * @returns {number}
 */
export function gridHeight(data, width) {
  const box = layout(data, width);
  return box.width > width ? (box.height * width) / box.width : box.height;
}

/**
 * Draws several heatmaps (small multiples) as renderHeatmap would, reading the width of every
 * container before drawing any: the browser lays the page out once, not once per heatmap.
 * @param {{ container: HTMLElement, data: HeatmapData, options?: HeatmapOptions }[]} heatmaps
 */
export function renderHeatmaps(heatmaps) {
  const widths = heatmaps.map(({ container }) => container.clientWidth);
  heatmaps.forEach(({ container, data, options }, k) =>
    draw(container, data, options ?? {}, widths[k]),
  );
}

/**
 * @param {HTMLElement} container
 * @param {HeatmapData} data
 * @param {HeatmapOptions} options
 * @param {number} width the container's width in CSS pixels
 */
function draw(container, data, options, width) {
  const rows = data.rowLabels.length;
  const cols = data.colLabels.length;
  if (data.values.length !== rows * cols) {
    throw new Error(`heatmap: values has ${data.values.length} entries, expected ${rows}x${cols}`);
  }
  const state = stateFor(container);
  state.data = data;
  state.options = options;
  state.width = width;
  state.active = Math.max(0, Math.min(state.active, rows * cols - 1));
  const parts = partsFor(container, state, options);
  parts.root.className = data.compact ? 'heatmap compact' : 'heatmap';
  const box = layout(data, state.width);

  const grid = state.grid;
  const same =
    grid !== null &&
    parts.scroll.contains(grid.svg) &&
    grid.nRows === rows &&
    grid.nCols === cols &&
    sameBox(grid.box, box) &&
    Boolean(grid.data.compact) === Boolean(data.compact) &&
    grid.data.labels === data.labels &&
    Boolean(grid.data.picture) === Boolean(data.picture);
  if (same) {
    fillGrid(grid, data);
    markRows(grid, []);
    state.control?.refresh();
  } else {
    const doc = container.ownerDocument;
    const hadFocus = Boolean(grid?.svg.contains(doc.activeElement));
    releaseGrid(grid);
    const made = buildGrid(doc, data, state, box, parts.readout.id, container);
    parts.scroll.replaceChildren(made.svg);
    state.grid = made;
    const control = wireReadout(made, parts.readout, state, made.dense ? parts.live : null);
    state.control = control;
    wireKeyboard(made, state, control.moveTo);
    if (hadFocus) (made.dense ? made.svg : made.cells[state.active]).focus();
  }

  if (parts.legend) {
    const key = legendKey(data);
    if (key !== parts.legendKey) {
      const legend = buildLegend(container.ownerDocument, data, state.id);
      parts.legend.replaceWith(legend);
      parts.legend = legend;
      parts.legendKey = key;
    }
  }
  parts.tables?.show(data);
}

/**
 * Empties the container (for example when there is nothing to show).
 * @param {HTMLElement} container
 */
export function clearHeatmap(container) {
  const state = states.get(container);
  if (state) {
    releaseGrid(state.grid);
    state.data = null;
    state.grid = null;
    state.control = null;
    state.parts = null;
  }
  container.replaceChildren();
}

/**
 * Shows the tables of one heatmap or several in a disclosure kept in the container: made on the
 * first call, its tables built when the learner opens it and, on later calls, rebuilt only while
 * it is open.
 * @param {HTMLElement} container an element owned by the tables
 * @param {HeatmapData | HeatmapData[]} data
 * @param {string} [summary] the disclosure's label, set when it is made
 */
export function renderTables(container, data, summary) {
  let tables = tableStates.get(container);
  if (!tables || !container.contains(tables.details)) {
    tables = lazyDetails(container.ownerDocument, summary);
    tableStates.set(container, tables);
    container.replaceChildren(tables.details);
  }
  tables.show(data);
}

/**
 * Empties a container of tables drawn by renderTables.
 * @param {HTMLElement} container
 */
export function clearTables(container) {
  tableStates.delete(container);
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
 * @returns {State}
 */
function stateFor(container) {
  let state = states.get(container);
  if (!state) {
    state = {
      ...{ id: nextId++, active: 0, width: 0, data: null, options: {} },
      ...{ parts: null, grid: null, control: null },
    };
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
 * The heatmap's parts in the container, made again when the options ask for other ones (or the
 * container lost them).
 * @param {HTMLElement} container
 * @param {State} state
 * @param {HeatmapOptions} options
 * @returns {Parts}
 */
function partsFor(container, state, options) {
  const key = `${options.legend !== false}/${options.table !== false}`;
  const old = state.parts;
  if (old && old.key === key && container.contains(old.root)) {
    if (options.readout === old.readout || (!options.readout && old.root.contains(old.readout))) {
      return old;
    }
  }
  releaseGrid(state.grid);
  state.grid = null;
  state.control = null;
  const doc = container.ownerDocument;
  const root = el(doc, 'div', { class: 'heatmap' });
  const readout = options.readout ?? buildReadout(doc, `heatmap-readout-${state.id}`);
  if (!readout.id) readout.id = `heatmap-readout-${state.id}`;
  const scroll = el(doc, 'div', { class: 'heatmap-scroll' });
  const live = el(doc, 'p', { class: 'visually-hidden heatmap-live', 'aria-live': 'polite' });
  const legend = options.legend === false ? null : el(doc, 'div');
  const tables = options.table === false ? null : lazyDetails(doc);
  root.append(scroll);
  if (legend) root.append(legend);
  if (!options.readout) root.append(readout);
  root.append(live);
  if (tables) root.append(tables.details);
  container.replaceChildren(root);
  const parts = { root, scroll, readout, live, legend, legendKey: '', tables, key };
  state.parts = parts;
  return parts;
}
