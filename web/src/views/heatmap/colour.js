// Heatmap fills: the colour scale for weights and the diagonal hatch for masked cells.
import { svgEl } from './dom.js';

/**
 * The cell colour for a weight: a three-stop scale whose stops are CSS custom properties, so the
 * light and dark colour schemes each get their own palette.
 * @param {number} value a weight, clamped to [0, 1]
 * @returns {string} a CSS colour
 */
export function heatColour(value) {
  const t = Math.min(1, Math.max(0, value));
  if (t <= 0.5) return `color-mix(in oklab, var(--heat-1) ${(t * 200).toFixed(1)}%, var(--heat-0))`;
  return `color-mix(in oklab, var(--heat-2) ${((t - 0.5) * 200).toFixed(1)}%, var(--heat-1))`;
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
