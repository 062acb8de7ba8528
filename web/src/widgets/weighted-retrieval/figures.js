// Draws the weighted-retrieval widget's results: per scoring function (or for the hand-set
// scores) the weights as bars on a shared 0-to-1 axis, their sum as the engine's numbers add up,
// the scores as a table and the context vector as a one-row heatmap; one legend, read-out and set
// of tables for the context vectors.
import { clearBars, renderBars } from '../../views/charts/bars.js';
import {
  buildLegend,
  buildTables,
  clearHeatmap,
  formatWeight,
  renderHeatmap,
} from '../../views/heatmap/index.js';
import { el } from '../../views/heatmap/dom.js';
import { symmetricRange } from '../shared/figure-range.js';
import { UNKNOWN_MARK, markUnknown } from '../shared/unknown-text.js';
import { KIND_TEXT } from './markup.js';
import { KINDS, weightSum } from './math.js';

/** The room beside the bars' plot (the value axis and the margin after it): the scores table's
 * first column and right margin (weighted-retrieval.css). */
const SCORE_AXIS_PX = 66;

/** The most unknown tokens named in the note under the figure. */
const MAX_LISTED = 6;

/**
 * @typedef {import('./markup.js').RetrievalParts} Parts
 * @typedef {import('./markup.js').CardParts} CardParts
 * @typedef {import('./math.js').Retrieval} Retrieval
 * @typedef {{ tokens: string[], unknown: boolean[], barHeight: number }} Source
 */

/**
 * A score as the table writes it: `digits` decimals (one fewer from 10 up, so that it fits under
 * its bar), a true minus sign.
 * @param {number} value
 * @param {number} [digits]
 * @returns {string}
 */
export function formatScore(value, digits = 2) {
  const big = Math.abs(value) >= 10 - 0.5 * 10 ** -digits;
  const text = Math.abs(value).toFixed(Math.max(0, digits - (big ? 1 : 0)));
  return value < 0 && Number(text) !== 0 ? `\u2212${text}` : text;
}

/**
 * The sum of the weights as the figure writes it: six decimals.
 * @param {number} sum
 * @returns {string}
 */
export function formatSum(sum) {
  return sum.toFixed(6);
}

/**
 * Draws the three scoring functions side by side.
 * @param {Parts} parts
 * @param {Source} source
 * @param {Record<import('./math.js').Kind, Retrieval>} results
 */
export function drawCompare(parts, source, results) {
  const range = symmetricRange(KINDS.flatMap((kind) => Array.from(results[kind].context)));
  const maps = KINDS.map((kind) => {
    const card = parts.cards[kind];
    drawCard(card, kind, source, results[kind]);
    drawScores(card.scores, kind, source, results[kind].scores);
    return contextData(kind, results[kind].context, range);
  });
  KINDS.forEach((kind, i) => drawContext(parts, parts.cards[kind], maps[i]));
  drawShared(parts, maps);
  clearCard(parts.cards.drag);
}

/**
 * Draws the weights and context of the hand-set scores.
 * @param {Parts} parts
 * @param {Source} source
 * @param {Retrieval} result
 */
export function drawDrag(parts, source, result) {
  const card = parts.cards.drag;
  drawCard(card, 'drag', source, result);
  const map = contextData('drag', result.context, symmetricRange(result.context));
  drawContext(parts, card, map);
  drawShared(parts, [map]);
  for (const kind of KINDS) clearCard(parts.cards[kind]);
}

/**
 * Empties every figure (nothing to draw).
 * @param {Parts} parts
 */
export function clearFigures(parts) {
  for (const card of Object.values(parts.cards)) clearCard(card);
  parts.legend.replaceChildren();
  parts.tables.replaceChildren();
}

/**
 * The line that names the decoder state.
 * @param {Parts} parts
 * @param {string} query the token whose vector is s
 * @param {boolean} unknown
 */
export function drawQueryLine(parts, query, unknown) {
  const doc = parts.root.ownerDocument;
  const word = doc.createElement('strong');
  word.className = unknown ? 'wr-query-word unknown' : 'wr-query-word';
  word.textContent = query;
  parts.queryLine.replaceChildren(
    doc.createTextNode('Decoder state s: the word vector of '),
    word,
    doc.createTextNode(unknown ? ' (not in the vocabulary).' : '.'),
  );
}

/**
 * The note that names the words outside the vocabulary, hidden when there are none: the query
 * word, if so, then the source tokens, then what such a word gets (which the deck leaves to
 * screen readers).
 * @param {HTMLElement} line
 * @param {string[]} tokens the source tokens
 * @param {boolean[]} unknown per source token
 * @param {string} [query] the query word, when it is not in the vocabulary
 */
export function drawUnknown(line, tokens, unknown, query) {
  const words = [...new Set(tokens.filter((_, j) => unknown[j]))];
  const count = words.length + (query === undefined ? 0 : 1);
  line.hidden = count === 0;
  if (line.hidden) {
    line.replaceChildren();
    return;
  }
  const doc = line.ownerDocument;
  const shown = words.slice(0, MAX_LISTED).map((word) => `\u201c${word}\u201d`);
  const more = words.length - shown.length;
  if (more > 0) shown.push(`${more} more`);
  if (query !== undefined) shown.unshift(`the query \u201c${query}\u201d`);
  const list = shown.length > 1 ? `${shown.slice(0, -1).join(', ')} and ${shown.at(-1)}` : shown[0];
  const first = doc.createElement('span');
  const mark = words.length > 0 ? ` (marked ${UNKNOWN_MARK})` : '';
  first.textContent = `Not in the vocabulary${mark}: ${list}.`;
  const rest = doc.createElement('span');
  rest.className = 'wr-unknown-more deck-hidden';
  rest.textContent = ` ${count === 1 ? 'It stands' : 'Each stands'} in with a vector of its own that carries no meaning.`;
  line.replaceChildren(first, rest);
}

/**
 * The bars and the sum of one figure.
 * @param {CardParts} card
 * @param {string} kind
 * @param {Source} source
 * @param {Retrieval} result
 */
function drawCard(card, kind, source, result) {
  const { tokens, unknown, barHeight } = source;
  const name = KIND_TEXT[kind].name;
  renderBars(card.bars, {
    caption: `${name}: the weight \u03b1 of each source token; the weights add up to 1.`,
    labels: tokens.map((token, j) => markUnknown(token, unknown[j])),
    values: Array.from(result.weights),
    labelName: 'token',
    valueName: 'weight \u03b1',
    domain: [0, 1],
    format: formatWeight,
    height: barHeight,
  });
  const sum = weightSum(result.weights);
  card.sum.dataset.sum = String(sum);
  card.sum.innerHTML =
    '<span aria-hidden="true">\u03a3 \u03b1<sub>j</sub> =</span>' +
    '<span class="visually-hidden">The weights add up to</span> ' +
    `<strong class="wr-sum-value">${formatSum(sum)}</strong>`;
}

/**
 * The scores as a table under the bars, one column per source token, each under its bar; the
 * tokens head the columns (for screen readers: the bars above show them).
 * @param {HTMLElement} container
 * @param {string} kind
 * @param {Source} source
 * @param {ArrayLike<number>} scores (n)
 */
function drawScores(container, kind, source, scores) {
  const doc = container.ownerDocument;
  const name = KIND_TEXT[kind].name;
  // Two decimals where a column has room for them, else one.
  const room = (container.clientWidth - SCORE_AXIS_PX) / Math.max(1, scores.length);
  const digits = room >= 44 ? 2 : 1;
  const table = el(doc, 'table', { class: 'wr-scores-table' });
  const columns = el(doc, 'colgroup');
  columns.append(el(doc, 'col', { class: 'wr-scores-first' }));
  const head = el(doc, 'tr');
  head.append(el(doc, 'th', { scope: 'col' }, 'token'));
  source.tokens.forEach((token, j) => {
    const attrs = source.unknown[j] ? { scope: 'col', class: 'unknown' } : { scope: 'col' };
    head.append(el(doc, 'th', attrs, token));
  });
  const row = el(doc, 'tr');
  const rowHead = el(doc, 'th', { scope: 'row' });
  rowHead.innerHTML = '<span class="visually-hidden">score </span>e<sub>j</sub>';
  row.append(rowHead);
  for (let j = 0; j < scores.length; j++) {
    row.append(el(doc, 'td', { 'data-value': scores[j] }, formatScore(scores[j], digits)));
  }
  // On a slide the bars' labels just above name the same tokens (deck-hidden: deck-figures.css).
  const thead = el(doc, 'thead', { class: 'wr-scores-tokens deck-hidden' });
  thead.append(head);
  const tbody = el(doc, 'tbody');
  tbody.append(row);
  const caption = el(doc, 'caption', { class: 'visually-hidden' }, `${name}: each token's score`);
  table.append(caption, columns, thead, tbody);
  container.replaceChildren(table);
}

/**
 * What the heatmap view needs to draw one context vector as a single row.
 * @param {string} kind
 * @param {ArrayLike<number>} context (d)
 * @param {[number, number]} range
 * @returns {import('../../views/heatmap/index.js').HeatmapData}
 */
function contextData(kind, context, range) {
  const d = context.length;
  const name = KIND_TEXT[kind].name;
  return {
    rowLabels: ['c'],
    colLabels: Array.from({ length: d }, (_, k) => String(k)),
    values: context,
    range,
    title: name,
    rowName: 'vector',
    colName: 'dimension',
    valueName: 'context value',
    between: ', ',
    compact: true,
    caption: `${name}: the context vector c, the weighted sum of the encoder states, ${d} dimensions.`,
  };
}

/**
 * @param {Parts} parts
 * @param {CardParts} card
 * @param {import('../../views/heatmap/index.js').HeatmapData} data
 */
function drawContext(parts, card, data) {
  renderHeatmap(card.context, data, { readout: parts.readout, legend: false, table: false });
}

/**
 * The legend of the context vectors and their tables, drawn once for all.
 * @param {Parts} parts
 * @param {import('../../views/heatmap/index.js').HeatmapData[]} maps
 */
function drawShared(parts, maps) {
  const doc = parts.root.ownerDocument;
  parts.legend.replaceChildren(buildLegend(doc, maps[0], 0));
  const open = parts.tables.querySelector('details')?.open ?? false;
  const label = maps.length > 1 ? 'Show the context vectors as tables' : 'Show c as a table';
  const tables = buildTables(doc, maps, label);
  tables.open = open;
  parts.tables.replaceChildren(tables);
}

/**
 * @param {CardParts} card
 */
function clearCard(card) {
  clearBars(card.bars);
  clearHeatmap(card.context);
  card.sum.replaceChildren();
  delete card.sum.dataset.sum;
  card.scores?.replaceChildren();
}
