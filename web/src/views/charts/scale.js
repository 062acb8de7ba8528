// Chart scales: map a value of the data to a position in the picture, on a linear or a base-10
// logarithmic axis. Pure functions of numbers.

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
export function linearScale([d0, d1], [r0, r1]) {
  if (d1 === d0) return () => (r0 + r1) / 2;
  const slope = (r1 - r0) / (d1 - d0);
  return (value) => r0 + (value - d0) * slope;
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
  const inner = linearScale([Math.log10(d0), Math.log10(d1)], range);
  return (value) => inner(Math.log10(value));
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
 * Splits [start, end] into n equal bands with a gap between neighbours, as for bars.
 * @param {number} n how many bands
 * @param {[number, number]} range
 * @param {number} [gap] the share of each band's step left empty, 0 to 1
 * @returns {{ start: number, width: number, step: number }[]} each band's left edge and width
 */
export function bands(n, [start, end], gap = 0.25) {
  const step = n > 0 ? (end - start) / n : 0;
  const width = step * (1 - gap);
  return Array.from({ length: n }, (_, i) => ({
    start: start + i * step + (step - width) / 2,
    width,
    step,
  }));
}
