// Heatmap grid: the SVG with one focusable cell per weight, the axis labels and the cell numbers.
import { hatchPattern, heatColour } from './colour.js';
import { svgEl } from './dom.js';
import { axisNames, cellText, describe, quoted } from './format.js';
import { labelText } from './labels.js';
import { colX, layout, rowY } from './layout.js';

/**
 * @typedef {object} Grid
 * @property {SVGSVGElement} svg the whole figure
 * @property {SVGRectElement[]} cells one per weight, row-major
 * @property {SVGRectElement} ring the outline drawn around the active cell
 * @property {import('./layout.js').Box} box the sizes used
 * @property {SVGTextElement[]} rowTexts the row labels
 * @property {SVGTextElement[]} colTexts the column labels
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
  const { rowLabels, colLabels, values, masked } = data;
  const nCols = colLabels.length;
  const { rowName, colName } = axisNames(data);
  const box = layout(data, available);
  const svg = svgEl(doc, 'svg', {
    class: 'heatmap-svg',
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

  const cols = labelGroup(doc, 'col-labels', 'col-label', colLabels, (j) => ({
    transform: `translate(${colX(box, j + 0.5)} ${box.top - 6}) rotate(${box.angle})`,
  }));
  const rows = labelGroup(doc, 'row-labels', 'row-label', rowLabels, (i) => ({
    x: box.left - 8,
    y: rowY(box, i + 0.5),
  }));
  svg.append(cols.group, rows.group);

  const cells = [];
  const valueGroup = svgEl(doc, 'g', { class: 'cell-values', 'aria-hidden': 'true' });
  valueGroup.style.fontSize = `${box.valueFont}px`;
  rowLabels.forEach((rowLabel, i) => {
    const row = svgEl(doc, 'g', {
      role: 'row',
      'aria-rowindex': i + 1,
      'aria-label': quoted(rowName, rowLabel),
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
        height: box.cell,
        role: 'gridcell',
        'aria-colindex': j + 1,
        tabindex: index === state.active ? 0 : -1,
        'aria-label': describe(rowName, rowLabel, colName, colLabel, value, isMasked),
        'data-index': index,
        'data-value': value,
      });
      cell.style.fill = isMasked ? `url(#${hatchId})` : heatColour(value);
      row.append(cell);
      cells.push(cell);
      if (box.valueFont > 0 && !isMasked) valueGroup.append(valueText(doc, box, i, j, value));
    });
    svg.append(row);
  });
  const frame = svgEl(doc, 'rect', {
    class: 'grid-frame',
    x: box.left - 0.5,
    y: box.top - 0.5,
    width: colLabels.length * box.cell + 1,
    height: rowLabels.length * box.cell + 1,
    'aria-hidden': 'true',
  });
  const ring = svgEl(doc, 'rect', {
    class: 'cell-ring',
    'aria-hidden': 'true',
    visibility: 'hidden',
  });
  svg.append(valueGroup, frame, ring);
  return { svg, cells, ring, box, rowTexts: rows.texts, colTexts: cols.texts };
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
 * A hidden-from-readers group of axis labels.
 * @param {Document} doc
 * @param {string} groupClass
 * @param {string} labelClass
 * @param {string[]} labels
 * @param {(k: number) => Record<string, string | number>} placeAt where label k goes
 */
function labelGroup(doc, groupClass, labelClass, labels, placeAt) {
  const group = svgEl(doc, 'g', { class: groupClass, 'aria-hidden': 'true' });
  const texts = labels.map((label, k) =>
    labelText(doc, label, { class: labelClass, ...placeAt(k) }),
  );
  group.append(...texts);
  return { group, texts };
}

/**
 * The number printed in cell (i, j).
 * @param {Document} doc
 * @param {import('./layout.js').Box} box
 * @param {number} i
 * @param {number} j
 * @param {number} value
 */
function valueText(doc, box, i, j, value) {
  const className = value > 0.5 ? 'cell-value on-strong' : 'cell-value';
  const attrs = { x: colX(box, j + 0.5), y: rowY(box, i + 0.5), class: className };
  return svgEl(doc, 'text', attrs, cellText(value));
}
