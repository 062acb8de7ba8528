// Draws the multi-head widget's results: sizes and parameter counts as text, one small heatmap of
// weights per head, the combined output as a heatmap, a shared legend, read-out and tables.
import {
  buildLegend,
  clearHeatmap,
  clearTables,
  renderHeatmap,
  renderHeatmaps,
  renderTables,
} from '../../views/heatmap/index.js';
import { symmetricRange, weightRange } from '../shared/figure-range.js';
import { setLine } from '../shared/line.js';
import { timed } from './timing.js';
import { unknownText } from '../shared/unknown-text.js';

const number = new Intl.NumberFormat('en');

/**
 * Up to this many tokens the output grid has its axis labels; beyond, its rows are too thin for
 * them (pointing at a cell, the read-out and the table still name its token and feature).
 */
const LABELLED_TOKENS = 16;
/** A tile's width beyond one pixel per token (its grid's margins), and the gap between tiles. */
const TILE_MARGIN = 12;
const TILE_GAP = 8;
/**
 * Where the figure has a height of its own (the deck's right-hand column), the output's rows and
 * the heads' tiles shrink until it fits (fitToColumn), down to these sizes in pixels: a tile's
 * side, a row, and a row tall enough for its label.
 */
const MIN_TILE = 40;
const MIN_ROW = 2;
const LABEL_ROW = 10;
/** How far the figure may overflow its column and still fit, in pixels. */
const FITS = 2;

/**
 * @param {import('./markup.js').MultiHeadParts} parts
 * @param {{ dk: number, wo: number, one: number, split: number }} counts
 * @param {number} d
 * @param {number} h
 */
export function drawCounts(parts, counts, d, h) {
  // The counts follow d and h only: typing leaves them (and their live regions) alone.
  const key = `${d}/${h}`;
  if (parts.sizes.dataset.key === key) return;
  parts.sizes.dataset.key = key;
  const { dk, one, split } = counts;
  parts.sizes.innerHTML =
    `<var>d</var><sub>model</sub> = ${d}, <var>h</var> = ${h}, so ` +
    `<var>d</var><sub>k</sub> = ${d} / ${h} = <strong class="mh-dk">${dk}</strong>`;
  const wo = `${d}\u00b7${d}`;
  const heads = `${h} ${h === 1 ? 'head' : 'heads'}, width ${dk}`;
  parts.params.innerHTML = `
    <table class="widget-table mh-params-table">
      <caption>Parameters (weights only): <strong class="mh-verdict">${
        one === split ? 'equal' : 'different'
      }</strong></caption>
      <tr><th scope="row">1 head, width ${d}</th><td>3\u00b7${d}\u00b7${d} + ${wo}</td>
        <td class="mh-count-one">${number.format(one)}</td></tr>
      <tr><th scope="row">${heads}</th><td>${h}\u00b73\u00b7${d}\u00b7${dk} + ${wo}</td>
        <td class="mh-count-split">${number.format(split)}</td></tr>
    </table>`;
}

/**
 * @param {import('./markup.js').MultiHeadParts} parts
 * @param {string[]} tokens
 * @param {ReturnType<typeof import('./math.js').multiHead>} result
 */
export function drawFigures(parts, tokens, result) {
  const { d, heads, output, unknown } = result;
  const h = heads.length;
  const doc = parts.root.ownerDocument;
  const shared = { readout: parts.readout, legend: false, table: false };
  const range = weightRange(heads.map((head) => head.weights));
  const headData = heads.map(({ weights }, i) => ({
    rowLabels: tokens,
    colLabels: tokens,
    values: weights,
    unknownRows: unknown,
    unknownCols: unknown,
    range,
    rowName: 'query',
    colName: 'key',
    title: `Head ${i + 1}`,
    compact: true,
    labels: false,
    caption: `Head ${i + 1} of ${h}: attention weights, ${tokens.length} by ${tokens.length}; rows are queries, columns keys.`,
  }));
  setText(parts.headsTitle, `Each head\u2019s weights: query rows, key columns`);
  const tiles = tilesFor(parts, h, tokens.length);
  setLine(parts.unknown, unknownText(tokens, unknown));
  const lines = `${parts.status.hidden}/${parts.unknown.hidden}`;
  const fit = fitFor(parts, `${h}/${tokens.length}/${lines}`);

  const outData = {
    rowLabels: tokens,
    colLabels: Array.from({ length: d }, (_, j) => String(j)),
    values: output,
    unknownRows: unknown,
    range: symmetricRange(output),
    rowName: 'token',
    colName: 'feature',
    valueName: 'output value',
    between: ', ',
    compact: true,
    labels: tokens.length <= LABELLED_TOKENS && !(fit.row > 0 && fit.row < LABEL_ROW),
    rowHeight: fit.row > 0 ? fit.row : undefined,
    caption: `Combined output (the heads joined, times W O): ${tokens.length} tokens by ${d} features.`,
  };
  setText(parts.outTitle, `Combined output: one row of ${d} numbers per token`);
  // In one go, so that the page is laid out once for all of them.
  timed('heatmaps', () =>
    renderHeatmaps([
      ...tiles.map((tile, i) => ({ container: tile, data: headData[i], options: shared })),
      { container: parts.out, data: outData, options: { ...shared, legend: true } },
    ]),
  );

  const legendKey = String(range);
  if (parts.legend.dataset.range !== legendKey) {
    parts.legend.replaceChildren(buildLegend(doc, headData[0], 0));
    parts.legend.dataset.range = legendKey;
  }
  timed('tables', () =>
    renderTables(parts.tables, [...headData, outData], 'Show the numbers as tables'),
  );
  if (!fit.done) {
    timed('fit', () =>
      fitToColumn(parts, fit, tokens.length, (row) => {
        const labels = tokens.length <= LABELLED_TOKENS && row >= LABEL_ROW;
        const data = { ...outData, rowHeight: row, labels };
        renderHeatmap(parts.out, data, { ...shared, legend: true });
      }),
    );
  }
}

/**
 * @typedef {{ key: string, tile: number, row: number, done: boolean }} Fit the largest tile side
 *   and the output's row height (0: as they come) that fit the figure to its column, worked out
 *   once per head count, token count and size of the column
 */

/**
 * The fit of the figure to its column: kept while nothing it depends on changes (typing keeps
 * it), else started again from the natural sizes.
 * @param {import('./markup.js').MultiHeadParts} parts
 * @param {string} key what else the figure's height depends on
 * @returns {Fit}
 */
function fitFor(parts, key) {
  const { output } = parts;
  const sized = `${key}/${output.clientWidth}/${output.ownerDocument.defaultView?.innerHeight}`;
  if (parts.fit?.key !== sized) {
    parts.fit = { key: sized, tile: 0, row: 0, done: false };
    parts.grid.style.removeProperty('--mh-tile-max');
  }
  return parts.fit;
}

/**
 * Where the figure's column has a height of its own and the figure is taller (down to the tables'
 * disclosure, whose open tables may scroll), takes the excess out of the output's rows (while
 * they keep room for their labels, if they have any), then out of the heads' tiles (the slide's
 * subject), then out of the output's rows again, until it fits or all are at their smallest.
 * @param {import('./markup.js').MultiHeadParts} parts
 * @param {Fit} fit updated with the sizes chosen
 * @param {number} n tokens: the output's rows
 * @param {(row: number) => void} drawOutput draws the output with rows `row` pixels tall
 */
function fitToColumn(parts, fit, n, drawOutput) {
  fit.done = true;
  const over = () => {
    const { output } = parts;
    const end = parts.tables.querySelector('summary') ?? parts.tables;
    const top = output.getBoundingClientRect().top - output.scrollTop;
    return end.getBoundingClientRect().bottom - top - output.clientHeight;
  };
  let excess = over();
  const frame = parts.out.querySelector('svg .grid-frame');
  let row = (Number(frame?.getAttribute('height') ?? 1) - 1) / n;
  /** @param {number} floor the smallest row height of this pass */
  const shrinkRows = (floor) => {
    // Labels that no longer fit go, which frees their width for the cells (and so changes the
    // rows' height): a few passes may be needed.
    for (let pass = 0; pass < 3 && excess > FITS && row > floor; pass++) {
      row = Math.max(floor, Math.floor((row - excess / n) * 4) / 4);
      fit.row = row;
      drawOutput(row);
      excess = over();
    }
  };
  // Rows with labels keep room for them at first; rows without may shrink to their smallest.
  shrinkRows(n <= LABELLED_TOKENS ? LABEL_ROW : MIN_ROW);
  const svgs = [...parts.grid.querySelectorAll('.mh-tile svg')];
  const side = svgs[0]?.getBoundingClientRect().height ?? 0;
  const rows = new Set(svgs.map((svg) => Math.round(svg.getBoundingClientRect().top))).size;
  if (excess > FITS && rows > 0 && side > MIN_TILE) {
    fit.tile = Math.max(MIN_TILE, Math.floor(side - excess / rows));
    parts.grid.style.setProperty('--mh-tile-max', `${fit.tile}px`);
    excess = over();
  }
  shrinkRows(MIN_ROW);
}

/**
 * Empties the figures (nothing to draw).
 * @param {import('./markup.js').MultiHeadParts} parts
 */
export function clearFigures(parts) {
  for (const tile of parts.grid.querySelectorAll('.mh-tile-map')) {
    clearHeatmap(/** @type {HTMLElement} */ (tile));
  }
  clearHeatmap(parts.out);
  clearTables(parts.tables);
  delete parts.legend.dataset.range;
  parts.fit = null;
  setLine(parts.unknown, '');
}

/**
 * The small-multiple containers, one per head, made again only when the count changes. They sit
 * in one row (up to 5 heads) or two, or in more rows when the figure is too narrow for tiles of
 * about a pixel per token.
 * @param {import('./markup.js').MultiHeadParts} parts
 * @param {number} h
 * @param {number} n tokens
 * @returns {HTMLElement[]}
 */
function tilesFor(parts, h, n) {
  const wanted = h <= 5 ? h : Math.ceil(h / 2);
  const width = parts.grid.parentElement?.clientWidth ?? 0;
  const fit = Math.floor((width + TILE_GAP) / (n + TILE_MARGIN + TILE_GAP));
  const cols = String(width > 0 ? Math.max(1, Math.min(wanted, fit)) : wanted);
  // Set only when it changes: a style change makes the browser lay the page out again.
  if (parts.grid.style.getPropertyValue('--mh-cols') !== cols) {
    parts.grid.style.setProperty('--mh-cols', cols);
  }
  const existing = /** @type {HTMLElement[]} */ ([...parts.grid.querySelectorAll('.mh-tile-map')]);
  if (existing.length === h) return existing;
  const doc = parts.root.ownerDocument;
  const tiles = Array.from({ length: h }, (_, i) => {
    const tile = doc.createElement('div');
    tile.className = 'mh-tile';
    const name = doc.createElement('p');
    name.className = 'mh-tile-name';
    name.textContent = `Head ${i + 1}`;
    const map = doc.createElement('div');
    map.className = 'mh-tile-map';
    tile.append(name, map);
    return tile;
  });
  parts.grid.replaceChildren(...tiles);
  return tiles.map((tile) => /** @type {HTMLElement} */ (tile.lastElementChild));
}

/**
 * Sets an element's text only when it changes: new text makes the browser lay the page out again.
 * @param {HTMLElement} node
 * @param {string} text
 */
function setText(node, text) {
  if (node.textContent !== text) node.textContent = text;
}
