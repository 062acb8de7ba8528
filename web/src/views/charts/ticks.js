// Chart ticks: round steps (1, 2 or 5 times a power of ten) for linear axes, and powers of ten
// for logarithmic ones. Pure functions of numbers.

/**
 * A round step that cuts `span` into about `count` pieces.
 * @param {number} span the length to cut, > 0
 * @param {number} count how many pieces, about
 * @returns {number} 1, 2 or 5 times a power of ten
 */
export function niceStep(span, count) {
  if (!(span > 0)) return 1;
  const raw = span / Math.max(1, count);
  const power = 10 ** Math.floor(Math.log10(raw));
  const fraction = raw / power;
  const nice = fraction <= 1 ? 1 : fraction <= 2 ? 2 : fraction <= 5 ? 5 : 10;
  return nice * power;
}

/**
 * Rounds away the binary noise of multiplying a step, so 3 * 0.1 is 0.3.
 * @param {number} value
 * @returns {number}
 */
function clean(value) {
  return Number(value.toPrecision(12));
}

/**
 * The multiples of a round step from min to max, both ends included when they fall on one.
 * @param {number} min
 * @param {number} max
 * @param {number} [count] about how many intervals
 * @returns {number[]}
 */
export function linearTicks(min, max, count = 5) {
  if (!(max > min)) return [clean(min)];
  const step = niceStep(max - min, count);
  const first = Math.ceil(min / step - 1e-9);
  const last = Math.floor(max / step + 1e-9);
  const ticks = [];
  for (let k = first; k <= last; k += 1) ticks.push(clean(k * step));
  return ticks;
}

/**
 * Widens [min, max] outwards to the nearest multiples of a round step.
 * @param {number} min
 * @param {number} max
 * @param {number} [count] about how many intervals
 * @returns {[number, number]}
 */
export function niceDomain(min, max, count = 5) {
  if (!(max > min)) return [min - 1, max + 1];
  const step = niceStep(max - min, count);
  return [clean(Math.floor(min / step + 1e-9) * step), clean(Math.ceil(max / step - 1e-9) * step)];
}

/**
 * The powers of ten from min to max, both ends included when they are one.
 * @param {number} min > 0
 * @param {number} max >= min
 * @returns {number[]}
 */
export function decadeTicks(min, max) {
  const ticks = [];
  const first = Math.ceil(Math.log10(min) - 1e-9);
  const last = Math.floor(Math.log10(max) + 1e-9);
  for (let k = first; k <= last; k += 1) ticks.push(clean(10 ** k));
  return ticks;
}

/**
 * Widens [min, max] outwards to whole powers of ten, so a log axis starts and ends on a tick.
 * @param {number} min > 0
 * @param {number} max >= min
 * @returns {[number, number]}
 */
export function decadeDomain(min, max) {
  const low = Math.floor(Math.log10(min) + 1e-9);
  const high = Math.max(low + 1, Math.ceil(Math.log10(max) - 1e-9));
  return [clean(10 ** low), clean(10 ** high)];
}
