// Chart scales: d3-scale's linear, base-10 logarithmic and band scales, with what the charts add:
// a log scale refuses a domain it cannot draw instead of mapping it to NaN.
import { scaleBand, scaleLinear, scaleLog } from 'd3-scale';

/**
 * @typedef {(value: number) => number} Scale
 */

/**
 * A linear map taking domain[0] to range[0] and domain[1] to range[1]; a domain of zero width
 * maps everything to the middle of the range.
 * @param {[number, number]} domain
 * @param {[number, number]} range
 * @returns {Scale}
 */
export function linearScale(domain, range) {
  return scaleLinear(domain, range);
}

/**
 * A base-10 logarithmic map: equal ratios get equal distances.
 * @param {[number, number]} domain both > 0
 * @param {[number, number]} range
 * @returns {Scale}
 */
export function logScale([d0, d1], range) {
  if (!(d0 > 0 && d1 > 0))
    throw new Error(`log scale: the domain must be positive, got ${d0}, ${d1}`);
  return scaleLog([d0, d1], range);
}

/**
 * @param {[number, number]} domain
 * @param {[number, number]} range
 * @param {boolean} [log]
 * @returns {Scale}
 */
export function makeScale(domain, range, log = false) {
  return log ? logScale(domain, range) : linearScale(domain, range);
}

/**
 * Splits [start, end] into n equal bands with a gap between neighbours, as for bars: d3's band
 * scale with half a gap at each end, so every band is centred in its step.
 * @param {number} n how many bands
 * @param {[number, number]} range
 * @param {number} [gap] the share of each band's step left empty, 0 to 1
 * @returns {{ start: number, width: number, step: number }[]} each band's left edge and width
 */
export function bands(n, range, gap = 0.25) {
  const indices = Array.from({ length: n }, (_, i) => i);
  const band = scaleBand(indices, range)
    .paddingInner(gap)
    .paddingOuter(gap / 2);
  const [width, step] = [band.bandwidth(), band.step()];
  return indices.map((i) => ({ start: /** @type {number} */ (band(i)), width, step }));
}
