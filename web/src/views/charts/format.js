// Chart numbers as people read them, written by d3-format: a few significant figures, trailing
// zeros dropped, a true minus sign (d3's own). What is ours: where scientific notation starts, and
// that a tiny share reads '<0.1%' rather than '0%'.
import { format } from 'd3-format';

/** @type {Map<string, (value: number) => string>} d3 formatters by specifier, made once each */
const formats = new Map();

/**
 * @param {string} specifier a d3-format specifier
 * @returns {(value: number) => string}
 */
function formatter(specifier) {
  let write = formats.get(specifier);
  if (!write) {
    write = format(specifier);
    formats.set(specifier, write);
  }
  return write;
}

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
  const fixed = magnitude >= 1e-3 && magnitude < 1e6;
  return formatter(fixed ? `.${digits}~r` : `.${digits - 1}~e`)(value);
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
  return formatter('.1~%')(share);
}
