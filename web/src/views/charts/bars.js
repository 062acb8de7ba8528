// Bar chart view: one labelled bar per value, e.g. attention weights that add up to 1, with the
// value written over each bar when there is room.
import { svgEl } from '../heatmap/dom.js';
import { shortLabel, textWidth } from '../heatmap/labels.js';
import { FONT, drawAxes, plotBox, ticksAt } from './axis.js';
import { formatNumber } from './format.js';
import { renderChart } from './frame.js';
import { bands, linearScale } from './scale.js';
import { linearTicks, niceDomain } from './ticks.js';

export { clearChart as clearBars } from './frame.js';

/**
 * @typedef {object} BarsData
 * @property {string} caption one sentence saying what the chart shows
 * @property {string[]} labels one per bar
 * @property {number[]} values one per bar
 * @property {string} [labelName] what a label is, e.g. 'key' (default 'bar')
 * @property {string} [valueName] what a value is, e.g. 'weight' (default 'value')
 * @property {[number, number]} [domain] the value range (default: round numbers from 0)
 * @property {(value: number) => string} [format] how values are written (3 significant figures)
 * @property {number} [height] in pixels (default 200)
 */

/**
 * Draws (or redraws) the bars into a container, replacing what it held.
 * @param {HTMLElement} container
 * @param {BarsData} data
 */
export function renderBars(container, data) {
  if (data.labels.length !== data.values.length) {
    throw new Error(`bars: ${data.labels.length} labels for ${data.values.length} values`);
  }
  const format = data.format ?? ((value) => formatNumber(value));
  const labelName = data.labelName ?? 'bar';
  const valueName = data.valueName ?? 'value';
  const domain =
    data.domain ?? niceDomain(Math.min(0, ...data.values), Math.max(0, ...data.values));
  const yTicks = linearTicks(domain[0], domain[1]);
  const height = data.height ?? 200;
  const describe = (i) =>
    `${labelName} \u201c${data.labels[i]}\u201d: ${valueName} ${format(data.values[i])}`;

  renderChart(container, {
    kind: 'bars',
    caption: data.caption,
    height,
    legend: [],
    hint: 'Point at a bar, or Tab in and use the arrow keys, to read it.',
    table: {
      caption: data.caption,
      columns: [labelName, valueName],
      rows: data.labels.map((label, i) => ({
        head: label,
        cells: [{ text: format(data.values[i]), value: data.values[i] }],
      })),
    },
    draw(doc, width) {
      const box = plotBox(width, height, yTicks.map(formatNumber), { xTitle: false });
      const y = linearScale(domain, [box.bottom, box.top]);
      const slots = bands(data.labels.length, [box.left, box.right]);
      const axes = drawAxes(doc, box, { x: { ticks: [] }, y: { ticks: ticksAt(yTicks, y) } });
      const group = svgEl(doc, 'g', { class: 'chart-series', 'aria-hidden': 'true' });
      const zero = y(Math.max(domain[0], Math.min(domain[1], 0)));
      data.values.forEach((value, i) => {
        const { start, width: w, step } = slots[i];
        const top = Math.min(zero, y(value));
        const bar = { x: start, y: top, width: w, height: Math.abs(y(value) - zero) };
        group.append(svgEl(doc, 'rect', { class: 'chart-bar series-0', ...bar }));
        const centre = start + w / 2;
        const label = fitLabel(data.labels[i], step);
        const text = svgEl(doc, 'text', {
          class: 'chart-tick chart-tick-x',
          x: centre,
          y: box.bottom + 8,
        });
        text.textContent = label;
        if (label !== data.labels[i]) text.append(svgEl(doc, 'title', {}, data.labels[i]));
        group.append(text);
        if (step >= 34) {
          const at = { class: 'chart-value', x: centre, y: top - 5 };
          group.append(svgEl(doc, 'text', at, format(value)));
        }
      });
      const stops = slots.map((slot, i) => ({
        x0: slot.start - (slot.step - slot.width) / 2,
        x1: slot.start + slot.width + (slot.step - slot.width) / 2,
        label: describe(i),
      }));
      return { box, nodes: [axes, group], stops };
    },
  });
}

/**
 * The label, shortened with an ellipsis until it fits in a band of the given width.
 * @param {string} label
 * @param {number} room in pixels
 * @returns {string}
 */
function fitLabel(label, room) {
  let text = shortLabel(label);
  const chars = Array.from(text);
  while (chars.length > 1 && textWidth(text, FONT) > room - 4) {
    chars.splice(-2, 2, '\u2026');
    text = chars.join('');
  }
  return text;
}
