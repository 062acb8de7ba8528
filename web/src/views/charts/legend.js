// Chart legend: one entry per series, each with a swatch drawn as the series is (colour, dash,
// marker or hatch), shown only when there is more than one series.
import { el, svgEl } from '../heatmap/dom.js';
import { fillArea, hatchDefs, marker, seriesClass } from './marks.js';

/**
 * @typedef {{ name: string, shape: 'area' | 'line', detail?: string }} LegendEntry a series, and
 *   an optional detail written after its name (e.g. a measured value)
 */

/**
 * The legend list, or null for a single series.
 * @param {Document} doc
 * @param {LegendEntry[]} entries
 * @param {string} hatchId a unique id for the swatch's own hatch pattern
 * @returns {HTMLElement | null}
 */
export function buildLegend(doc, entries, hatchId) {
  if (entries.length < 2) return null;
  const list = el(doc, 'ul', { class: 'chart-legend', 'aria-label': 'Legend' });
  entries.forEach((entry, i) => {
    const item = el(doc, 'li', { class: 'chart-legend-item' });
    const swatch = svgEl(doc, 'svg', {
      class: 'chart-swatch',
      width: 30,
      height: 14,
      viewBox: '0 0 30 14',
      'aria-hidden': 'true',
    });
    if (entry.shape === 'area') {
      const id = `${hatchId}-${i}`;
      const rect = svgEl(doc, 'rect', { x: 1, y: 1, width: 28, height: 12 });
      swatch.append(hatchDefs(doc, id), fillArea(rect, i, id));
    } else {
      const line = svgEl(doc, 'line', { x1: 1, x2: 29, y1: 7, y2: 7 });
      line.classList.add('chart-line', seriesClass(i));
      swatch.append(line, marker(doc, i, 15, 7));
    }
    item.append(swatch, el(doc, 'span', {}, entry.name));
    if (entry.detail) item.append(el(doc, 'span', { class: 'chart-legend-detail' }, entry.detail));
    list.append(item);
  });
  return list;
}
