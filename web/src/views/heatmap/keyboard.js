// Heatmap keyboard: the arrow, Home/End and Page keys move the active cell. Cell elements keep a
// roving focus (one in the Tab order); a picture keeps its focus and moves its ring and read-out.
import { cellIndexOf } from './grid.js';

/**
 * Keeps exactly one cell in the Tab order (the one at state.active) and moves focus between cells
 * with the keys of an ARIA grid; in a picture, the same keys move the active cell.
 * @param {import('./grid.js').Grid} grid
 * @param {{ active: number }} state where the active cell is; updated as it moves
 * @param {(index: number) => void} moveTo shows a picture's new active cell
 */
export function wireKeyboard(grid, state, moveTo) {
  const { svg, cells, nRows, nCols } = grid;
  const activate = (index) => {
    cells[state.active]?.setAttribute('tabindex', '-1');
    state.active = index;
    cells[index].setAttribute('tabindex', '0');
  };

  if (!grid.picture) {
    svg.addEventListener('focusin', (event) => {
      const index = cellIndexOf(event.target);
      if (index >= 0) activate(index);
    });
  }
  svg.addEventListener('keydown', (event) => {
    const from = Math.min(state.active, nRows * nCols - 1);
    const target = destination(event, from, nRows, nCols);
    if (!target) return;
    event.preventDefault();
    const index = target[0] * nCols + target[1];
    if (grid.picture) {
      moveTo(index);
      return;
    }
    activate(index);
    cells[index].focus();
  });
}

/**
 * Where a key press moves the active cell from cell `from`.
 * @param {KeyboardEvent} event
 * @param {number} from a row-major index
 * @param {number} nRows
 * @param {number} nCols
 * @returns {[number, number] | undefined} the new row and column, or undefined for other keys
 */
function destination(event, from, nRows, nCols) {
  const row = Math.floor(from / nCols);
  const col = from % nCols;
  return {
    ArrowRight: [row, Math.min(nCols - 1, col + 1)],
    ArrowLeft: [row, Math.max(0, col - 1)],
    ArrowDown: [Math.min(nRows - 1, row + 1), col],
    ArrowUp: [Math.max(0, row - 1), col],
    Home: event.ctrlKey ? [0, 0] : [row, 0],
    End: event.ctrlKey ? [nRows - 1, nCols - 1] : [row, nCols - 1],
    PageUp: [0, col],
    PageDown: [nRows - 1, col],
  }[event.key];
}
