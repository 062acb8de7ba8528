// Draws the query-key-value widget's results as heatmaps. Seeded projections: X beside W_Q, W_K,
// W_V, then Q, K, V. The identity: one tile for X = Q = K = V and one for the identity. Then the
// scores Q K^T, whose active cell the read-out beside them explains (the dot product, with row i
// of Q and row j of K outlined), three legends (X, Q, K, V share one) and the tables.
import {
  buildLegend,
  buildTables,
  clearHeatmap,
  highlightRows,
  renderHeatmap,
} from '../../views/heatmap/index.js';
import { buildTile, setName } from './markup.js';
import { addWhy } from './why.js';
import { unknownText } from '../shared/unknown-text.js';

/** Rows of the token matrices (X, Q, K, V), in pixels: eight tokens fit the slide. */
const TOKEN_ROW = 14;
/** Rows of the 100-row projections, in pixels. */
const FEATURE_ROW = 0.85;

/**
 * @typedef {import('./math.js').Projected} Projected
 * @typedef {import('./markup.js').QkvParts} QkvParts
 * @typedef {import('./markup.js').NamePiece} NamePiece
 * @typedef {import('../../views/heatmap/index.js').HeatmapData} HeatmapData
 * @typedef {{ tile: HTMLElement, name: HTMLElement, map: HTMLElement }} Tile
 * @typedef {{ kind: string, x: Tile, w: Tile[], qkv: Tile[], wKey: string, wTables: Element[] }}
 *   Layout the tiles on show, made again only when the projection kind changes
 */

/** @type {WeakMap<QkvParts, Layout>} */
const layouts = new WeakMap();

/**
 * @param {QkvParts} parts
 * @param {string[]} tokens
 * @param {Projected} result
 * @param {number} seed the seed W_Q was drawn from (unused for the identity)
 */
export function drawFigures(parts, tokens, result, seed) {
  const { n, d, dk, kind, unknown } = result;
  const doc = parts.root.ownerDocument;
  const tiles = layoutFor(parts, kind);
  const same = kind === 'identity';
  const ranges = {
    value: niceRange([result.x, result.q, result.k, result.v]),
    entry: niceRange(result.w),
    score: niceRange([result.scores]),
  };
  const shared = { readout: parts.readout, legend: false, table: false };
  const features = numbers(d);

  const xData = {
    ...tokenRows(tokens, unknown, features, result.x, ranges.value),
    colName: 'feature',
    title: 'X',
    caption: same
      ? `X, the word vectors, ${n} tokens by ${d} features; with identity projections it is also Q, K and V.`
      : `X, the word vectors: ${n} tokens by ${d} features.`,
  };
  setName(tiles.x.name, same ? [[['X']], [['Q']], [['K']], [['V']]] : [[['X']]], n, d);
  renderHeatmap(tiles.x.map, xData, shared);

  const wData = projectionData(result, ranges.entry);
  const wKey = same ? 'identity' : `${seed}/${dk}`;
  tiles.w.forEach((tile, m) => {
    setName(tile.name, same ? [W('Q'), W('K'), W('V'), [['I']]] : [W('QKV'[m])], d, dk);
    if (tiles.wKey !== wKey) renderHeatmap(tile.map, wData[m], shared);
  });
  if (tiles.wKey !== wKey) {
    // The projections change only with the kind, seed and d_k: their tables are kept until then.
    tiles.wTables = [...buildTables(doc, wData).children].slice(1);
    tiles.wKey = wKey;
  }

  const qkvData = tiles.qkv.map((tile, m) => {
    const name = 'QKV'[m];
    const data = {
      ...tokenRows(tokens, unknown, numbers(dk), [result.q, result.k, result.v][m], ranges.value),
      colName: 'column',
      title: name,
      caption: `${name} = X W_${name}: ${n} tokens by ${dk} columns.`,
    };
    setName(tile.name, [[[name]]], n, dk);
    renderHeatmap(tile.map, data, shared);
    return data;
  });

  const rowsOf = same ? [tiles.x.map, tiles.x.map] : [tiles.qkv[0].map, tiles.qkv[1].map];
  const scoreData = drawScores(parts, tokens, result, ranges.score, rowsOf);

  parts.legends.replaceChildren(
    legend(doc, same ? 'X = Q = K = V' : 'X, Q, K, V', ranges.value, 'value'),
    legend(doc, 'W', ranges.entry, 'entry'),
    legend(doc, 'Scores', ranges.score, 'score'),
  );
  const note = unknownText(tokens, unknown);
  parts.unknown.textContent = note;
  parts.unknown.hidden = note === '';

  const open = parts.tables.querySelector('details')?.open ?? false;
  const tables = buildTables(doc, [xData, ...qkvData, scoreData], 'Show the numbers as tables');
  tables.children[1].after(...tiles.wTables);
  tables.open = open;
  parts.tables.replaceChildren(tables);
}

/**
 * Draws the scores Q K^T. The cell the read-out shows is explained there (its dot product written
 * out), and row i of Q and row j of K are outlined (both in X for the identity, where Q = K = X).
 * @param {QkvParts} parts
 * @param {string[]} tokens
 * @param {Projected} result
 * @param {[number, number]} range
 * @param {HTMLElement[]} rowsOf the heatmaps holding Q and K
 * @returns {HeatmapData}
 */
function drawScores(parts, tokens, result, range, [qMap, kMap]) {
  const { n, unknown } = result;
  const explain = (/** @type {number} */ index) => {
    highlightRows(qMap, []);
    highlightRows(kMap, []);
    if (index >= 0) {
      const [i, j] = [Math.floor(index / n), index % n];
      if (qMap === kMap) highlightRows(qMap, [i, j]);
      else {
        highlightRows(qMap, [i]);
        highlightRows(kMap, [j]);
      }
    }
    addWhy(parts.readout, tokens, result, index);
  };
  explain(-1);
  const data = {
    rowLabels: tokens,
    colLabels: tokens,
    values: result.scores,
    range,
    unknownRows: unknown,
    unknownCols: unknown,
    rowName: 'query',
    colName: 'key',
    valueName: 'score',
    compact: true,
    caption: `The scores Q K^T, ${n} by ${n}: row i, column j is the dot product of query i and key j.`,
  };
  setName(parts.scoresName, [[['Q'], ['K'], ['T', 'sup']]], n, n);
  renderHeatmap(parts.scores, data, {
    readout: parts.readout,
    legend: false,
    table: false,
    onActive: explain,
  });
  return data;
}

/**
 * Empties the figures (nothing to draw).
 * @param {QkvParts} parts
 */
export function clearFigures(parts) {
  for (const map of parts.root.querySelectorAll('.qkv-map')) {
    clearHeatmap(/** @type {HTMLElement} */ (map));
  }
  const tiles = layouts.get(parts);
  if (tiles) tiles.wKey = '';
  parts.tables.replaceChildren();
}

/**
 * The heatmaps of W_Q, W_K and W_V (one for the identity): 100 short rows each, no labels.
 * @param {Projected} result
 * @param {[number, number]} range
 * @returns {HeatmapData[]}
 */
function projectionData(result, range) {
  const { d, dk, kind, seeds } = result;
  const names = kind === 'identity' ? ['W_Q = W_K = W_V = I'] : ['W_Q', 'W_K', 'W_V'];
  return names.map((title, m) => ({
    rowLabels: numbers(d),
    colLabels: numbers(dk),
    values: result.w[m],
    range,
    rowName: 'feature',
    colName: 'column',
    valueName: 'entry',
    between: ', ',
    title,
    compact: true,
    labels: false,
    rowHeight: FEATURE_ROW,
    caption:
      kind === 'identity'
        ? `The projections are the identity, ${d} by ${d}: ones on the diagonal, zeros elsewhere.`
        : `${title}, Glorot-uniform from seed ${seeds[m]}: ${d} features by ${dk} columns.`,
  }));
}

/**
 * The fields every token matrix shares: tokens as rows (the only labels: the caption gives the
 * width, the cells name their column), signed values on the shared scale.
 * @param {string[]} tokens
 * @param {boolean[]} unknown
 * @param {string[]} colLabels
 * @param {ArrayLike<number>} values
 * @param {[number, number]} range
 */
function tokenRows(tokens, unknown, colLabels, values, range) {
  return {
    rowLabels: tokens,
    colLabels,
    values,
    range,
    unknownRows: unknown,
    rowName: 'token',
    valueName: 'value',
    between: ', ',
    compact: true,
    labels: /** @type {'rows'} */ ('rows'),
    rowHeight: TOKEN_ROW,
  };
}

/**
 * @param {number} count
 * @returns {string[]} '0', '1', ... as column or row names
 */
const numbers = (count) => Array.from({ length: count }, (_, c) => String(c));

/**
 * @param {string} sub
 * @returns {NamePiece[]} W with a subscript
 */
const W = (sub) => [['W'], [sub, 'sub']];

/**
 * A colour legend titled with the matrices it colours.
 * @param {Document} doc
 * @param {string} title
 * @param {[number, number]} range
 * @param {string} valueName
 */
function legend(doc, title, range, valueName) {
  const built = buildLegend(doc, { range, valueName }, 0);
  const name = built.querySelector('.legend-title');
  if (name) name.textContent = title;
  return built;
}

/**
 * The tiles for the projection kind, made again only when the kind changes so that the heatmaps
 * keep their focus. Seeded: X and three W tiles, then Q, K, V, the legends beside the scores. The
 * identity: X (which is Q, K and V) alone, then the identity with the legends beside it.
 * @param {QkvParts} parts
 * @param {'identity' | 'random'} kind
 * @returns {Layout}
 */
function layoutFor(parts, kind) {
  const existing = layouts.get(parts);
  if (existing?.kind === kind) return existing;
  const doc = parts.root.ownerDocument;
  const same = kind === 'identity';
  const x = existing?.x ?? buildTile(doc, 'qkv-x');
  const w = Array.from({ length: same ? 1 : 3 }, (_, m) => buildTile(doc, `qkv-w qkv-w-${m}`));
  const qkv = same ? [] : Array.from({ length: 3 }, (_, m) => buildTile(doc, `qkv-p qkv-p-${m}`));
  for (const tile of [...(existing?.w ?? []), ...(existing?.qkv ?? [])]) clearHeatmap(tile.map);
  if (same) {
    parts.inputs.replaceChildren(x.tile);
    parts.projected.replaceChildren(w[0].tile, parts.legends);
  } else {
    parts.inputs.replaceChildren(x.tile, ...w.map((t) => t.tile));
    parts.projected.replaceChildren(...qkv.map((t) => t.tile));
    parts.readout.after(parts.legends);
  }
  parts.result.classList.toggle('qkv-identity', same);
  const layout = { kind, x, w, qkv, wKey: '', wTables: [] };
  layouts.set(parts, layout);
  return layout;
}

/**
 * A colour range [-m, m] around 0, m the largest |value| rounded up to one significant digit
 * (0.236 -> 0.3, 27.4 -> 30), so that each scale is filled and its ends read simply.
 * @param {ArrayLike<number>[]} lists
 * @returns {[number, number]}
 */
export function niceRange(lists) {
  let largest = 0;
  for (const values of lists)
    for (let i = 0; i < values.length; i++) largest = Math.max(largest, Math.abs(values[i]));
  if (!(largest > 0)) return [-1, 1];
  const unit = 10 ** Math.floor(Math.log10(largest));
  const m = Number((Math.ceil(largest / unit - 1e-9) * unit).toPrecision(6));
  return [-m, m];
}
