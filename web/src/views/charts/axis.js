// Chart axes: the plot area, leaving room for tick labels and titles, and the grid lines, ticks
// and titles themselves, drawn in SVG and hidden from screen readers (the table has the numbers).
import { svgEl } from '../heatmap/dom.js';
import { textWidth } from '../heatmap/labels.js';
import { formatTick } from './format.js';

/** The tick and title font size in pixels; the CSS uses the same. */
export const FONT = 13;

/**
 * @typedef {object} Box where the plot goes inside the SVG (y grows downwards)
 * @property {number} width the whole SVG's width
 * @property {number} height the whole SVG's height
 * @property {number} left
 * @property {number} right
 * @property {number} top
 * @property {number} bottom
 */

/**
 * @typedef {{ at: number, text: string }} Tick a position in pixels and its label
 * @typedef {{ ticks: Tick[], title?: string, grid?: boolean }} AxisSpec
 */

/**
 * The plot area of a chart of the given size, with room on the left for the widest y tick label
 * and the y title, and at the bottom for the x tick labels and the x title.
 * @param {number} width
 * @param {number} height
 * @param {string[]} yTickTexts
 * @param {{ xTitle?: boolean, yTitle?: boolean, xLines?: number }} [room] what needs room
 * @returns {Box}
 */
export function plotBox(width, height, yTickTexts, room = {}) {
  const { xTitle = true, yTitle = true, xLines = 1 } = room;
  const widest = Math.max(0, ...yTickTexts.map((text) => textWidth(text, FONT)));
  const left = Math.ceil(widest) + 10 + (yTitle ? FONT + 10 : 0);
  const bottom = height - 6 - xLines * (FONT + 4) - (xTitle ? FONT + 8 : 0);
  return { width, height, left, right: width - 14, top: 12, bottom };
}

/**
 * Draws both axes: horizontal grid lines at the y ticks, the baseline, the tick labels and the
 * titles.
 * @param {Document} doc
 * @param {Box} box
 * @param {{ x: AxisSpec, y: AxisSpec }} axes
 * @returns {SVGElement}
 */
export function drawAxes(doc, box, { x, y }) {
  const group = svgEl(doc, 'g', { class: 'chart-axes', 'aria-hidden': 'true' });
  for (const tick of y.ticks) {
    if (y.grid !== false) {
      const attrs = { x1: box.left, x2: box.right, y1: tick.at, y2: tick.at };
      group.append(svgEl(doc, 'line', { class: 'chart-grid', ...attrs }));
    }
    const label = { x: box.left - 8, y: tick.at, class: 'chart-tick chart-tick-y' };
    group.append(svgEl(doc, 'text', label, tick.text));
  }
  for (const tick of x.ticks) {
    const mark = { x1: tick.at, x2: tick.at, y1: box.bottom, y2: box.bottom + 5 };
    group.append(svgEl(doc, 'line', { class: 'chart-axis-line', ...mark }));
    const label = { x: tick.at, y: box.bottom + 8, class: 'chart-tick chart-tick-x' };
    group.append(svgEl(doc, 'text', label, tick.text));
  }
  const base = { x1: box.left, x2: box.right, y1: box.bottom, y2: box.bottom };
  group.append(svgEl(doc, 'line', { class: 'chart-axis-line', ...base }));
  if (x.title) {
    const at = { x: (box.left + box.right) / 2, y: box.height - 4, class: 'chart-title-x' };
    group.append(svgEl(doc, 'text', at, x.title));
  }
  if (y.title) {
    const middle = (box.top + box.bottom) / 2;
    const at = { transform: `translate(${FONT} ${middle}) rotate(-90)`, class: 'chart-title-y' };
    group.append(svgEl(doc, 'text', at, y.title));
  }
  return group;
}

/**
 * Ticks at the given values, placed by a scale.
 * @param {number[]} values
 * @param {(value: number) => number} scale
 * @param {(value: number) => string} [format]
 * @returns {Tick[]}
 */
export function ticksAt(values, scale, format = formatTick) {
  return values.map((value) => ({ at: scale(value), text: format(value) }));
}
