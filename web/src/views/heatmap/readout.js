// Heatmap read-out: names the pointed-at or focused cell in text, rings it and marks its labels.
// A grid of cell elements finds the cell from the element; a picture, from the pointer's position
// and the active cell (it is focused as a whole), and says each keyboard move in a live region.
import { cellAt } from './dense.js';
import { el } from './dom.js';
import { cellBox, cellIndexOf, describeCell } from './grid.js';

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
 * @typedef {object} ReadoutControl
 * @property {(index: number) => void} moveTo makes cell `index` the active one and shows it (a
 *   picture's keyboard moves), saying it in the live region
 * @property {() => void} refresh shows the pointed-at or focused cell again (after new values)
 */

/**
 * Shows the pointed-at cell, else the focused cell, else the hint.
 * @param {import('./grid.js').Grid} grid
 * @param {HTMLElement} readout
 * @param {{ active: number, options: { onActive?: (index: number) => void } }} state the active
 *   cell, and whom to tell the index shown (-1: none), after the read-out
 * @param {HTMLElement | null} live where a picture's keyboard moves are said (aria-live)
 * @returns {ReadoutControl}
 */
export function wireReadout(grid, readout, state, live) {
  const { svg, ring } = grid;
  let focused = -1;
  let pointed = -1;

  const show = (index) => {
    if (index < 0) {
      ring.setAttribute('visibility', 'hidden');
      readout.textContent = readout.dataset.hint ?? hint('weight');
      highlight(grid, -1, -1);
      state.options.onActive?.(-1);
      return;
    }
    const place = cellBox(grid, index);
    for (const name of /** @type {const} */ (['x', 'y', 'width', 'height'])) {
      ring.setAttribute(name, String(place[name]));
    }
    ring.setAttribute('visibility', 'visible');
    readout.textContent = describeCell(grid, index);
    highlight(grid, Math.floor(index / grid.nCols), index % grid.nCols);
    state.options.onActive?.(index);
  };

  svg.addEventListener('focusout', () => {
    focused = -1;
    show(-1);
  });
  svg.addEventListener('pointerleave', () => {
    pointed = -1;
    show(focused);
  });
  if (grid.picture) {
    const picture = grid.picture;
    svg.addEventListener('focusin', () => {
      focused = Math.min(state.active, grid.nRows * grid.nCols - 1);
      show(focused);
    });
    const point = (/** @type {PointerEvent} */ event) => {
      const index = cellAt(picture, event.clientX, event.clientY);
      if (event.type === 'pointerdown' && index >= 0) state.active = index;
      if (index === pointed && event.type === 'pointermove') return;
      pointed = index;
      show(index >= 0 ? index : focused);
    };
    svg.addEventListener('pointermove', point);
    svg.addEventListener('pointerdown', point);
  } else {
    svg.addEventListener('focusin', (event) => {
      const index = cellIndexOf(event.target);
      if (index < 0) return;
      focused = index;
      show(index);
    });
    svg.addEventListener('pointerover', (event) => {
      const index = cellIndexOf(event.target);
      if (index < 0) return;
      pointed = index;
      show(index);
    });
  }

  return {
    moveTo(index) {
      state.active = index;
      focused = index;
      show(index);
      if (live) live.textContent = describeCell(grid, index);
    },
    refresh() {
      if (pointed >= 0) show(pointed);
      else if (focused >= 0) show(focused);
    },
  };
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
