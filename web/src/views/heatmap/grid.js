// Heatmap grid: the SVG with the axis labels, the frame, the ring around the active cell and the
// cells, drawn either as one focusable element per value or, for a dense grid, as a picture with
// one pixel per value (dense.js). A redraw of the same shape updates the drawing in place.
import { hatchPattern, heatColour, isDiverging } from './colour.js';
import { clearPicture, fillPicture, pictureLayer } from './dense.js';
import { svgEl } from './dom.js';
import { axisNames, cellText, describe, pictureName, quoted } from './format.js';
import { labelGroup } from './labels.js';
import { colX, isDense, rowY } from './layout.js';

/** @typedef {import('./index.js').HeatmapData} HeatmapData */

/**
 * @typedef {object} Grid
 * @property {SVGSVGElement} svg the whole figure
 * @property {boolean} dense whether the cells are a picture (one pixel each) rather than elements
 * @property {SVGRectElement[]} cells one per value, row-major (none when dense)
 * @property {SVGGElement[]} rowGroups the cells' rows (none when dense)
 * @property {import('./dense.js').Picture | null} picture the cells when dense
 * @property {SVGGElement} labels where the axis labels go
 * @property {SVGGElement} valueGroup the numbers printed in large cells
 * @property {SVGRectElement} ring the outline drawn around the active cell
 * @property {import('./layout.js').Box} box the sizes used
 * @property {SVGTextElement[]} rowTexts the row labels
 * @property {SVGTextElement[]} colTexts the column labels
 * @property {SVGGElement} bands where the outlines of highlighted rows go (markRows)
 * @property {number} nRows
 * @property {number} nCols
 * @property {string} hatchId the id of the pattern that fills masked cells
 * @property {HeatmapData} data what the grid shows
 * @property {string} labelKey what the labels were drawn from
 * @property {HTMLElement} host the element the heatmap is drawn into
 */

/**
 * Draws the grid. As elements, each cell carries its row-major index in data-index and its
 * description in aria-label, and only the cell at state.active is in the Tab order. As a picture,
 * the SVG itself takes focus (one Tab stop) and says what it shows and where the numbers are.
 * @param {Document} doc
 * @param {HeatmapData} data
 * @param {{ id: number, active: number }} state
 * @param {import('./layout.js').Box} box as layout() gives for the data and the width
 * @param {string} readoutId the id of the element that describes the grid
 * @param {HTMLElement} host the element the heatmap is drawn into (its styles give a picture's
 *   colours)
 * @returns {Grid}
 */
export function buildGrid(doc, data, state, box, readoutId, host) {
  const nRows = data.rowLabels.length;
  const nCols = data.colLabels.length;
  const dense = isDense(box, nRows, nCols, data.picture);
  const svg = /** @type {SVGSVGElement} */ (
    svgEl(doc, 'svg', {
      class: `heatmap-svg${data.compact ? ' compact' : ''}${box.cell < 5 ? ' dense' : ''}${
        dense ? ' pixels' : ''
      }`,
      viewBox: `0 0 ${box.width} ${box.height}`,
      width: box.width,
      height: box.height,
      'data-rows': nRows,
      'data-cols': nCols,
      ...(dense
        ? { role: 'img', tabindex: 0 }
        : // Only the cells take focus (one at a time); without -1 the browser also stops on the svg.
          { role: 'grid', tabindex: -1, 'aria-rowcount': nRows, 'aria-colcount': nCols }),
      'aria-describedby': readoutId,
    })
  );
  svg.style.setProperty('--label-font', `${box.font}px`);
  const hatchId = `heatmap-hatch-${state.id}`;
  const labels = /** @type {SVGGElement} */ (svgEl(doc, 'g', { class: 'axis-labels' }));
  svg.append(hatchPattern(doc, hatchId), labels);

  const cells = [];
  const rowGroups = [];
  let picture = null;
  if (dense) {
    picture = pictureLayer(doc, box, nRows, nCols, hatchId);
    svg.append(picture.group);
  } else {
    for (let i = 0; i < nRows; i++) {
      const row = /** @type {SVGGElement} */ (
        svgEl(doc, 'g', { role: 'row', 'aria-rowindex': i + 1 })
      );
      for (let j = 0; j < nCols; j++) {
        const index = i * nCols + j;
        const cell = /** @type {SVGRectElement} */ (
          svgEl(doc, 'rect', {
            x: colX(box, j),
            y: rowY(box, i),
            width: box.cell,
            height: box.rowHeight,
            role: 'gridcell',
            'aria-colindex': j + 1,
            tabindex: index === state.active ? 0 : -1,
            'data-index': index,
          })
        );
        row.append(cell);
        cells.push(cell);
      }
      rowGroups.push(row);
    }
    svg.append(...rowGroups);
  }
  const valueGroup = /** @type {SVGGElement} */ (
    svgEl(doc, 'g', { class: 'cell-values', 'aria-hidden': 'true' })
  );
  valueGroup.style.fontSize = `${box.valueFont}px`;
  const frame = svgEl(doc, 'rect', {
    class: 'grid-frame',
    x: box.left - 0.5,
    y: box.top - 0.5,
    width: nCols * box.cell + 1,
    height: nRows * box.rowHeight + 1,
    'aria-hidden': 'true',
  });
  const ring = /** @type {SVGRectElement} */ (
    svgEl(doc, 'rect', { class: 'cell-ring', 'aria-hidden': 'true', visibility: 'hidden' })
  );
  const bands = /** @type {SVGGElement} */ (
    svgEl(doc, 'g', { class: 'row-bands', 'aria-hidden': 'true' })
  );
  svg.append(valueGroup, frame, bands, ring);
  /** @type {Grid} */
  const grid = {
    ...{ svg, dense, cells, rowGroups, picture, labels, valueGroup, ring, box, bands },
    ...{ rowTexts: [], colTexts: [], nRows, nCols, hatchId, data, labelKey: '', host },
  };
  fillGrid(grid, data);
  return grid;
}

/**
 * Shows new values (and labels, names and captions) in a grid of the same shape and sizes, in
 * place: no element is made again but the labels that changed, so focus and the active cell stay.
 * @param {Grid} grid
 * @param {HeatmapData} data rows x cols as the grid has
 */
export function fillGrid(grid, data) {
  grid.data = data;
  drawLabels(grid, data);
  const { box, svg, cells, nCols } = grid;
  setIfNew(svg, 'aria-label', grid.dense ? pictureName(data) : data.caption);
  if (grid.picture) fillPicture(grid.picture, grid.host, data);
  else {
    const { values, masked, range } = data;
    const fillMasked = `url(#${grid.hatchId})`;
    for (let index = 0; index < cells.length; index++) {
      const cell = cells[index];
      const value = values[index];
      const isMasked = Boolean(masked?.[index]);
      cell.setAttribute('class', isMasked ? 'cell masked' : 'cell');
      cell.setAttribute('aria-label', describeCell(grid, index));
      cell.setAttribute('data-value', String(value));
      cell.style.fill = isMasked ? fillMasked : heatColour(value, range);
    }
  }
  if (box.valueFont > 0 && !grid.dense) {
    const doc = svg.ownerDocument;
    const texts = [];
    for (let index = 0; index < cells.length; index++) {
      const text = valueText(doc, box, data, Math.floor(index / nCols), index % nCols);
      if (text) texts.push(text);
    }
    grid.valueGroup.replaceChildren(...texts);
  }
}

/**
 * Takes the drawing's picture out of use (its grid is gone from the page).
 * @param {Grid | null} grid
 */
export function releaseGrid(grid) {
  if (grid?.picture) clearPicture(grid.picture);
}

/**
 * The description of cell `index`: its row and column (and title), and its value.
 * @param {Grid} grid
 * @param {number} index row-major
 * @returns {string}
 */
export function describeCell(grid, index) {
  const { data, nCols } = grid;
  const [i, j] = [Math.floor(index / nCols), index % nCols];
  return describe(
    axisNames(data),
    data.title,
    data.rowLabels[i],
    data.colLabels[j],
    data.values[index],
    Boolean(data.masked?.[index]),
    [Boolean(data.unknownRows?.[i]), Boolean(data.unknownCols?.[j])],
  );
}

/**
 * Where cell `index` is drawn, in the SVG's units.
 * @param {Grid} grid
 * @param {number} index row-major
 * @returns {{ x: number, y: number, width: number, height: number }}
 */
export function cellBox(grid, index) {
  const { box, nCols } = grid;
  const [i, j] = [Math.floor(index / nCols), index % nCols];
  return { x: colX(box, j), y: rowY(box, i), width: box.cell, height: box.rowHeight };
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
  if (inside.length === 0 && !bands.firstChild) return;
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
  return Number(/** @type {any} */ (target)?.dataset?.index ?? -1);
}

/**
 * Draws the axis labels again when they, or the tokens flagged unknown, changed; as elements,
 * the rows' names follow them.
 * @param {Grid} grid
 * @param {HeatmapData} data
 */
function drawLabels(grid, data) {
  // A picture without labels has nothing that names its rows or columns.
  if (grid.dense && data.labels === false) return;
  const { rowLabels, colLabels } = data;
  const flags = (list, n) => {
    let text = '';
    for (let k = 0; k < n; k++) text += list?.[k] ? '1' : '0';
    return text;
  };
  const key = [
    rowLabels.join('\u0000'),
    colLabels.join('\u0000'),
    flags(data.unknownRows, rowLabels.length),
    flags(data.unknownCols, colLabels.length),
    data.rowName,
  ].join('\u0001');
  if (key === grid.labelKey) return;
  grid.labelKey = key;
  const { box } = grid;
  const doc = grid.svg.ownerDocument;
  const shown = (labels) => (data.labels === false ? [] : labels);
  const shownCols = data.labels === 'rows' ? [] : shown(colLabels);
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
  grid.labels.replaceChildren(cols.group, rows.group);
  grid.rowTexts = rows.texts;
  grid.colTexts = cols.texts;
  const { rowName } = axisNames(data);
  grid.rowGroups.forEach((row, i) =>
    row.setAttribute('aria-label', quoted(rowName, rowLabels[i], Boolean(data.unknownRows?.[i]))),
  );
}

/**
 * The number printed in cell (i, j), light on the strong end(s) of the colour scale; a masked
 * cell shows the data's maskedText, if it has one, and nothing otherwise.
 * @param {Document} doc
 * @param {import('./layout.js').Box} box
 * @param {HeatmapData} data
 * @param {number} i
 * @param {number} j
 * @returns {SVGElement | null}
 */
function valueText(doc, box, data, i, j) {
  const index = i * data.colLabels.length + j;
  const value = data.values[index];
  const range = data.range ?? [0, 1];
  const place = { x: colX(box, j + 0.5), y: rowY(box, i + 0.5) };
  if (data.masked?.[index]) {
    if (data.maskedText === undefined) return null;
    return svgEl(doc, 'text', { ...place, class: 'cell-value masked-value' }, data.maskedText);
  }
  const t = (value - range[0]) / (range[1] - range[0] || 1);
  const strong = isDiverging(range) ? Math.abs(t - 0.5) > 0.3 : t > 0.5;
  const className = strong ? 'cell-value on-strong' : 'cell-value';
  return svgEl(doc, 'text', { ...place, class: className }, cellText(value, range));
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

/**
 * Sets an attribute only when its value changes: an unchanged drawing is left alone.
 * @param {Element} node
 * @param {string} name
 * @param {string} value
 */
export function setIfNew(node, name, value) {
  if (node.getAttribute(name) !== value) node.setAttribute(name, value);
}
