// Heatmap wording: how weights, axis names and cells are written for people and screen readers.

/**
 * Formats a weight for the table and the read-out: exactly 0 as '0', else three decimals.
 * @param {number} value
 * @returns {string}
 */
export function formatWeight(value) {
  return value === 0 ? '0' : value.toFixed(3);
}

/**
 * The short form printed inside a large enough cell: '1', or two decimals without the leading 0.
 * @param {number} value
 * @returns {string}
 */
export function cellText(value) {
  return value >= 0.995 ? '1' : value.toFixed(2).replace(/^0/, '');
}

/**
 * What a row and a column are, with the defaults 'row' and 'column'.
 * @param {{ rowName?: string, colName?: string }} data
 * @returns {{ rowName: string, colName: string }}
 */
export function axisNames(data) {
  return { rowName: data.rowName ?? 'row', colName: data.colName ?? 'column' };
}

/**
 * Names one token, e.g. 'query “cat”'.
 * @param {string} name what the token is
 * @param {string} label the token
 * @returns {string}
 */
export function quoted(name, label) {
  return `${name} \u201c${label}\u201d`;
}

/**
 * The accessible name of a cell, also shown in the read-out.
 * @param {string} rowName
 * @param {string} rowLabel
 * @param {string} colName
 * @param {string} colLabel
 * @param {number} value
 * @param {boolean} isMasked
 * @returns {string}
 */
export function describe(rowName, rowLabel, colName, colLabel, value, isMasked) {
  const pair = `${quoted(rowName, rowLabel)} to ${quoted(colName, colLabel)}`;
  return isMasked ? `${pair}: masked, weight 0` : `${pair}: weight ${formatWeight(value)}`;
}
