// Draws the multi-head widget's results: sizes and parameter counts as text, one small heatmap of
// weights per head, the combined output as a heatmap, a shared legend, read-out and tables.
import { buildLegend, buildTables, clearHeatmap, renderHeatmap } from '../views/heatmap/index.js';
import { symmetricRange, weightRange } from './figure-range.js';
import { timed } from './multi-head-timing.js';

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
 * @param {import('./multi-head-markup.js').MultiHeadParts} parts
 * @param {{ dk: number, wo: number, one: number, split: number }} counts
 * @param {number} d
 * @param {number} h
 */
export function drawCounts(parts, counts, d, h) {
  const { dk, one, split } = counts;
  parts.sizes.innerHTML =
    `<var>d</var><sub>model</sub> = ${d}, <var>h</var> = ${h}, so ` +
    `<var>d</var><sub>k</sub> = ${d} / ${h} = <strong class="mh-dk">${dk}</strong>`;
  const wo = `${d}\u00b7${d}`;
  const heads = `${h} ${h === 1 ? 'head' : 'heads'}, width ${dk}`;
  parts.params.innerHTML = `
    <table class="mh-params-table">
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
 * @param {import('./multi-head-markup.js').MultiHeadParts} parts
 * @param {string[]} tokens
 * @param {{ n: number, d: number, dk: number, heads: { weights: Float32Array }[],
 *   output: Float32Array }} result
 */
export function drawFigures(parts, tokens, result) {
  const { d, heads, output } = result;
  const h = heads.length;
  const doc = parts.root.ownerDocument;
  const shared = { readout: parts.readout, legend: false, table: false };
  const range = weightRange(heads.map((head) => head.weights));
  const headData = heads.map(({ weights }, i) => ({
    rowLabels: tokens,
    colLabels: tokens,
    values: weights,
    range,
    rowName: 'query',
    colName: 'key',
    title: `Head ${i + 1}`,
    compact: true,
    labels: false,
    caption: `Head ${i + 1} of ${h}: attention weights, ${tokens.length} by ${tokens.length}; rows are queries, columns keys.`,
  }));
  parts.headsTitle.textContent = `Each head\u2019s weights: query rows, key columns`;
  timed('heads', () =>
    tilesFor(parts, h, tokens.length).forEach((tile, i) =>
      renderHeatmap(tile, headData[i], shared),
    ),
  );

  const outData = {
    rowLabels: tokens,
    colLabels: Array.from({ length: d }, (_, j) => String(j)),
    values: output,
    range: symmetricRange(output),
    rowName: 'token',
    colName: 'feature',
    valueName: 'output value',
    between: ', ',
    compact: true,
    labels: tokens.length <= LABELLED_TOKENS,
    caption: `Combined output (the heads joined, times W O): ${tokens.length} tokens by ${d} features.`,
  };
  parts.outTitle.textContent = `Combined output: one row of ${d} numbers per token`;
  timed('output', () => renderHeatmap(parts.out, outData, { ...shared, legend: true }));

  parts.legend.replaceChildren(buildLegend(doc, headData[0], 0));
  timed('tables', () => {
    const open = parts.tables.querySelector('details')?.open ?? false;
    const tables = buildTables(doc, [...headData, outData], 'Show the numbers as tables');
    tables.open = open;
    parts.tables.replaceChildren(tables);
  });
}

/**
 * Empties the figures (nothing to draw).
 * @param {import('./multi-head-markup.js').MultiHeadParts} parts
 */
export function clearFigures(parts) {
  for (const tile of parts.grid.querySelectorAll('.mh-tile-map')) clearHeatmap(tile);
  clearHeatmap(parts.out);
}

/**
 * The small-multiple containers, one per head, made again only when the count changes. They sit
 * in one row (up to 4 heads) or two, or in more rows when the figure is too narrow for tiles of
 * about a pixel per token.
 * @param {import('./multi-head-markup.js').MultiHeadParts} parts
 * @param {number} h
 * @param {number} n tokens
 * @returns {HTMLElement[]}
 */
function tilesFor(parts, h, n) {
  const wanted = h <= 4 ? h : Math.ceil(h / 2);
  const width = parts.grid.parentElement?.clientWidth ?? 0;
  const fit = Math.floor((width + TILE_GAP) / (n + TILE_MARGIN + TILE_GAP));
  parts.grid.style.setProperty(
    '--mh-cols',
    String(width > 0 ? Math.max(1, Math.min(wanted, fit)) : wanted),
  );
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
