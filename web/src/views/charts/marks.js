// How a series looks, so that it reads without colour too: the first series is solid blue with
// round markers, the second dashed orange with square markers (or hatched, for areas); a line
// chart's third is dotted green with triangles, its fourth dash-dotted purple with diamonds. The
// colours are CSS custom properties (styles/charts.css), one set for light and one for dark.
import { svgEl } from '../heatmap/dom.js';

/** How many series look different; the next one looks like the first again. */
const STYLES = 4;

/**
 * The class every element of series i carries: `series-0` to `series-3`.
 * @param {number} i
 * @returns {string}
 */
export function seriesClass(i) {
  return `series-${i % STYLES}`;
}

/**
 * A point marker: a circle for the first series, a square for the second, a triangle for the
 * third, a diamond for the fourth.
 * @param {Document} doc
 * @param {number} i the series
 * @param {number} x
 * @param {number} y
 * @param {number} [r] the half-size
 * @returns {SVGElement}
 */
export function marker(doc, i, x, y, r = 4) {
  const className = `chart-marker ${seriesClass(i)}`;
  const style = i % STYLES;
  if (style === 0) return svgEl(doc, 'circle', { class: className, cx: x, cy: y, r });
  if (style >= 2) {
    const k = r * 1.25;
    const points =
      style === 2
        ? [`${x},${y - k}`, `${x + k},${y + k * 0.8}`, `${x - k},${y + k * 0.8}`]
        : [`${x},${y - k}`, `${x + k},${y}`, `${x},${y + k}`, `${x - k},${y}`];
    return svgEl(doc, 'polygon', { class: className, points: points.join(' ') });
  }
  const side = r * 1.8;
  const at = { x: x - side / 2, y: y - side / 2, width: side, height: side };
  return svgEl(doc, 'rect', { class: className, ...at });
}

/**
 * A <defs> with the diagonal hatch that fills the second series' areas, as `url(#id)`.
 * @param {Document} doc
 * @param {string} id unique in the page
 * @returns {SVGElement}
 */
export function hatchDefs(doc, id) {
  const defs = svgEl(doc, 'defs');
  const pattern = svgEl(doc, 'pattern', {
    id,
    width: 5,
    height: 5,
    patternUnits: 'userSpaceOnUse',
    patternTransform: 'rotate(45)',
  });
  pattern.append(svgEl(doc, 'line', { x1: 0, y1: 0, x2: 0, y2: 5, class: 'chart-hatch' }));
  defs.append(pattern);
  return defs;
}

/**
 * Gives an area of series i its fill: the first series' fill comes from CSS, the second is the
 * hatch (a presentation attribute, which the CSS leaves alone).
 * @param {SVGElement} area
 * @param {number} i
 * @param {string} hatchId
 * @returns {SVGElement}
 */
export function fillArea(area, i, hatchId) {
  area.classList.add('chart-area', seriesClass(i));
  if (i % 2 === 1) area.setAttribute('fill', `url(#${hatchId})`);
  return area;
}
