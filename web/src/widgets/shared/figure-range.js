// Colour ranges of figures: signed values around 0, and weights that may all be small.

/**
 * @param {ArrayLike<number>} values
 * @returns {[number, number]} [-m, m] with m the largest |value| rounded up to a multiple of 0.5
 */
export function symmetricRange(values) {
  let largest = 0;
  for (let i = 0; i < values.length; i++) largest = Math.max(largest, Math.abs(values[i]));
  const m = Math.max(0.5, Math.ceil(largest * 2) / 2);
  return [-m, m];
}

/**
 * The colour range of weights that may all be small: from 0 to the largest, rounded up to a tenth.
 * @param {ArrayLike<number>[]} lists
 * @returns {[number, number]} [0, m], 0.1 <= m <= 1
 */
export function weightRange(lists) {
  let largest = 0;
  for (const values of lists)
    for (let i = 0; i < values.length; i++) largest = Math.max(largest, values[i]);
  return [0, Math.min(1, Math.max(0.1, Math.ceil(largest * 10 - 1e-9) / 10))];
}
