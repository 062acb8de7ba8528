// Heatmap legend: the 0-to-1 colour bar with ticks, plus a swatch for masked cells if any.
import { hatchPattern } from './colour.js';
import { el, svgEl } from './dom.js';

const TICKS = ['0', '0.25', '0.5', '0.75', '1'];

/**
 * Builds the colour legend.
 * @param {Document} doc
 * @param {{ masked?: ArrayLike<boolean> }} data
 * @param {number} id the heatmap's number, which keeps the swatch's pattern id unique
 * @returns {HTMLElement}
 */
export function buildLegend(doc, data, id) {
  const legend = el(doc, 'div', { class: 'heatmap-legend' });
  const scale = el(doc, 'div', { class: 'legend-scale' });
  const bar = el(doc, 'div', {
    class: 'legend-bar',
    role: 'img',
    'aria-label': 'Colour scale: from weight 0 to weight 1',
  });
  const ticks = el(doc, 'div', { class: 'legend-ticks', 'aria-hidden': 'true' });
  ticks.append(...TICKS.map((tick) => el(doc, 'span', {}, tick)));
  scale.append(bar, ticks);
  legend.append(el(doc, 'span', { class: 'legend-title' }, 'Weight'), scale);
  if (Array.prototype.some.call(data.masked ?? [], Boolean)) {
    const item = el(doc, 'span', { class: 'legend-masked' });
    const swatch = svgEl(doc, 'svg', { width: 18, height: 18, 'aria-hidden': 'true' });
    const hatchId = `heatmap-legend-hatch-${id}`;
    const rect = svgEl(doc, 'rect', { x: 0.5, y: 0.5, width: 17, height: 17, class: 'swatch' });
    rect.style.fill = `url(#${hatchId})`;
    swatch.append(hatchPattern(doc, hatchId), rect);
    item.append(swatch, doc.createTextNode('masked (weight 0)'));
    legend.append(item);
  }
  return legend;
}
