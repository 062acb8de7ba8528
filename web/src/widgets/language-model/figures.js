// Draws the language-model widget from one run of the model: the heads as small heatmaps (a row
// per layer, a column per head, each named with its measured kind and key score), the chosen head
// large with the heatmap view's read-out, legend and table, the line saying where the read-out's
// token looks most, the live induction score on a repeated run, and the next words as bars.
import {
  buildLegend,
  clearHeatmap,
  clearTables,
  gridHeight,
  renderHeatmap,
  renderHeatmaps,
  renderTables,
} from '../../views/heatmap/index.js';
import {
  INDUCTION_THRESHOLD,
  formatProbability,
  formatScore,
  headName,
  inductionScore,
  keyScore,
  kindWords,
  nextWordLabel,
  readoutText,
  repeatedRunLength,
  rowFor,
  scoreName,
  strongestKey,
  unknownText,
} from './math.js';
import { setLine } from '../shared/line.js';
import { timedStep } from '../shared/redraw-timing.js';

/**
 * Above this many tokens the large head's cells are too small for numbers and labels: it is drawn
 * compact, without axis labels; pointing at a cell (or its table) still names its tokens.
 */
const FULL_SIZE_TOKENS = 16;
/** The narrowest the large head is made to fit a column's height, in pixels. */
const MIN_MAP = 150;
/**
 * The room the figure leaves free at the bottom of a column with a height of its own, in pixels:
 * a slide keeps 8 px to spare in its frame (CONTRIBUTING.md), and a pixel more for rounding.
 */
const SPARE = 9;

/**
 * @typedef {import('./markup.js').LanguageModelParts} LanguageModelParts
 * @typedef {import('../../engine/index.js').LanguageModelRun} Run
 * @typedef {import('../../engine/index.js').HeadInfo} HeadInfo
 */

/**
 * Draws everything from the run, with head `chosen` large.
 * @param {LanguageModelParts} parts
 * @param {Run} run
 * @param {number} chosen index (layer-major) of the head drawn large
 * @param {{ layers: number, heads: number }} sizes
 * @param {unknown} word the token whose row the read-out states (else the last token)
 */
export function drawFigures(parts, run, chosen, sizes, word) {
  const { tokens } = run;
  const n = tokens.length;
  const unknown = run.known.map((known) => !known);
  const masked = causalMask(n);
  const doc = parts.root.ownerDocument;
  const data = run.heads.map((head) => headData(head, tokens, unknown, masked));
  // The fit is read first, before anything below changes the page: reading the column's width
  // then lays the page out once, shared with the small heads' widths, rather than again midway.
  // What it depends on is worked out from the run, as the lines below will show it.
  const unknownLine = unknownText(tokens, run.known);
  const lines = `${parts.status.hidden}/${repeatedRunLength(tokens) === 0}/${unknownLine === ''}`;
  const fit = fitFor(parts, `${n}/${lines}`);

  const tiles = tilesFor(parts, run.heads, sizes.heads);
  const large = {
    ...data[chosen],
    ...(n > FULL_SIZE_TOKENS ? { compact: true, labels: false } : {}),
    caption: `${data[chosen].caption} Each row sums to 1.`,
  };
  const options = { readout: parts.readout, legend: false, table: false };
  const shared = { readout: parts.tileReadout, legend: false, table: false };
  // Every head, the large one too, in one go: their widths are read before any is drawn, so the
  // page is laid out once for all of them.
  timedStep('language-model', 'heatmaps', () =>
    renderHeatmaps([
      ...tiles.map((tile, i) => ({
        container: /** @type {HTMLElement} */ (tile.querySelector('.lm-tile-map')),
        // Pictures: the tiles are only looked at (inert, hidden from screen readers); the large
        // head is where cells are read.
        data: { ...data[i], compact: true, labels: false, picture: true },
        options: shared,
      })),
      { container: parts.map, data: large, options },
    ]),
  );

  // Then the words around them.
  setText(
    parts.headsTitle,
    `The model\u2019s ${run.heads.length} heads, a row for each of its ${sizes.layers} layers: ` +
      'choose one to draw it large.',
  );
  run.heads.forEach((head, i) => markTile(tiles[i], head, i === chosen));
  const head = run.heads[chosen];
  const name = headName(head);
  const { score, value } = keyScore(head);
  setText(
    parts.chosenTitle,
    `Head ${name}: ${kindWords(head.kind)} (${scoreName(score)} score ${formatScore(value)})`,
  );
  drawStrongest(parts, head, tokens, rowFor(tokens, word));
  drawInduction(parts, head, tokens);
  setLine(parts.unknown, unknownLine);
  drawNext(parts, run.next);

  // How the large head fits its column depends on all of the above: measured after it.
  if (!fit.done) fitToColumn(parts, fit, large, () => renderHeatmap(parts.map, large, options));
  // The scale is 0 to 1 for every text; only the swatch of later tokens comes and goes with n = 1.
  const legendKey = String(n > 1);
  if (parts.legend.dataset.key !== legendKey) {
    parts.legend.replaceChildren(buildLegend(doc, large, parts.legendId));
    parts.legend.dataset.key = legendKey;
  }
  renderTables(parts.tables, large, 'Show the numbers as a table');
}

/**
 * Empties the figures (nothing to draw).
 * @param {LanguageModelParts} parts
 */
export function clearFigures(parts) {
  for (const map of parts.grid.querySelectorAll('.lm-tile-map')) {
    clearHeatmap(/** @type {HTMLElement} */ (map));
  }
  clearHeatmap(parts.map);
  clearTables(parts.tables);
  parts.next.replaceChildren();
  parts.nextFigure.hidden = true;
  parts.fit = null;
  setLine(parts.unknown, '');
}

/**
 * @typedef {{ key: string, width: number, done: boolean }} Fit the width of the large head's
 *   column (0: as the figure gives it) at which the figure fits its own, worked out once per token
 *   count, lines shown and size of the column
 */

/**
 * The fit of the large head to its column: kept while nothing it depends on changes (typing more
 * of the same length keeps it), else started again from the natural size.
 * @param {LanguageModelParts} parts
 * @param {string} key what else the figure's height depends on
 * @returns {Fit}
 */
function fitFor(parts, key) {
  const { output } = parts;
  const sized = `${key}/${output.clientWidth}/${output.ownerDocument.defaultView?.innerHeight}`;
  if (parts.fit?.key !== sized) {
    parts.fit = { key: sized, width: 0, done: false };
    parts.large.style.removeProperty('--lm-map-max');
  }
  return parts.fit;
}

/**
 * Where the figure's column has a height of its own (the deck's right-hand column) and the figure
 * is taller (with SPARE pixels free), narrows the large head until the figure fits: to the widest
 * container whose grid, as the heatmap view lays it out, is shorter by the excess. One redraw
 * does it but where the grid is not what makes the figure tall; a few more passes are the
 * safeguard. Not below MIN_MAP.
 * @param {LanguageModelParts} parts
 * @param {Fit} fit updated with the width chosen
 * @param {import('../../views/heatmap/index.js').HeatmapData} large what the large head shows
 * @param {() => void} drawLarge draws the large head at the size its container gives
 */
function fitToColumn(parts, fit, large, drawLarge) {
  fit.done = true;
  const { output, map } = parts;
  // Only a column that scrolls has a height of its own; elsewhere the figure takes what it needs.
  const view = output.ownerDocument.defaultView;
  if (!view || view.getComputedStyle(output).overflowY === 'visible') return;
  // The column's full height, read once: a figure shorter than the column makes the box its own
  // height, so the box is stretched to the column for that one reading.
  output.style.height = '100%';
  const limit = output.clientHeight - SPARE;
  output.style.removeProperty('height');
  const over = () => output.scrollHeight - limit;
  for (let pass = 0, excess = over(); pass < 4 && excess > 0; pass++, excess = over()) {
    const width = map.clientWidth;
    if (width <= MIN_MAP) return;
    const narrower = widestFitting(large, width, gridHeight(large, width) - excess);
    // The grid is not what is too tall (or cannot get shorter): nothing to gain by narrowing.
    if (narrower >= width) return;
    fit.width = narrower;
    parts.large.style.setProperty('--lm-map-max', `${fit.width}px`);
    drawLarge();
  }
}

/**
 * A container from MIN_MAP to `below` - 1 pixels wide in which the grid is at most `height` tall
 * (MIN_MAP when none is), found by halving: a grid's height grows with its width but for a step
 * down where its column labels turn from upright to slanted, so it is the widest, or near that step
 * one a little narrower.
 * @param {import('../../views/heatmap/index.js').HeatmapData} data
 * @param {number} below the container's width now, more than MIN_MAP
 * @param {number} height the most the grid may take, in pixels
 * @returns {number}
 */
function widestFitting(data, below, height) {
  let [low, high] = [MIN_MAP, below - 1];
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if (gridHeight(data, middle) <= height) low = middle;
    else high = middle - 1;
  }
  return low;
}

/**
 * What the heatmap view needs to draw one head's weights.
 * @param {HeadInfo & { weights: Float32Array }} head
 * @param {string[]} tokens
 * @param {boolean[]} unknown
 * @param {boolean[]} masked
 * @returns {import('../../views/heatmap/index.js').HeatmapData}
 */
function headData(head, tokens, unknown, masked) {
  const n = tokens.length;
  const name = headName(head);
  return {
    rowLabels: tokens,
    colLabels: tokens,
    values: head.weights,
    masked,
    unknownRows: unknown,
    unknownCols: unknown,
    rowName: 'query',
    colName: 'key',
    title: `Head ${name}`,
    caption:
      `Head ${name} of the trained model (${kindWords(head.kind)}): attention weights, ${n} by ` +
      `${n}; rows are queries, columns keys, and no token looks at the tokens after it.`,
  };
}

/** The causal mask last made, kept while the token count stays. */
let mask = { n: -1, cells: /** @type {boolean[]} */ ([]) };

/**
 * @param {number} n
 * @returns {boolean[]} (n, n) row-major: true above the diagonal (a later token)
 */
function causalMask(n) {
  if (mask.n !== n) {
    const cells = Array.from({ length: n * n }, (_, k) => k % n > Math.floor(k / n));
    mask = { n, cells };
  }
  return mask.cells;
}

/**
 * The tiles, one per head (made again only when the heads change), in a grid of `perLayer`
 * columns: a row per layer.
 * @param {LanguageModelParts} parts
 * @param {HeadInfo[]} heads
 * @param {number} perLayer
 * @returns {HTMLElement[]}
 */
function tilesFor(parts, heads, perLayer) {
  const existing = /** @type {HTMLElement[]} */ ([...parts.grid.querySelectorAll('.lm-tile')]);
  if (existing.length === heads.length) return existing;
  parts.grid.style.setProperty('--lm-cols', String(perLayer));
  const doc = parts.root.ownerDocument;
  const tiles = heads.map((head, i) => {
    const tile = doc.createElement('div');
    tile.className = 'lm-tile';
    tile.dataset.index = String(i);
    tile.dataset.head = headName(head);
    const pick = doc.createElement('button');
    pick.type = 'button';
    pick.className = 'lm-tile-pick';
    const { score, value } = keyScore(head);
    // Read as "Head 1.2: previous token, previous-token score 0.62"; the score is drawn beside
    // the name, the kind under them.
    pick.innerHTML =
      `<span class="lm-tile-name">Head ${headName(head)}</span>` +
      '<span class="visually-hidden">: </span><span class="lm-tile-kind"></span>' +
      `<span class="lm-tile-score"><span class="visually-hidden">, ${scoreName(score)} score ` +
      `</span>${formatScore(value)}</span>`;
    /** @type {HTMLElement} */ (pick.querySelector('.lm-tile-kind')).textContent = kindWords(
      head.kind,
    );
    // A picture of the head only: its cells are read in the large heatmap, which a click on the
    // tile (or its button) chooses.
    const map = doc.createElement('div');
    map.className = 'lm-tile-map';
    map.inert = true;
    map.setAttribute('aria-hidden', 'true');
    tile.append(pick, map);
    return tile;
  });
  parts.grid.replaceChildren(...tiles);
  return tiles;
}

/**
 * @param {HTMLElement} tile
 * @param {HeadInfo} head
 * @param {boolean} chosen
 */
function markTile(tile, head, chosen) {
  const { value } = keyScore(head);
  tile.dataset.kind = head.kind;
  tile.dataset.score = String(value);
  tile.classList.toggle('chosen', chosen);
  const pick = /** @type {HTMLElement} */ (tile.querySelector('.lm-tile-pick'));
  const pressed = String(chosen);
  if (pick.getAttribute('aria-pressed') !== pressed) pick.setAttribute('aria-pressed', pressed);
}

/**
 * The line naming the token the read-out's row gives most weight to.
 * @param {LanguageModelParts} parts
 * @param {HeadInfo & { weights: Float32Array }} head
 * @param {string[]} tokens
 * @param {number} row
 */
function drawStrongest(parts, head, tokens, row) {
  const n = tokens.length;
  const strongest = strongestKey(head.weights, n, row);
  setText(parts.strongest, readoutText(headName(head), tokens, row, strongest));
  Object.assign(parts.strongest.dataset, {
    row: String(row),
    column: String(strongest.column),
    weight: String(strongest.weight),
  });
}

/**
 * The chosen head's induction score on the text, when the text is a run written twice.
 * @param {LanguageModelParts} parts
 * @param {HeadInfo & { weights: Float32Array }} head
 * @param {string[]} tokens
 */
function drawInduction(parts, head, tokens) {
  const run = repeatedRunLength(tokens);
  const line = parts.induction;
  if (run === 0) {
    setLine(line, '');
    delete line.dataset.score;
    return;
  }
  const score = inductionScore(head.weights, tokens.length, run);
  const verdict = score >= INDUCTION_THRESHOLD ? 'it finds the repeat' : 'it does not';
  setText(
    line,
    `Induction score of head ${headName(head)} on this text: ${formatScore(score)} ` +
      `(an induction head: ${formatScore(INDUCTION_THRESHOLD)} or above; ${verdict}).`,
  );
  line.hidden = false;
  line.dataset.score = String(score);
  line.dataset.run = String(run);
}

/**
 * The next words as a list of bars, each as long as its probability is against the first's.
 * @param {LanguageModelParts} parts
 * @param {{ word: string | null, probability: number }[]} next
 */
function drawNext(parts, next) {
  const doc = parts.root.ownerDocument;
  const top = next[0]?.probability || 1;
  const items = parts.next.children;
  // The same number of words every time: the items stay, their contents change.
  while (items.length > next.length) items[items.length - 1].remove();
  parts.nextFigure.hidden = next.length === 0;
  while (items.length < next.length) {
    const item = doc.createElement('li');
    item.className = 'lm-next-item';
    item.innerHTML =
      '<span class="lm-next-word"></span>' +
      '<span class="lm-next-bar" aria-hidden="true"><span class="lm-next-fill"></span></span>' +
      '<span class="lm-next-p"></span>';
    parts.next.append(item);
  }
  next.forEach(({ word, probability }, i) => {
    const item = /** @type {HTMLElement} */ (items[i]);
    item.dataset.word = word ?? '';
    item.dataset.probability = String(probability);
    item.classList.toggle('unknown', word === null);
    setText(/** @type {HTMLElement} */ (item.children[0]), nextWordLabel(word));
    setText(/** @type {HTMLElement} */ (item.children[2]), formatProbability(probability));
    const fill = /** @type {HTMLElement} */ (item.children[1].firstElementChild);
    fill.style.setProperty('--share', String(Math.min(1, probability / top)));
  });
}

/**
 * Sets an element's text only when it changes: new text makes the browser lay the page out again.
 * @param {HTMLElement} node
 * @param {string} text
 */
function setText(node, text) {
  if (node.textContent !== text) node.textContent = text;
}
