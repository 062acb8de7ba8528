// Histogram binning: equal-width bins over a domain, counted from plain samples by d3-array's
// `bin`. Pure functions.
import { bin, max } from 'd3-array';
import { niceDomain } from './ticks.js';

/**
 * @typedef {object} Bins
 * @property {number[]} edges count + 1 edges, from domain[0] to domain[1]
 * @property {number[]} counts how many samples fall in each bin
 * @property {number} total how many samples there were, in range or not
 */

/**
 * Counts the samples in each of `count` equal bins over [lo, hi]. A bin holds its left edge; the
 * last bin also holds hi. Samples outside the domain are in no bin.
 * @param {ArrayLike<number>} samples
 * @param {[number, number]} domain
 * @param {number} count
 * @returns {Bins}
 */
export function binSamples(samples, [lo, hi], count) {
  const width = (hi - lo) / count;
  // Round away the binary noise of lo + i * width, so the edges read as the round numbers they are.
  const edges = Array.from({ length: count + 1 }, (_, i) =>
    Number((lo + i * width).toPrecision(12)),
  );
  const binned = bin().domain([lo, hi]).thresholds(edges.slice(1, -1))(samples);
  return { edges, counts: binned.map((b) => b.length), total: samples.length };
}

/**
 * The largest absolute value in all the series (0 when they are empty).
 * @param {ArrayLike<number>[]} series
 * @returns {number}
 */
export function largestMagnitude(series) {
  return max(series, (samples) => max(/** @type {Iterable<number>} */ (samples), Math.abs)) ?? 0;
}

/**
 * A domain [-r, r] around 0 that holds every sample, r a round number (the ends of a nice domain
 * with about 6 ticks), so that 0 falls on a bin edge when the bin count is even.
 * @param {ArrayLike<number>[]} series
 * @returns {[number, number]}
 */
export function symmetricDomain(series) {
  const largest = largestMagnitude(series) || 1;
  return niceDomain(-largest, largest, 6);
}
