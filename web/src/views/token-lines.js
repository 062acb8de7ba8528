// Token lines view: one token's row of attention weights drawn as lines from it (left column) to
// every token (right column), each line as thick as its weight; the same numbers in a table.
import { buildDetails } from './charts/table.js';
import { el, svgEl } from './heatmap/dom.js';
import { formatWeight } from './heatmap/format.js';
import { shortLabel, textWidth } from './heatmap/labels.js';

const ROW = 26;
const FONT = 14;
const GAP = 10;
const MAX_LABEL = 120;
/** The thickest line, in pixels, for a weight of 1. */
const MAX_STROKE = 14;
/** Room for a weight written after each key, in pixels. */
const NUMBER = 44;

/**
 * @typedef {object} TokenLinesData
 * @property {string[]} tokens the n tokens, in order
 * @property {ArrayLike<number>} weights row `from` of the attention weights: n values summing to 1
 * @property {number} from the index of the token that looks
 * @property {ArrayLike<boolean>} [masked] per key, true where a mask hides it
 * @property {ArrayLike<boolean>} [unknown] per token, true when the vocabulary does not hold it
 * @property {string} caption one sentence saying what the figure shows
 * @property {(index: number) => void} [onPick] called when a token on the left is clicked
 */

/**
 * Draws (or redraws) the lines into a container, replacing what it held.
 * @param {HTMLElement} container
 * @param {TokenLinesData} data
 */
export function renderTokenLines(container, data) {
  const n = data.tokens.length;
  if (data.weights.length !== n) {
    throw new Error(`token lines: ${data.weights.length} weights for ${n} tokens`);
  }
  if (!(data.from >= 0 && data.from < n)) {
    throw new Error(`token lines: token ${data.from} is not one of the ${n} tokens`);
  }
  const doc = container.ownerDocument;
  const previous = container.querySelector('details');
  const details = buildDetails(doc, tableSpec(data));
  if (previous) details.open = /** @type {HTMLDetailsElement} */ (previous).open;
  const root = el(doc, 'div', { class: 'token-lines' });
  root.append(drawLines(doc, data, container.clientWidth || 400), details);
  container.replaceChildren(root);
}

/**
 * Empties the container.
 * @param {HTMLElement} container
 */
export function clearTokenLines(container) {
  container.replaceChildren();
}

/**
 * @param {Document} doc
 * @param {TokenLinesData} data
 * @param {number} available the container's width in pixels
 * @returns {SVGElement}
 */
function drawLines(doc, data, available) {
  const n = data.tokens.length;
  const labels = data.tokens.map((token) => shortLabel(token));
  // Bold labels run wider than the estimate: leave them room.
  const labelWidth = 1.15 * Math.min(MAX_LABEL, Math.max(...labels.map((t) => textWidth(t, FONT))));
  const width = Math.max(available, 2 * labelWidth + NUMBER + 120);
  const height = n * ROW + 8;
  const left = labelWidth + GAP;
  const right = width - labelWidth - NUMBER - GAP;
  const y = (i) => 4 + i * ROW + ROW / 2;
  const svg = svgEl(doc, 'svg', {
    class: 'token-lines-svg',
    width,
    height,
    viewBox: `0 0 ${width} ${height}`,
    role: 'img',
    'aria-label': `${data.caption} ${summary(data)}`,
  });
  const lines = svgEl(doc, 'g', { class: 'token-lines-lines' });
  for (let j = 0; j < n; j += 1) {
    const weight = data.weights[j];
    if (data.masked?.[j] || !(weight > 0)) continue;
    const line = svgEl(doc, 'line', {
      class: 'token-line',
      x1: left,
      y1: y(data.from),
      x2: right,
      y2: y(j),
      'stroke-width': Math.max(0.75, weight * MAX_STROKE).toFixed(2),
      'stroke-opacity': (0.25 + 0.75 * Math.min(1, weight * 3)).toFixed(2),
    });
    line.append(
      svgEl(
        doc,
        'title',
        {},
        `${quote(data.tokens[data.from])} to ${quote(data.tokens[j])}: ${formatWeight(weight)}`,
      ),
    );
    lines.append(line);
  }
  svg.append(lines);
  for (let i = 0; i < n; i += 1) {
    const unknown = data.unknown?.[i] ? ' unknown' : '';
    const chosen = i === data.from ? ' active' : '';
    const query = svgEl(
      doc,
      'text',
      {
        class: `token-lines-query${chosen}${unknown}`,
        x: labelWidth,
        y: y(i),
        'text-anchor': 'end',
      },
      labels[i],
    );
    if (data.onPick) query.addEventListener('click', () => data.onPick?.(i));
    const key = svgEl(
      doc,
      'text',
      {
        class: `token-lines-key${data.masked?.[i] ? ' masked' : ''}${unknown}`,
        x: right + GAP / 2,
        y: y(i),
      },
      labels[i],
    );
    const number = svgEl(
      doc,
      'text',
      { class: 'token-lines-weight', x: width, y: y(i), 'text-anchor': 'end' },
      data.masked?.[i] ? '0' : formatWeight(data.weights[i]),
    );
    svg.append(query, key, number);
  }
  return svg;
}

/**
 * The figure's numbers as a table: one row per key token.
 * @param {TokenLinesData} data
 * @returns {import('./charts/table.js').TableSpec}
 */
function tableSpec(data) {
  return {
    caption: data.caption,
    columns: ['key', `weight from ${quote(data.tokens[data.from])}`],
    rows: data.tokens.map((token, j) => ({
      head: data.unknown?.[j] ? `${token} (not in vocabulary)` : token,
      cells: [
        data.masked?.[j]
          ? { text: 'masked (0)', value: 0 }
          : { text: formatWeight(data.weights[j]), value: data.weights[j] },
      ],
    })),
  };
}

/**
 * A sentence naming the three keys the token attends to most, for screen readers.
 * @param {TokenLinesData} data
 * @returns {string}
 */
function summary(data) {
  const order = Array.from(data.weights, (weight, j) => ({ weight, j }))
    .filter(({ j }) => !data.masked?.[j])
    .sort((a, b) => b.weight - a.weight)
    .slice(0, 3);
  const parts = order.map(({ weight, j }) => `${quote(data.tokens[j])} ${formatWeight(weight)}`);
  return `${quote(data.tokens[data.from])} attends most to ${parts.join(', ')}.`;
}

/** @param {string} token */
function quote(token) {
  return `\u201c${token}\u201d`;
}
