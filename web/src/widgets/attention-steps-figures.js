// Draws one step of the attention-steps widget with the heatmap view: raw and scaled scores on a
// diverging scale around 0, masked scores with the hidden cells hatched and written −∞, the weights
// on the view's 0-to-1 scale, and the output as a compact tokens × features grid. The read-out is
// the widget's own and the table follows it.
import { buildTables, clearHeatmap, renderHeatmap } from '../views/heatmap/index.js';
import { symmetricRange } from './figure-range.js';
import { STEPS } from './attention-steps-math.js';
import { MINUS_INFINITY } from './attention-steps-text.js';

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
 * @param {import('./attention-steps-math.js').AttentionSteps} result
 * @param {number} step 1..STEPS.length
 * @returns {import('../views/heatmap/index.js').HeatmapData}
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
 * Draws the step into the figure, its table after the read-out. Where the output has a height of
 * its own (the deck's right-hand column), the figure is drawn narrower until it fits: the grid's
 * cells are square, so a narrower grid is also a shorter one.
 * @param {import('./attention-steps-markup.js').AttentionStepsParts} parts
 * @param {import('../views/heatmap/index.js').HeatmapData} data
 */
export function drawStep(parts, data) {
  const { figure, output } = parts;
  /** @param {number | null} width the figure's largest width in pixels, null for the style's */
  const drawAt = (width) => {
    if (width === null) figure.style.removeProperty('max-width');
    else figure.style.maxWidth = `${width}px`;
    drawOnce(parts, data);
    return output.scrollHeight - output.clientHeight <= FITS;
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
 * @param {import('./attention-steps-markup.js').AttentionStepsParts} parts
 * @param {import('../views/heatmap/index.js').HeatmapData} data
 */
function drawOnce(parts, data) {
  const doc = parts.root.ownerDocument;
  renderHeatmap(parts.figure, data, { readout: parts.readout, table: false });
  const open = parts.tables.querySelector('details')?.open ?? false;
  const tables = buildTables(doc, data);
  tables.open = open;
  parts.tables.replaceChildren(tables);
  if (hasMinusInfinity(data)) {
    markMinusInfinity(parts.figure, parts.readout);
    markMinusInfinity(parts.tables, parts.readout);
  }
}

/**
 * Empties the figure (nothing to draw).
 * @param {import('./attention-steps-markup.js').AttentionStepsParts} parts
 */
export function clearStep(parts) {
  clearHeatmap(parts.figure);
  parts.tables.replaceChildren();
}

/**
 * @param {import('../views/heatmap/index.js').HeatmapData} data
 * @returns {boolean} whether some masked cell holds -Infinity (the masked scores)
 */
export function hasMinusInfinity(data) {
  return Array.prototype.some.call(
    data.values,
    (value, k) => value === -Infinity && Boolean(data.masked?.[k]),
  );
}

/**
 * Writes −∞ for the masked cells the view drew as hidden: in each cell's name (and so the
 * read-out), inside the cells when they show numbers, in the legend and in the table. The view
 * itself names a masked cell by its weight, 0; this is the step before the softmax. Running it
 * again on the same drawing changes nothing.
 * @param {HTMLElement} container what the view drew into (figure or tables)
 * @param {HTMLElement} readout the read-out that names the focused cell
 */
export function markMinusInfinity(container, readout) {
  const ending = / 0$/;
  for (const cell of container.querySelectorAll('rect.cell.masked')) {
    const label = cell.getAttribute('aria-label') ?? '';
    if (ending.test(label))
      cell.setAttribute('aria-label', label.replace(ending, ` ${MINUS_INFINITY}`));
  }
  for (const td of container.querySelectorAll('td.masked')) td.textContent = MINUS_INFINITY;
  for (const item of container.querySelectorAll('.legend-masked')) {
    const text = [...item.childNodes].find((node) => node.nodeType === 3);
    if (text) text.textContent = (text.textContent ?? '').replace(/ 0\)$/, ` ${MINUS_INFINITY})`);
  }
  const svg = container.querySelector('svg');
  const values = /** @type {SVGGElement | null | undefined} */ (svg?.querySelector('.cell-values'));
  if (svg && values && parseFloat(values.style.fontSize) > 0 && !svg.dataset.minusInfinity) {
    svg.dataset.minusInfinity = 'shown';
    for (const cell of svg.querySelectorAll('rect.cell.masked')) {
      values.append(cellMark(svg.ownerDocument, cell));
    }
  }
  const active = container.ownerDocument.activeElement;
  if (active && container.contains(active) && active.matches('rect.cell')) {
    readout.textContent = active.getAttribute('aria-label');
  }
}

/**
 * The text −∞ centred on a cell.
 * @param {Document} doc
 * @param {Element} cell
 * @returns {SVGTextElement}
 */
function cellMark(doc, cell) {
  const at = (name) => Number(cell.getAttribute(name));
  const text = doc.createElementNS('http://www.w3.org/2000/svg', 'text');
  text.setAttribute('x', String(at('x') + at('width') / 2));
  text.setAttribute('y', String(at('y') + at('height') / 2));
  text.setAttribute('class', 'cell-value ast-minus-infinity');
  text.textContent = MINUS_INFINITY;
  return text;
}
