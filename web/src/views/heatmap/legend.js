// Heatmap legend: the colour bar with ticks (0 to 1 for weights, or the figure's own range), plus
// a swatch for masked cells if any.
import { hatchPattern, isDiverging } from './colour.js';
import { el, svgEl } from './dom.js';
import { axisNames, tickText } from './format.js';

const TICKS = ['0', '0.25', '0.5', '0.75', '1'];

/**
 * Builds the colour legend.
 * @param {Document} doc
 * @param {{ masked?: ArrayLike<boolean>, range?: [number, number], valueName?: string,
 *   maskedText?: string }} data
 * @param {number} id the heatmap's number, which keeps the swatch's pattern id unique
 * @returns {HTMLElement}
 */
export function buildLegend(doc, data, id) {
  const { valueName, maskedText } = axisNames(data);
  const [lo, hi] = data.range ?? [0, 1];
  const isDefault = lo === 0 && hi === 1;
  const legend = el(doc, 'div', { class: 'heatmap-legend' });
  const scale = el(doc, 'div', { class: 'legend-scale' });
  const bar = el(doc, 'div', {
    class: isDiverging(data.range) ? 'legend-bar diverging' : 'legend-bar',
    role: 'img',
    'aria-label': `Colour scale: from ${valueName} ${tickText(lo)} to ${valueName} ${tickText(hi)}`,
  });
  const ticks = el(doc, 'div', { class: 'legend-ticks', 'aria-hidden': 'true' });
  const labels = isDefault ? TICKS : [lo, (lo + hi) / 2, hi].map(tickText);
  ticks.append(...labels.map((tick) => el(doc, 'span', {}, tick)));
  scale.append(bar, ticks);
  const title = valueName.charAt(0).toUpperCase() + valueName.slice(1);
  legend.append(el(doc, 'span', { class: 'legend-title' }, title), scale);
  if (Array.prototype.some.call(data.masked ?? [], Boolean)) {
    const item = el(doc, 'span', { class: 'legend-masked' });
    const swatch = svgEl(doc, 'svg', { width: 18, height: 18, 'aria-hidden': 'true' });
    const hatchId = `heatmap-legend-hatch-${id}`;
    const rect = svgEl(doc, 'rect', { x: 0.5, y: 0.5, width: 17, height: 17, class: 'swatch' });
    rect.style.fill = `url(#${hatchId})`;
    swatch.append(hatchPattern(doc, hatchId), rect);
    item.append(swatch, doc.createTextNode(`masked (${valueName} ${maskedText})`));
    legend.append(item);
  }
  return legend;
}

/**
 * What the legend depends on: two data with the same key draw the same legend.
 * @param {{ masked?: ArrayLike<boolean>, range?: [number, number], valueName?: string,
 *   maskedText?: string }} data
 * @returns {string}
 */
export function legendKey(data) {
  const masked = Array.prototype.some.call(data.masked ?? [], Boolean);
  return JSON.stringify([data.range ?? [0, 1], axisNames(data), masked]);
}
