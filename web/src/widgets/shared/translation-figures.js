// What every figure of a translator draws the same way: a translation's German (shared
// german.css), a German-by-English matrix of weights with its table for screen readers, BLEU by
// English length as lines, one per model, from the models' reports, and the figure around them
// shown with its title or hidden and emptied.
import { formatNumber } from '../../views/charts/format.js';
import { clearLines, renderLines } from '../../views/charts/lines.js';
import { buildTables, clearHeatmap, renderHeatmap } from '../../views/heatmap/index.js';
import { GERMAN_UNKNOWN } from '../../engine/translator.js';
import { stepsOf, unknownTargets } from './translation-text.js';

/** A weight matrix's row height, in pixels: as low as a line of text, so that a sentence's
 * matrix fits beside the slide's text. */
const ROW_HEIGHT = 24;

/** @typedef {import('../../engine/index.js').Translation} Translation */

/**
 * Writes a translation's German into an element, each word outside the vocabulary marked (the
 * unknown-word token, or the English word copied in its place); with `buttons`, each step's word
 * or piece is a button that chooses its step (a piece that continues a word follows it without
 * a space), and the chosen one is marked.
 * @param {HTMLElement} el
 * @param {Pick<Translation, 'output' | 'copied' | 'source'> & Partial<Pick<Translation, 'pieces'>>}
 *   translation the pieces needed only with `buttons`
 * @param {{ current?: number, buttons?: boolean }} [options]
 */
export function writeGerman(el, translation, { current = -1, buttons = false } = {}) {
  const doc = el.ownerDocument;
  const { output, copied, source } = translation;
  const items = buttons
    ? stepsOf(/** @type {Translation} */ (translation))
    : output.map((text, w) => ({ text, word: w, joins: false, unknown: false }));
  const nodes = items.map(({ text, word }, t) => {
    const node = doc.createElement(buttons ? 'button' : 'span');
    node.className = 'mt-word';
    node.textContent = text;
    if (copied[word] >= 0) {
      node.classList.add('mt-unk');
      node.title =
        'a German word outside the model\u2019s vocabulary: it copies ' +
        `\u201c${source[copied[word]]}\u201d, the English word it weighs most`;
    } else if (output[word] === GERMAN_UNKNOWN) {
      node.classList.add('mt-unk');
      node.title = 'a German word outside the model\u2019s vocabulary';
    }
    if (buttons) {
      const button = /** @type {HTMLButtonElement} */ (node);
      button.type = 'button';
      button.dataset.step = String(t + 1);
      button.setAttribute('aria-pressed', String(t === current));
    }
    return node;
  });
  const spaced = nodes.flatMap((node, t) =>
    t === 0 || items[t].joins ? [node] : [doc.createTextNode(' '), node],
  );
  el.replaceChildren(...spaced);
  if (output.length === 0) el.textContent = '(nothing: the model ended at once)';
}

/**
 * Draws weights as a matrix, German words (rows) over English words (columns), and its table
 * for screen readers beside it (kept open across redraws if the learner opened it).
 * @param {{ matrix: HTMLElement | null, tables: HTMLElement | null, readout?: HTMLElement | null }}
 *   where the figure's parts (a view that draws a matrix has the first two)
 * @param {Pick<Translation, 'source' | 'known' | 'target'>} translation
 * @param {ArrayLike<number>} weights (target.length, source.length), each row adding up to 1
 * @param {string} caption one sentence saying whose weights they are
 */
export function drawWeightMatrix(where, translation, weights, caption) {
  const { source, known, target } = translation;
  drawMatrix(where, {
    rowLabels: target,
    colLabels: source,
    values: weights,
    unknownRows: unknownTargets(target),
    unknownCols: known.map((k) => !k),
    rowName: 'German word',
    colName: 'English word',
    caption,
  });
}

/**
 * Draws a matrix a row of text high, and its table for screen readers beside it (kept open
 * across redraws if the learner opened it): the figures of a translator's insides that are not
 * German over English (the Transformer's encoder).
 * @param {{ matrix: HTMLElement | null, tables: HTMLElement | null, readout?: HTMLElement | null }}
 *   where the figure's parts
 * @param {import('../../views/heatmap/index.js').HeatmapData} data its rowHeight set here
 */
export function drawMatrix(where, data) {
  data = { ...data, rowHeight: ROW_HEIGHT };
  const matrix = /** @type {HTMLElement} */ (where.matrix);
  const tables = /** @type {HTMLElement} */ (where.tables);
  renderHeatmap(matrix, data, { readout: where.readout ?? undefined, table: false });
  const open = tables.querySelector('details')?.open ?? false;
  const details = buildTables(tables.ownerDocument, data);
  details.open = open;
  tables.replaceChildren(details);
}

/**
 * Draws the models' corpus BLEU by English length, one line each, on a scale from 0 to the next
 * multiple of 5 above the best.
 * @param {HTMLElement} el
 * @param {{ caption: string, names: string[], lines: { name: string, values: number[] }[] }} chart
 */
export function drawBleuByLength(el, { caption, names, lines }) {
  const best = Math.max(...lines.flatMap((line) => line.values));
  renderLines(el, {
    caption,
    x: names.map((_, i) => i + 1),
    xNames: names,
    series: lines,
    xLabel: 'English words',
    yLabel: 'BLEU',
    yDomain: [0, Math.ceil(best / 5) * 5],
    format: (value) => formatNumber(value, 3),
    height: 140,
  });
}

/**
 * Shows a translator's figure under its title.
 * @param {{ result: HTMLElement, title: HTMLElement }} parts
 * @param {string} title
 */
export function showFigure(parts, title) {
  parts.result.hidden = false;
  parts.title.textContent = title;
}

/**
 * Hides a translator's figure and empties its chart, matrix and tables (nothing to draw).
 * @param {{ result: HTMLElement, chart?: HTMLElement | null, matrix?: HTMLElement | null,
 *   tables?: HTMLElement | null }} parts
 */
export function clearFigure(parts) {
  parts.result.hidden = true;
  if (parts.chart) clearLines(parts.chart);
  if (parts.matrix) clearHeatmap(parts.matrix);
  parts.tables?.replaceChildren();
}
