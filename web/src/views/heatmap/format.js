// Heatmap wording: how weights, axis names and cells are written for people and screen readers.
// Weights and cells keep the lesson's own fixed decimals (a hyphen-minus, as the tables have
// always written a negative score); the legend's ticks are d3-format's.
import { format } from 'd3-format';

const legendTick = format('.2~f');

/**
 * Formats a weight for the table and the read-out: exactly 0 as '0', else three decimals.
 * @param {number} value
 * @returns {string}
 */
export function formatWeight(value) {
  return value === 0 ? '0' : value.toFixed(3);
}

/**
 * The short form printed inside a large enough cell. A weight in [0, 1]: '1', or two decimals
 * without the leading 0; any other value: one decimal.
 * @param {number} value
 * @param {[number, number]} [range] the figure's value range; [0, 1] by default
 * @returns {string}
 */
export function cellText(value, range = [0, 1]) {
  if (range[0] !== 0 || range[1] !== 1) return value.toFixed(1);
  return value >= 0.995 ? '1' : value.toFixed(2).replace(/^0/, '');
}

/**
 * A legend tick: at most two decimals, trailing zeros dropped, a true minus sign.
 * @param {number} value
 * @returns {string}
 */
export function tickText(value) {
  return legendTick(value);
}

/**
 * What a row, a column and a value are, with the defaults 'row', 'column' and 'weight', the
 * words between a row and a column in a cell's name (' to ' by default), and how a masked cell's
 * value is written ('0' by default).
 * @param {{ rowName?: string, colName?: string, valueName?: string, between?: string,
 *   maskedText?: string }} data
 * @returns {{ rowName: string, colName: string, valueName: string, between: string,
 *   maskedText: string }}
 */
export function axisNames(data) {
  return {
    rowName: data.rowName ?? 'row',
    colName: data.colName ?? 'column',
    valueName: data.valueName ?? 'weight',
    between: data.between ?? ' to ',
    maskedText: data.maskedText ?? '0',
  };
}

/** Said after a token that the vocabulary of word vectors does not hold. */
export const UNKNOWN_NOTE = 'not in the vocabulary';

/**
 * Names one token, e.g. 'query “cat”', or 'query “zyx” (not in the vocabulary)'.
 * @param {string} name what the token is
 * @param {string} label the token
 * @param {boolean} [unknown] whether the vocabulary lacks it
 * @returns {string}
 */
export function quoted(name, label, unknown = false) {
  return `${name} \u201c${label}\u201d${unknown ? ` (${UNKNOWN_NOTE})` : ''}`;
}

/**
 * The accessible name of a cell, also shown in the read-out, e.g. 'Head 2: query “cat” to key
 * “the”: weight 0.125'.
 * @param {ReturnType<typeof axisNames>} names
 * @param {string | undefined} title the figure's short name, put first when there is one
 * @param {string} rowLabel
 * @param {string} colLabel
 * @param {number} value
 * @param {boolean} isMasked
 * @param {[boolean, boolean]} [unknown] whether the vocabulary lacks the row's and the column's
 *   token
 * @returns {string}
 */
export function describe(names, title, rowLabel, colLabel, value, isMasked, unknown) {
  const { rowName, colName, valueName, between } = names;
  const prefix = title ? `${title}: ` : '';
  const row = quoted(rowName, rowLabel, unknown?.[0]);
  const pair = `${prefix}${row}${between}${quoted(colName, colLabel, unknown?.[1])}`;
  return isMasked
    ? `${pair}: masked, ${valueName} ${names.maskedText}`
    : `${pair}: ${valueName} ${formatWeight(value)}`;
}

/**
 * The accessible name of a grid drawn as a picture (one pixel per value), which says what it
 * shows, that the table has the numbers and how to read one value from the picture itself.
 * @param {{ caption: string, rowLabels: string[], colLabels: string[], valueName?: string }} data
 * @returns {string}
 */
export function pictureName(data) {
  const { valueName } = axisNames(data);
  const size = `${data.rowLabels.length} by ${data.colLabels.length}`;
  return (
    `${data.caption} A picture of ${size} ${valueName}s; the table has the numbers. ` +
    'The arrow keys move from one value to the next.'
  );
}
