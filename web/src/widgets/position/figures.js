// Draws the position widget's results: the order on show, the equivariance check with its number,
// the self-attention output and the positional encoding as heatmaps with a shared read-out.
import { buildTables, clearHeatmap, renderHeatmap } from '../../views/heatmap/index.js';
import { symmetricRange } from '../shared/figure-range.js';
import { MATCH_TOLERANCE } from './math.js';

/**
 * @param {number} value max |out_shuffled - P out|
 * @returns {string} e.g. '0', '2.4e-7', '3.21'
 */
export function formatDifference(value) {
  if (value === 0) return '0';
  return value < 1e-3 ? value.toExponential(1) : value.toPrecision(3);
}

/**
 * @param {import('./markup.js').PositionParts} parts
 * @param {string[]} tokens in their original order
 * @param {number[]} order the order on show (original indices)
 * @param {number} difference max |out_shuffled - P out|
 */
export function drawCheck(parts, tokens, order, difference) {
  const shown = order.map((k) => tokens[k]);
  const shuffled = order.some((k, i) => k !== i);
  parts.order.dataset.order = order.join(',');
  parts.order.textContent = `${shuffled ? 'Order on show' : 'Original order'}: ${shown.join(' \u00b7 ')}`;
  const verdict = !shuffled ? 'none' : difference < MATCH_TOLERANCE ? 'match' : 'differ';
  parts.check.dataset.verdict = verdict;
  parts.check.dataset.difference = String(difference);
  if (verdict === 'none') {
    parts.check.textContent = 'Press Shuffle to reorder the tokens and compare the outputs.';
    return;
  }
  const bound = difference === 0 ? 'exactly' : `to 1e${Math.ceil(Math.log10(difference))}`;
  const headline =
    verdict === 'match'
      ? `The outputs match the shuffled order ${bound}`
      : 'The outputs differ from the shuffled order';
  parts.check.innerHTML =
    `<strong class="pos-verdict">${headline}</strong> ` +
    `<span class="pos-formula">max |out<sub>shuffled</sub> \u2212 P\u00b7out| = ` +
    `<span class="pos-difference">${formatDifference(difference)}</span></span>`;
}

/**
 * @param {import('./markup.js').PositionParts} parts
 * @param {string[]} shown the tokens in the order on show
 * @param {{ n: number, d: number, output: Float32Array, encoding: Float32Array }} result
 * @param {boolean} withEncoding
 */
export function drawFigures(parts, shown, result, withEncoding) {
  const { n, d, output, encoding } = result;
  const doc = parts.root.ownerDocument;
  const dims = Array.from({ length: d }, (_, j) => String(j));
  const common = { colLabels: dims, colName: 'dimension', between: ', ', compact: true };
  const outData = {
    ...common,
    rowLabels: shown,
    values: output,
    range: symmetricRange(output),
    rowName: 'token',
    valueName: 'output value',
    caption: `Self-attention output${withEncoding ? ' with positional encodings' : ''}: ${n} tokens in the order on show, by ${d} dimensions.`,
  };
  const peData = {
    ...common,
    rowLabels: Array.from({ length: n }, (_, i) => String(i)),
    values: encoding,
    range: /** @type {[number, number]} */ ([-1, 1]),
    rowName: 'position',
    valueName: 'encoding value',
    caption: `Positional encoding: ${n} positions by ${d} dimensions, ${withEncoding ? 'added to' : 'not added to'} the token vectors.`,
  };
  const shared = { readout: parts.readout, table: false };
  parts.outTitle.textContent = `Self-attention output${withEncoding ? ' of X + PE' : ''}, one row per token`;
  parts.peTitle.textContent = `Positional encoding PE, ${withEncoding ? 'added to X' : 'not added'}`;
  renderHeatmap(parts.out, outData, shared);
  renderHeatmap(parts.peMap, peData, shared);
  const open = parts.tables.querySelector('details')?.open ?? false;
  const tables = buildTables(doc, [outData, peData], 'Show the numbers as tables');
  tables.open = open;
  parts.tables.replaceChildren(tables);
}

/** @param {import('./markup.js').PositionParts} parts */
export function clearFigures(parts) {
  clearHeatmap(parts.out);
  clearHeatmap(parts.peMap);
}
