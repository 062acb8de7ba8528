// Heatmap grid: the SVG with one focusable cell per weight, the axis labels and the cell numbers.
import { hatchPattern, heatColour, isDiverging } from './colour.js';
import { svgEl } from './dom.js';
import { axisNames, cellText, describe, quoted } from './format.js';
import { labelGroup } from './labels.js';
import { colX, layout, rowY } from './layout.js';

/**
 * @typedef {object} Grid
 * @property {SVGSVGElement} svg the whole figure
 * @property {SVGRectElement[]} cells one per weight, row-major
 * @property {SVGRectElement} ring the outline drawn around the active cell
 * @property {import('./layout.js').Box} box the sizes used
 * @property {SVGTextElement[]} rowTexts the row labels
 * @property {SVGTextElement[]} colTexts the column labels
 * @property {SVGGElement} bands where the outlines of highlighted rows go (markRows)
 * @property {number} nRows
 * @property {number} nCols
 */

/**
 * Draws the grid. Each cell carries its row-major index in data-index and its description in
 * aria-label; only the cell at state.active is in the Tab order.
 * @param {Document} doc
 * @param {import('./index.js').HeatmapData} data
 * @param {{ id: number, active: number }} state
 * @param {number} available width in CSS pixels (0 when unknown)
 * @param {string} readoutId the id of the element that describes the grid
 * @returns {Grid}
 */
export function buildGrid(doc, data, state, available, readoutId) {
  const { rowLabels, colLabels, values, masked, range } = data;
  const nCols = colLabels.length;
  const names = axisNames(data);
  const shown = (labels) => (data.labels === false ? [] : labels);
  const shownCols = data.labels === 'rows' ? [] : shown(colLabels);
  const box = layout(data, available);
  const svg = svgEl(doc, 'svg', {
    class: `heatmap-svg${data.compact ? ' compact' : ''}${box.cell < 5 ? ' dense' : ''}`,
    viewBox: `0 0 ${box.width} ${box.height}`,
    width: box.width,
    height: box.height,
    role: 'grid',
    // Only the cells take focus (one at a time); without this the browser also stops on the svg.
    tabindex: -1,
    'aria-label': data.caption,
    'aria-describedby': readoutId,
    'aria-rowcount': rowLabels.length,
    'aria-colcount': colLabels.length,
  });
  svg.style.setProperty('--label-font', `${box.font}px`);
  const hatchId = `heatmap-hatch-${state.id}`;
  svg.append(hatchPattern(doc, hatchId));

  const at = (j) => ({
    transform: `translate(${colX(box, j + 0.5)} ${box.top - 6}) rotate(${box.angle})`,
  });
  const cols = labelGroup(doc, 'col-label', shownCols, box.colStep, at);
  const rows = labelGroup(doc, 'row-label', shown(rowLabels), 1, (i) => ({
    x: box.left - 8,
    y: rowY(box, i + 0.5),
  }));
  markUnknown(cols.texts, data.unknownCols);
  markUnknown(rows.texts, data.unknownRows);
  svg.append(cols.group, rows.group);

  const cells = [];
  const valueGroup = svgEl(doc, 'g', { class: 'cell-values', 'aria-hidden': 'true' });
  valueGroup.style.fontSize = `${box.valueFont}px`;
  rowLabels.forEach((rowLabel, i) => {
    const row = svgEl(doc, 'g', {
      role: 'row',
      'aria-rowindex': i + 1,
      'aria-label': quoted(names.rowName, rowLabel, Boolean(data.unknownRows?.[i])),
    });
    colLabels.forEach((colLabel, j) => {
      const index = i * nCols + j;
      const value = values[index];
      const isMasked = Boolean(masked?.[index]);
      const cell = svgEl(doc, 'rect', {
        class: isMasked ? 'cell masked' : 'cell',
        x: colX(box, j),
        y: rowY(box, i),
        width: box.cell,
        height: box.rowHeight,
        role: 'gridcell',
        'aria-colindex': j + 1,
        tabindex: index === state.active ? 0 : -1,
        'aria-label': describe(names, data.title, rowLabel, colLabel, value, isMasked, [
          Boolean(data.unknownRows?.[i]),
          Boolean(data.unknownCols?.[j]),
        ]),
        'data-index': index,
        'data-value': value,
      });
      cell.style.fill = isMasked ? `url(#${hatchId})` : heatColour(value, range);
      row.append(cell);
      cells.push(cell);
      if (box.valueFont > 0 && !isMasked) {
        valueGroup.append(valueText(doc, box, i, j, value, range));
      }
    });
    svg.append(row);
  });
  const frame = svgEl(doc, 'rect', {
    class: 'grid-frame',
    x: box.left - 0.5,
    y: box.top - 0.5,
    width: colLabels.length * box.cell + 1,
    height: rowLabels.length * box.rowHeight + 1,
    'aria-hidden': 'true',
  });
  const ring = svgEl(doc, 'rect', {
    class: 'cell-ring',
    'aria-hidden': 'true',
    visibility: 'hidden',
  });
  const bands = /** @type {SVGGElement} */ (
    svgEl(doc, 'g', { class: 'row-bands', 'aria-hidden': 'true' })
  );
  svg.append(valueGroup, frame, bands, ring);
  const nRows = rowLabels.length;
  return { svg, cells, ring, box, rowTexts: rows.texts, colTexts: cols.texts, bands, nRows, nCols };
}

/**
 * Outlines the given rows (in the text colour, so it shows on either colour scale) and marks
 * their labels as active; every other row loses its outline.
 * @param {Grid} grid
 * @param {number[]} rows
 */
export function markRows(grid, rows) {
  const { box, bands, nRows, nCols } = grid;
  const inside = rows.filter((i) => Number.isInteger(i) && i >= 0 && i < nRows);
  const doc = bands.ownerDocument;
  bands.replaceChildren(
    ...inside.map((i) =>
      svgEl(doc, 'rect', {
        class: 'row-band',
        x: box.left - 1,
        y: rowY(box, i) - 1,
        width: nCols * box.cell + 2,
        height: box.rowHeight + 2,
        fill: 'none',
        stroke: 'currentColor',
        'stroke-width': 2,
        'pointer-events': 'none',
      }),
    ),
  );
  grid.rowTexts.forEach((text, i) => text?.classList.toggle('active', inside.includes(i)));
}

/**
 * The grid index of a cell element, or -1 for anything else.
 * @param {EventTarget | Element | null} target
 * @returns {number}
 */
export function cellIndexOf(target) {
  return Number(target?.dataset?.index ?? -1);
}

/**
 * The number printed in cell (i, j), light on the strong end(s) of the colour scale.
 * @param {Document} doc
 * @param {import('./layout.js').Box} box
 * @param {number} i
 * @param {number} j
 * @param {number} value
 * @param {[number, number]} [range]
 */
function valueText(doc, box, i, j, value, range = [0, 1]) {
  const t = (value - range[0]) / (range[1] - range[0] || 1);
  const strong = isDiverging(range) ? Math.abs(t - 0.5) > 0.3 : t > 0.5;
  const className = strong ? 'cell-value on-strong' : 'cell-value';
  const attrs = { x: colX(box, j + 0.5), y: rowY(box, i + 0.5), class: className };
  return svgEl(doc, 'text', attrs, cellText(value, range));
}

/**
 * Marks the labels of tokens that are not in the vocabulary of word vectors (class "unknown").
 * @param {SVGTextElement[]} texts the drawn labels, by index (with holes)
 * @param {ArrayLike<boolean> | undefined} unknown
 */
function markUnknown(texts, unknown) {
  texts.forEach((text, k) => {
    if (text && unknown?.[k]) text.classList.add('unknown');
  });
}
