// Heatmap fills: the colour scales (weights, signed values) and the hatch for masked cells.
import { svgEl } from './dom.js';

/**
 * The cell colour for a value: a three-stop scale whose stops are CSS custom properties, so the
 * light and dark colour schemes each get their own palette. A range that spans 0 uses the
 * diverging scale (negative, 0, positive); any other range the sequential one (low to high).
 * @param {number} value clamped to the range
 * @param {[number, number]} [range] the values at the two ends of the scale; [0, 1] by default
 * @returns {string} a CSS colour
 */
export function heatColour(value, range = [0, 1]) {
  const [lo, hi] = range;
  const t = Math.min(1, Math.max(0, (value - lo) / (hi - lo || 1)));
  const [low, mid, high] = isDiverging(range)
    ? ['--div-neg', '--div-mid', '--div-pos']
    : ['--heat-0', '--heat-1', '--heat-2'];
  if (t <= 0.5) return `color-mix(in oklab, var(${mid}) ${(t * 200).toFixed(1)}%, var(${low}))`;
  return `color-mix(in oklab, var(${high}) ${((t - 0.5) * 200).toFixed(1)}%, var(${mid}))`;
}

/**
 * @param {[number, number]} [range]
 * @returns {boolean} whether the range has negative and positive ends, drawn with 0 in the middle
 */
export function isDiverging(range = [0, 1]) {
  return range[0] < 0 && range[1] > 0;
}

/**
 * A <defs> holding a diagonal hatch pattern, used to fill masked cells as `url(#id)`.
 * @param {Document} doc
 * @param {string} id the pattern's id, unique in the page
 * @returns {SVGElement}
 */
export function hatchPattern(doc, id) {
  const defs = svgEl(doc, 'defs');
  const pattern = svgEl(doc, 'pattern', {
    id,
    width: 6,
    height: 6,
    patternUnits: 'userSpaceOnUse',
    patternTransform: 'rotate(45)',
  });
  pattern.append(
    svgEl(doc, 'rect', { width: 6, height: 6, class: 'hatch-bg' }),
    svgEl(doc, 'line', { x1: 0, y1: 0, x2: 0, y2: 6, class: 'hatch-line' }),
  );
  defs.append(pattern);
  return defs;
}
