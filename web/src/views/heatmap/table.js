// Heatmap table: the same weights as a real <table>, for screen readers, in a <details> disclosure.
import { el } from './dom.js';
import { axisNames, formatWeight } from './format.js';

/**
 * The closed-by-default disclosure that holds the weights table.
 * @param {Document} doc
 * @param {import('./index.js').HeatmapData} data
 * @returns {HTMLDetailsElement}
 */
export function buildDetails(doc, data) {
  const details = el(doc, 'details', { class: 'heatmap-details' });
  details.append(el(doc, 'summary', {}, 'Show the numbers as a table'), buildTable(doc, data));
  return /** @type {HTMLDetailsElement} */ (details);
}

/**
 * Builds the accessible table, in a scrollable region, with the same numbers as the grid.
 * @param {Document} doc
 * @param {import('./index.js').HeatmapData} data
 * @returns {HTMLElement}
 */
function buildTable(doc, data) {
  const { rowName, colName } = axisNames(data);
  const nCols = data.colLabels.length;
  const wrap = el(doc, 'div', {
    class: 'table-scroll',
    tabindex: 0,
    role: 'region',
    'aria-label': 'Weights table',
  });
  const table = el(doc, 'table', { class: 'heatmap-table' });
  const caption = el(doc, 'caption', {}, data.caption);

  const headRow = el(doc, 'tr');
  headRow.append(el(doc, 'th', { scope: 'col' }, `${rowName} \\ ${colName}`));
  for (const label of data.colLabels) headRow.append(el(doc, 'th', { scope: 'col' }, label));
  const thead = el(doc, 'thead');
  thead.append(headRow);

  const tbody = el(doc, 'tbody');
  data.rowLabels.forEach((label, i) => {
    const tr = el(doc, 'tr');
    tr.append(el(doc, 'th', { scope: 'row' }, label));
    for (let j = 0; j < nCols; j++) {
      const index = i * nCols + j;
      const value = data.values[index];
      const td = el(doc, 'td', { 'data-value': value }, formatWeight(value));
      if (data.masked?.[index]) td.className = 'masked';
      tr.append(td);
    }
    tbody.append(tr);
  });
  table.append(caption, thead, tbody);
  wrap.append(table);
  return wrap;
}
