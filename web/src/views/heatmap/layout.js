// Heatmap layout: the cell size, label room and font sizes that fit the grid to the space it has.
import { shortLabel, textWidth } from './labels.js';

const MAX_LABEL_PX = 120;
const MIN_CELL = 14;
const MAX_CELL = 48;
const SLANT_MIN_CELL = 26;
// Compact grids (small multiples, wide matrices): smaller cells and labels, no numbers in cells.
const COMPACT_MIN_CELL = 2;
const COMPACT_MAX_CELL = 24;
// Column label spacing when the columns are too narrow for one label each.
const LABEL_STEPS = [1, 2, 5, 10, 20, 25, 50, 100];
// Past this many cells a grid is drawn as a picture (one pixel per cell) rather than one focusable
// element per cell: a 32 x 32 grid still has an element per cell, a 33 x 33 one does not.
const DENSE_CELLS = 1024;
// Cells under this size (in pixels) both ways are dots too small to point at one by one.
const DENSE_SIDE = 6;

/**
 * @typedef {object} Box
 * @property {number} font the label font size in pixels
 * @property {number} angle the column labels' rotation in degrees (-45 or -90)
 * @property {number} cell the width of a cell (its side, unless rows are taller)
 * @property {number} rowHeight the height of a cell: the data's rowHeight when it sets one, else
 *   a compact grid with labels keeps its rows tall enough for a label even when its columns are
 *   narrow
 * @property {number} colStep every how many columns a label is drawn (1: all)
 * @property {number} left where the first column starts
 * @property {number} top where the first row starts
 * @property {number} width the whole SVG's width
 * @property {number} height the whole SVG's height
 * @property {number} valueFont the font size of the numbers in the cells (0: none drawn)
 */

/**
 * Chooses sizes so the grid fits the available width when it can.
 * @param {{ rowLabels: string[], colLabels: string[], compact?: boolean,
 *   labels?: boolean | 'rows', rowHeight?: number }} data
 * @param {number} available width in CSS pixels (0 when unknown)
 * @returns {Box}
 */
export function layout(data, available) {
  const rows = data.rowLabels.length;
  const cols = data.colLabels.length;
  const [minCell, maxCell] = data.compact
    ? [COMPACT_MIN_CELL, COMPACT_MAX_CELL]
    : [MIN_CELL, MAX_CELL];
  // Compact grids thin out their column labels, so only their rows can crowd the labels.
  // A fixed row height shrinks the labels to fit it (to 8px at least).
  const fixed = data.rowHeight > 0 ? data.rowHeight : 0;
  const natural = Math.max(rows, data.compact ? 0 : cols) > 24 ? 11 : 13;
  const font = fixed ? Math.max(8, Math.min(natural, fixed - 2)) : natural;
  const noColumns = data.labels === false || data.labels === 'rows';
  const widest = (labels) =>
    Math.min(MAX_LABEL_PX, Math.max(0, ...labels.map((l) => textWidth(shortLabel(l), font))));
  const rowLabelWidth = data.labels === false ? 2 : Math.ceil(widest(data.rowLabels)) + 12;
  const colLabelWidth = noColumns ? 0 : widest(data.colLabels);
  const fit = (overhang) => {
    const spare = available > 0 ? available - rowLabelWidth - overhang - 4 : maxCell * cols;
    // Compact cells may be a fraction of a pixel wider, so that wide matrices still fit.
    const step = data.compact ? 4 : 1;
    return Math.max(minCell, Math.min(maxCell, Math.floor((spare / cols) * step) / step));
  };
  // Column labels slant at 45 degrees; when the cells get too narrow for that, they stand upright.
  let angle = -45;
  let overhang = Math.SQRT1_2 * colLabelWidth;
  let cell = fit(overhang);
  if (cell < SLANT_MIN_CELL) {
    angle = -90;
    overhang = font / 2;
    cell = fit(overhang);
  }
  const rise = angle === -90 ? colLabelWidth : Math.SQRT1_2 * colLabelWidth;
  const top = noColumns ? 2 : Math.ceil(rise + font) + 8;
  const right = Math.max(4, Math.ceil(overhang - cell / 2) + 4);
  const rowHeight = fixed || (data.labels === false ? cell : Math.max(cell, font + 4));
  const valueFont = data.compact ? 0 : cell >= 40 ? 12 : cell >= 32 ? 10.5 : 0;
  return {
    font,
    angle,
    cell,
    rowHeight,
    colStep: data.compact ? (LABEL_STEPS.find((step) => step * cell >= 1.6 * font) ?? cols) : 1,
    left: rowLabelWidth,
    top,
    width: rowLabelWidth + cols * cell + right,
    height: top + rows * rowHeight + 2,
    // Numbers only in cells tall enough for them.
    valueFont: rowHeight >= valueFont + 4 ? valueFont : 0,
  };
}

/**
 * The x of column j's left edge; j + 0.5 gives its centre.
 * @param {Box} box
 * @param {number} j
 * @returns {number}
 */
export function colX(box, j) {
  return box.left + j * box.cell;
}

/**
 * The y of row i's top edge; i + 0.5 gives its centre.
 * @param {Box} box
 * @param {number} i
 * @returns {number}
 */
export function rowY(box, i) {
  return box.top + i * box.rowHeight;
}

/**
 * Whether a grid is drawn as a picture with one pixel per cell (and read with the pointer or the
 * arrow keys, and in its table), rather than as one focusable element per cell: when it has more
 * than DENSE_CELLS cells, or its cells are smaller than DENSE_SIDE pixels both ways, or the data
 * asks for a picture.
 * @param {Box} box
 * @param {number} rows
 * @param {number} cols
 * @param {boolean} [picture] the data's `picture`
 * @returns {boolean}
 */
export function isDense(box, rows, cols, picture = false) {
  return picture || rows * cols > DENSE_CELLS || Math.max(box.cell, box.rowHeight) < DENSE_SIDE;
}

/**
 * @param {Box} a
 * @param {Box} b
 * @returns {boolean} whether the two boxes give the same sizes
 */
export function sameBox(a, b) {
  return Object.keys(a).every((key) => a[key] === b[key]);
}
