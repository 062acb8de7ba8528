// Chart numbers as people read them: a few significant figures, a true minus sign.

const MINUS = '\u2212';

/**
 * A number with `digits` significant figures, without trailing zeros after the point; very large
 * or small magnitudes in scientific notation (1.2 × 10⁻⁴ is written 1.2e-4).
 * @param {number} value
 * @param {number} [digits]
 * @returns {string}
 */
export function formatNumber(value, digits = 3) {
  if (value === 0 || !Number.isFinite(value)) return value === 0 ? '0' : String(value);
  const magnitude = Math.abs(value);
  const text =
    magnitude >= 1e-3 && magnitude < 1e6
      ? String(Number(magnitude.toPrecision(digits)))
      : magnitude.toExponential(digits - 1).replace(/\.?0+e/, 'e');
  return value < 0 ? `${MINUS}${text}` : text;
}

/**
 * A tick label: the value as written (ticks are round already), with a true minus sign.
 * @param {number} value
 * @returns {string}
 */
export function formatTick(value) {
  return formatNumber(value, 6);
}

/**
 * A share of a whole as a percentage: '4.1%', '0%', '<0.1%' for a tiny share.
 * @param {number} share 0 to 1
 * @returns {string}
 */
export function formatPercent(share) {
  if (share === 0) return '0%';
  if (share < 0.001) return '<0.1%';
  return `${Number((share * 100).toFixed(1))}%`;
}
