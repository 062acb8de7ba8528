// Draws one step of the attention-steps widget with the heatmap view: raw and scaled scores on a
// diverging scale around 0, masked scores with the hidden cells hatched and written −∞, the weights
// on the view's 0-to-1 scale, and the output as a compact tokens × features grid. The read-out is
// the widget's own and the table follows it.
import {
  clearHeatmap,
  clearTables,
  renderHeatmap,
  renderTables,
} from '../../views/heatmap/index.js';
import { symmetricRange } from '../shared/figure-range.js';
import { STEPS } from './math.js';
import { MINUS_INFINITY } from './text.js';

/**
 * The colour range of signed values, ignoring the -Infinity of masked cells.
 * @param {ArrayLike<number>} values
 * @returns {[number, number]} [-m, m], as symmetricRange gives for the finite values
 */
export function finiteRange(values) {
  return symmetricRange(Array.prototype.filter.call(values, Number.isFinite));
}

/**
 * Everything the heatmap view needs to draw step `step` of the trace.
 * Steps 1 to 4: (m, m), queries by keys; step 5: (m, d), tokens by features.
 * @param {import('./math.js').AttentionSteps} result
 * @param {number} step 1..STEPS.length
 * @returns {import('../../views/heatmap/index.js').HeatmapData}
 */
export function stepData(result, step) {
  const { tokens, unknown, m, d, trace } = result;
  const { key } = STEPS[step - 1];
  const values = trace[key];
  if (key === 'output') {
    return {
      rowLabels: tokens,
      colLabels: Array.from({ length: d }, (_, j) => String(j)),
      values,
      range: finiteRange(values),
      unknownRows: unknown,
      rowName: 'token',
      colName: 'feature',
      valueName: 'output value',
      between: ', ',
      compact: true,
      caption: `Step 5, the output (weights times V): ${m} tokens by ${d} features.`,
    };
  }
  const hidden = Array.from(trace.masked, (value) => value === -Infinity);
  const grid = {
    rowLabels: tokens,
    colLabels: tokens,
    values,
    unknownRows: unknown,
    unknownCols: unknown,
    rowName: 'query',
    colName: 'key',
  };
  const size = `${m} by ${m}; rows are queries, columns keys`;
  if (key === 'weights') {
    return {
      ...grid,
      masked: hidden,
      caption: `Step 4, the weights (softmax of each row), ${size}; each row sums to 1.`,
    };
  }
  if (key === 'masked') {
    return {
      ...grid,
      masked: hidden,
      // Before the softmax a hidden cell holds minus infinity, not 0: the view writes it so.
      maskedText: MINUS_INFINITY,
      range: finiteRange(values),
      valueName: 'score',
      caption: `Step 3, the scaled scores plus the mask M, ${size}; a hidden cell is ${MINUS_INFINITY}.`,
    };
  }
  const scaled = key === 'scaled';
  return {
    ...grid,
    range: finiteRange(values),
    valueName: scaled ? 'scaled score' : 'score',
    caption: `Step ${step}, the ${scaled ? 'scores divided by the square root of d k' : 'raw scores Q K transposed'}, ${size}.`,
  };
}

/** The narrowest the figure is made to fit a column's height, in pixels. */
const NARROWEST = 240;
/** How close to the widest fitting width the search gets, in pixels. */
const WIDTH_STEP = 12;
/** How far the output may overflow its column and still fit, in pixels. */
const FITS = 2;

/**
 * Whether the step fits its column, down to the disclosure of the table (an open table may
 * scroll: opening it leaves the grid as it is).
 * @param {import('./markup.js').AttentionStepsParts} parts
 * @returns {boolean}
 */
function fitsColumn(parts) {
  const { output } = parts;
  const end = parts.tables.querySelector('summary') ?? parts.tables;
  const top = output.getBoundingClientRect().top - output.scrollTop;
  return end.getBoundingClientRect().bottom - top - output.clientHeight <= FITS;
}

/**
 * Draws the step into the figure, its table after the read-out. Where the output has a height of
 * its own (the deck's right-hand column), the figure is drawn narrower until it fits: the grid's
 * cells are square, so a narrower grid is also a shorter one.
 * @param {import('./markup.js').AttentionStepsParts} parts
 * @param {import('../../views/heatmap/index.js').HeatmapData} data
 */
export function drawStep(parts, data) {
  renderTables(parts.tables, data);
  const { figure } = parts;
  /** @param {number | null} width the figure's largest width in pixels, null for the style's */
  const drawAt = (width) => {
    if (width === null) figure.style.removeProperty('max-width');
    else figure.style.maxWidth = `${width}px`;
    drawOnce(parts, data);
    return fitsColumn(parts);
  };
  if (drawAt(null)) return;
  const full = figure.clientWidth;
  if (full <= NARROWEST || !drawAt(NARROWEST)) return;
  // The widest grid that fits, by halving the interval: narrower grids are shorter, roughly.
  let [fits, fails] = [NARROWEST, full];
  while (fails - fits > WIDTH_STEP) {
    const middle = Math.round((fits + fails) / 2);
    if (drawAt(middle)) fits = middle;
    else fails = middle;
  }
  drawAt(fits);
}

/**
 * @param {import('./markup.js').AttentionStepsParts} parts
 * @param {import('../../views/heatmap/index.js').HeatmapData} data
 */
function drawOnce(parts, data) {
  renderHeatmap(parts.figure, data, { readout: parts.readout, table: false });
}

/**
 * Empties the figure (nothing to draw).
 * @param {import('./markup.js').AttentionStepsParts} parts
 */
export function clearStep(parts) {
  clearHeatmap(parts.figure);
  clearTables(parts.tables);
}

/**
 * @param {import('../../views/heatmap/index.js').HeatmapData} data
 * @returns {boolean} whether some masked cell holds -Infinity (the masked scores)
 */
export function hasMinusInfinity(data) {
  return Array.prototype.some.call(
    data.values,
    (value, k) => value === -Infinity && Boolean(data.masked?.[k]),
  );
}
