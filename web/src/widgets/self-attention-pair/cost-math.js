// The arithmetic of the cost panel, on measured times: the median of repeated runs, the slope of
// log(time) against log(n) by least squares, a reference line that grows as n^p, and the words
// that say what a slope means. Pure functions of numbers.

/**
 * @param {number[]} values (r) at least one
 * @returns {number} the middle value; the mean of the two middle ones for an even count
 */
export function median(values) {
  if (values.length === 0) throw new Error('median: no values');
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/**
 * The least-squares slope of log(y) on log(x): y ~ c * x^slope. The base of the logarithm does
 * not matter (it cancels).
 * @param {number[]} xs (m) at least two distinct values, all > 0
 * @param {number[]} ys (m) all > 0
 * @returns {number}
 */
export function logLogSlope(xs, ys) {
  if (xs.length !== ys.length) {
    throw new Error(`logLogSlope: ${xs.length} x values for ${ys.length} y values`);
  }
  if (xs.length < 2) throw new Error('logLogSlope: needs at least two points');
  if ([...xs, ...ys].some((v) => !(v > 0 && Number.isFinite(v)))) {
    throw new Error('logLogSlope: every value must be positive and finite');
  }
  const lx = xs.map(Math.log);
  const ly = ys.map(Math.log);
  const mx = lx.reduce((s, v) => s + v, 0) / lx.length;
  const my = ly.reduce((s, v) => s + v, 0) / ly.length;
  let sxy = 0;
  let sxx = 0;
  for (let i = 0; i < lx.length; i++) {
    sxy += (lx[i] - mx) * (ly[i] - my);
    sxx += (lx[i] - mx) ** 2;
  }
  if (sxx === 0) throw new Error('logLogSlope: the x values are all the same');
  return sxy / sxx;
}

/**
 * The slope over the sizes from `from` up, where the n^2 work dominates the fixed costs of a call.
 * @param {number[]} sizes (m) increasing
 * @param {number[]} times (m) seconds or milliseconds, > 0
 * @param {number} from the smallest size the fit uses
 * @returns {{ slope: number, sizes: number[] } | null} null while fewer than two sizes qualify
 */
export function fitSlope(sizes, times, from) {
  const used = sizes.map((n, i) => [n, times[i]]).filter(([n]) => n >= from);
  if (used.length < 2) return null;
  const slope = logLogSlope(
    used.map(([n]) => n),
    used.map(([, t]) => t),
  );
  return { slope, sizes: used.map(([n]) => n) };
}

/**
 * A guide that grows exactly as n^power and passes through the last measured point.
 * @param {number[]} sizes (m)
 * @param {number[]} times (m)
 * @param {number} power
 * @returns {number[]} (m)
 */
export function powerGuide(sizes, times, power) {
  const last = sizes.length - 1;
  return sizes.map((n) => times[last] * (n / sizes[last]) ** power);
}

/**
 * What a slope says about growth: the slope to one decimal, the power of n it is close to (a
 * whole number when within 0.25 of one, else the slope itself to one decimal) and the factor one
 * doubling of n multiplies the time by (2^slope).
 * @param {number} slope
 * @returns {{ slope: string, power: string, doubling: string }}
 */
export function growthWords(slope) {
  const whole = Math.round(slope);
  const power = Math.abs(slope - whole) <= 0.25 ? String(whole) : slope.toFixed(1);
  return { slope: slope.toFixed(1), power, doubling: (2 ** slope).toFixed(1) };
}
