// Heatmap read-out: names the pointed-at or focused cell in text, rings it and marks its labels.
import { el } from './dom.js';
import { cellIndexOf } from './grid.js';

/**
 * @param {string} valueName what a cell holds, e.g. 'weight'
 * @returns {string} the hint shown while no cell is pointed at or focused
 */
const hint = (valueName) =>
  `Point at or tap a cell, or Tab into the grid and use the arrow keys, to read a ${valueName}.`;

/**
 * The read-out paragraph, showing the hint until a cell is pointed at or focused.
 * @param {Document} doc
 * @param {string} id the paragraph's id, which the grid names in aria-describedby
 * @param {string} [valueName] what a cell holds, for the hint: 'weight' by default
 * @returns {HTMLElement}
 */
export function buildReadout(doc, id, valueName = 'weight') {
  return el(
    doc,
    'p',
    { class: 'heatmap-readout', id, 'data-hint': hint(valueName) },
    hint(valueName),
  );
}

/**
 * Shows the pointed-at cell, else the focused cell, else the hint.
 * @param {import('./grid.js').Grid} grid
 * @param {HTMLElement} readout
 * @param {number} nCols
 * @param {(index: number) => void} [onActive] told the index shown (-1: none), after the read-out
 */
export function wireReadout(grid, readout, nCols, onActive) {
  const { svg, cells, ring } = grid;
  let focused = -1;

  const show = (index) => {
    if (index < 0) {
      ring.setAttribute('visibility', 'hidden');
      readout.textContent = readout.dataset.hint ?? hint('weight');
      highlight(grid, -1, -1);
      onActive?.(-1);
      return;
    }
    const cell = cells[index];
    for (const name of ['x', 'y', 'width', 'height'])
      ring.setAttribute(name, cell.getAttribute(name));
    ring.setAttribute('visibility', 'visible');
    readout.textContent = cell.getAttribute('aria-label');
    highlight(grid, Math.floor(index / nCols), index % nCols);
    onActive?.(index);
  };

  svg.addEventListener('focusin', (event) => {
    const index = cellIndexOf(event.target);
    if (index < 0) return;
    focused = index;
    show(index);
  });
  svg.addEventListener('focusout', () => {
    focused = -1;
    show(-1);
  });
  svg.addEventListener('pointerover', (event) => {
    const index = cellIndexOf(event.target);
    if (index >= 0) show(index);
  });
  svg.addEventListener('pointerleave', () => show(focused));
}

/**
 * Marks the row and column labels of the active cell.
 * @param {{ rowTexts: SVGTextElement[], colTexts: SVGTextElement[] }} grid
 * @param {number} row -1 for none
 * @param {number} col -1 for none
 */
function highlight(grid, row, col) {
  grid.rowTexts.forEach((text, i) => text.classList.toggle('active', i === row));
  grid.colTexts.forEach((text, j) => text.classList.toggle('active', j === col));
}
