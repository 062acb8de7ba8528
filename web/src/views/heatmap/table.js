// Heatmap table: the same weights as a real <table>, for screen readers, in a <details> disclosure.
// A lazy disclosure builds its tables only when it is opened, and again on a redraw only while it
// is open: a large figure redraws without thousands of hidden table cells.
import { el } from './dom.js';
import { UNKNOWN_NOTE, axisNames, formatWeight } from './format.js';

/** @typedef {import('./index.js').HeatmapData} HeatmapData */

const SUMMARY = 'Show the numbers as a table';

/**
 * The closed-by-default disclosure that holds the table of one heatmap, or of several, built now.
 * @param {Document} doc
 * @param {HeatmapData | HeatmapData[]} data
 * @param {string} [summary] the disclosure's label
 * @returns {HTMLDetailsElement}
 */
export function buildDetails(doc, data, summary = SUMMARY) {
  const details = el(doc, 'details', { class: 'heatmap-details' });
  const tables = (Array.isArray(data) ? data : [data]).map((one) => buildTable(doc, one));
  details.append(el(doc, 'summary', {}, summary), ...tables);
  return /** @type {HTMLDetailsElement} */ (details);
}

/**
 * @typedef {object} LazyDetails
 * @property {HTMLDetailsElement} details the disclosure, closed at first
 * @property {(data: HeatmapData | HeatmapData[]) => void} show the numbers to table: built now
 *   while the disclosure is open, else when it opens
 */

/**
 * A closed disclosure whose tables are built when the learner opens it, and rebuilt by `show`
 * only while it stays open; closed, it holds no stale numbers.
 * @param {Document} doc
 * @param {string} [summary] the disclosure's label
 * @returns {LazyDetails}
 */
export function lazyDetails(doc, summary = SUMMARY) {
  const details = /** @type {HTMLDetailsElement} */ (
    el(doc, 'details', { class: 'heatmap-details' })
  );
  const label = el(doc, 'summary', {}, summary);
  details.append(label);
  /** @type {HeatmapData[]} */
  let current = [];
  let built = false;
  // The summary stays put (it may have focus): only what follows it changes.
  const drop = () => {
    while (label.nextSibling) label.nextSibling.remove();
  };
  const build = () => {
    drop();
    details.append(...current.map((one) => buildTable(doc, one)));
    built = true;
  };
  // A click on the summary runs before the disclosure opens, so the tables are there when it
  // does; `toggle` covers opening it from script.
  label.addEventListener('click', () => {
    if (!details.open && !built) build();
  });
  details.addEventListener('toggle', () => {
    if (details.open && !built) build();
  });
  return {
    details,
    show(data) {
      current = Array.isArray(data) ? data : [data];
      if (details.open) build();
      else if (built) {
        drop();
        built = false;
      }
    },
  };
}

/**
 * Builds the accessible table, in a scrollable region, with the same numbers as the grid.
 * @param {Document} doc
 * @param {HeatmapData} data
 * @returns {HTMLElement}
 */
function buildTable(doc, data) {
  const { rowName, colName, valueName } = axisNames(data);
  const nCols = data.colLabels.length;
  const name = `${data.title ? `${data.title} ` : ''}${valueName}s table`;
  const wrap = el(doc, 'div', {
    class: 'table-scroll',
    tabindex: 0,
    role: 'region',
    'aria-label': name.charAt(0).toUpperCase() + name.slice(1),
  });
  const table = el(doc, 'table', { class: 'heatmap-table' });
  const caption = el(doc, 'caption', {}, data.caption + unknownSentence(data));
  // A token outside the vocabulary of word vectors gets class "unknown" (drawn marked).
  const header = (label, unknown, scope) =>
    el(doc, 'th', unknown ? { scope, class: 'unknown' } : { scope }, label);

  const headRow = el(doc, 'tr');
  headRow.append(el(doc, 'th', { scope: 'col' }, `${rowName} \\ ${colName}`));
  data.colLabels.forEach((label, j) => headRow.append(header(label, data.unknownCols?.[j], 'col')));
  const thead = el(doc, 'thead');
  thead.append(headRow);

  const tbody = el(doc, 'tbody');
  data.rowLabels.forEach((label, i) => {
    const tr = el(doc, 'tr');
    tr.append(header(label, data.unknownRows?.[i], 'row'));
    for (let j = 0; j < nCols; j++) {
      const index = i * nCols + j;
      const value = data.values[index];
      const masked = Boolean(data.masked?.[index]);
      const text = masked && data.maskedText !== undefined ? data.maskedText : formatWeight(value);
      const td = el(doc, 'td', { 'data-value': value }, text);
      if (masked) td.className = 'masked';
      tr.append(td);
    }
    tbody.append(tr);
  });
  table.append(caption, thead, tbody);
  wrap.append(table);
  return wrap;
}

/**
 * ' Not in the vocabulary: “zyx”, “qwv”.' for the tokens flagged unknown, or ''.
 * @param {HeatmapData} data
 * @returns {string}
 */
function unknownSentence(data) {
  const flagged = (labels, flags) => labels.filter((_, k) => flags?.[k]);
  const words = new Set([
    ...flagged(data.rowLabels, data.unknownRows),
    ...flagged(data.colLabels, data.unknownCols),
  ]);
  if (words.size === 0) return '';
  const list = Array.from(words, (word) => `\u201c${word}\u201d`).join(', ');
  return ` ${UNKNOWN_NOTE.charAt(0).toUpperCase()}${UNKNOWN_NOTE.slice(1)}: ${list}.`;
}
