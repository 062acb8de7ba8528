// Histogram binning: equal-width bins over a domain, counted from plain samples. Pure functions.
import { niceStep } from './ticks.js';

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
  const edges = Array.from({ length: count + 1 }, (_, i) =>
    Number((lo + i * width).toPrecision(12)),
  );
  const counts = new Array(count).fill(0);
  for (let s = 0; s < samples.length; s += 1) {
    const value = samples[s];
    if (!(value >= lo && value <= hi)) continue;
    counts[Math.min(count - 1, Math.floor((value - lo) / width))] += 1;
  }
  return { edges, counts, total: samples.length };
}

/**
 * The largest absolute value in all the series (0 when they are empty).
 * @param {ArrayLike<number>[]} series
 * @returns {number}
 */
export function largestMagnitude(series) {
  let largest = 0;
  for (const samples of series) {
    for (let s = 0; s < samples.length; s += 1) largest = Math.max(largest, Math.abs(samples[s]));
  }
  return largest;
}

/**
 * A domain [-r, r] around 0 that holds every sample, r a multiple of a round tick step, so that
 * 0 and the ticks fall on bin edges when the bin count is a multiple of 2 * r / step.
 * @param {ArrayLike<number>[]} series
 * @returns {[number, number]}
 */
export function symmetricDomain(series) {
  const largest = largestMagnitude(series) || 1;
  const step = niceStep(largest, 4);
  const r = Math.ceil(largest / step - 1e-9) * step;
  return [-r, r];
}
