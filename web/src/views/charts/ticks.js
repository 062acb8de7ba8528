// Chart ticks: how many a short axis gets, and the domains that start and end on one. The steps
// themselves are d3-array's (1, 2 or 5 times a power of ten, nearest to the span over the count);
// what is ours is the count, that a flat range still gets an axis, and that a logarithmic axis is
// labelled at powers of ten only.
import { nice, ticks } from 'd3-array';
import { scaleLog } from 'd3-scale';

/**
 * About how many ticks an axis gets (d3 takes the count as a target, not a limit): the charts are
 * 170 to 200 pixels tall and about 440 wide, and three labels (0, 0.5 and 1 for a weight) read
 * at a glance.
 */
export const TICKS = 3;

/** A line chart's x axis, along which its points are spread, gets one more. */
export const LINE_X_TICKS = 4;

/**
 * The round ticks from min to max, both ends included when they fall on one (d3's `ticks`).
 * @param {number} min
 * @param {number} max
 * @param {number} [count] about how many ticks
 * @returns {number[]}
 */
export function linearTicks(min, max, count = TICKS) {
  return ticks(min, max, count);
}

/**
 * Widens [min, max] outwards to round numbers that are ticks of the same count (d3's `nice`); a
 * range of no width becomes [min - 1, max + 1], so that it still has an axis.
 * @param {number} min
 * @param {number} max
 * @param {number} [count] about how many ticks
 * @returns {[number, number]}
 */
export function niceDomain(min, max, count = TICKS) {
  if (!(max > min)) return [min - 1, max + 1];
  const [low, high] = nice(min, max, count);
  return [low, high];
}

/**
 * The powers of ten from min to max, both ends included when they are one: d3's log ticks, less
 * the 2 to 9 multiples between the decades, which a short axis has no room to label.
 * @param {number} min > 0
 * @param {number} max >= min
 * @returns {number[]}
 */
export function decadeTicks(min, max) {
  return scaleLog([min, max], [0, 1])
    .ticks()
    .filter((tick) => Number(`1e${Math.round(Math.log10(tick))}`) === tick);
}

/**
 * Widens [min, max] outwards to whole powers of ten (d3's log `nice`), at least one decade apart,
 * so a log axis starts and ends on a tick.
 * @param {number} min > 0
 * @param {number} max >= min
 * @returns {[number, number]}
 */
export function decadeDomain(min, max) {
  const [low, high] = scaleLog([min, max], [0, 1]).nice().domain();
  return [low, high > low ? high : low * 10];
}
