// Draws the cross-attention widget's result: the title, the line of shapes from the engine's
// result, the weights as a heatmap (query rows, key columns) with its legend, read-out and table,
// and a note on the grid's shape that names the tokens outside the vocabulary.
import { buildTables, clearHeatmap, renderHeatmap } from '../../views/heatmap/index.js';
import {
  axesText,
  axisNames,
  captionText,
  shapeName,
  shapeNote,
  shapesText,
  titleText,
  unknownNote,
} from './text.js';

/** Up to this many columns, the deck draws the grid narrower (deck.css). */
const FEW_COLUMNS = 8;

/**
 * @param {import('./markup.js').CrossParts} parts
 * @param {import('./math.js').Mode} mode
 * @param {import('./text.js').Sides} sides which sentence asks and which answers (sidesOf(mode))
 * @param {string[]} queryTokens the rows, n_q
 * @param {string[]} keyTokens the columns, n_k
 * @param {import('./math.js').CrossResult} result
 */
export function drawFigure(parts, mode, sides, queryTokens, keyTokens, result) {
  const { nq, nk, weights, unknownQueries, unknownKeys } = result;
  parts.result.hidden = false;
  parts.result.dataset.mode = mode;
  parts.title.textContent = titleText(sides);
  parts.shape.textContent = shapeName(nq, nk);
  parts.shapes.textContent = shapesText(sides, result);
  parts.axes.textContent = axesText(sides);
  // Few columns need no more than a narrow grid, which leaves the slide room for the notes.
  parts.figure.classList.toggle('xa-few', nk <= FEW_COLUMNS);
  const data = {
    rowLabels: queryTokens,
    colLabels: keyTokens,
    values: weights,
    unknownRows: unknownQueries,
    unknownCols: unknownKeys,
    ...axisNames(sides),
    caption: captionText(sides, nq, nk),
  };
  renderHeatmap(parts.figure, data, { readout: parts.readout, table: false });
  const open = parts.tables.querySelector('details')?.open ?? false;
  const tables = buildTables(parts.root.ownerDocument, data);
  tables.open = open;
  parts.tables.replaceChildren(tables);
  parts.why.textContent = shapeNote(sides, nq, nk);
  const self = sides.queries === sides.keys;
  const tokens = self ? queryTokens : [...queryTokens, ...keyTokens];
  const unknown = self ? unknownQueries : [...unknownQueries, ...unknownKeys];
  parts.unknown.textContent = unknownNote(tokens, unknown);
}

/**
 * Hides and empties the figure (nothing to draw).
 * @param {import('./markup.js').CrossParts} parts
 */
export function clearFigure(parts) {
  parts.result.hidden = true;
  clearHeatmap(parts.figure);
  parts.tables.replaceChildren();
}
