// Chart table: the chart's numbers as a real <table>, for screen readers and for anyone who wants
// the exact values, in a closed-by-default <details>.
import { el } from '../heatmap/dom.js';

/**
 * @typedef {object} TableSpec
 * @property {string} caption
 * @property {string[]} columns the header row, its first entry over the row headers
 * @property {{ head: string, cells: { text: string, value: number }[] }[]} rows
 */

/**
 * @param {Document} doc
 * @param {TableSpec} spec
 * @returns {HTMLDetailsElement}
 */
export function buildDetails(doc, spec) {
  const details = el(doc, 'details', { class: 'chart-details' });
  const wrap = el(doc, 'div', {
    class: 'table-scroll',
    tabindex: 0,
    role: 'region',
    'aria-label': `Table: ${spec.caption}`,
  });
  wrap.append(buildTable(doc, spec));
  details.append(el(doc, 'summary', {}, 'Show the numbers as a table'), wrap);
  return /** @type {HTMLDetailsElement} */ (details);
}

/**
 * @param {Document} doc
 * @param {TableSpec} spec
 * @returns {HTMLTableElement}
 */
function buildTable(doc, spec) {
  const table = el(doc, 'table', { class: 'chart-table' });
  const head = el(doc, 'tr');
  head.append(...spec.columns.map((column) => el(doc, 'th', { scope: 'col' }, column)));
  const thead = el(doc, 'thead');
  thead.append(head);
  const tbody = el(doc, 'tbody');
  for (const row of spec.rows) {
    const tr = el(doc, 'tr');
    tr.append(el(doc, 'th', { scope: 'row' }, row.head));
    for (const cell of row.cells) tr.append(el(doc, 'td', { 'data-value': cell.value }, cell.text));
    tbody.append(tr);
  }
  table.append(el(doc, 'caption', {}, spec.caption), thead, tbody);
  return /** @type {HTMLTableElement} */ (table);
}
