// The heatmap widget's second way to show the weights: one token's row as lines from it to every
// token. This module keeps the Grid / Lines choice and the chosen token in step with the figure.
import { clearHeatmap, renderHeatmap } from '../../views/heatmap/index.js';
import { clearTokenLines, renderTokenLines } from '../../views/token-lines.js';
import '../../styles/token-lines.css';

/**
 * @typedef {{ tokens: string[], weights: ArrayLike<number>, causal: boolean, unknown: boolean[],
 *   data: import('../../views/heatmap/index.js').HeatmapData }} Drawn
 */

/**
 * @param {import('./markup.js').HeatmapParts} parts
 * @returns {'grid' | 'lines'}
 */
export function chosenView(parts) {
  const checked = parts.views.querySelector('input:checked');
  return checked?.getAttribute('value') === 'lines' ? 'lines' : 'grid';
}

/**
 * @param {import('./markup.js').HeatmapParts} parts
 * @param {string | undefined} view
 */
export function setView(parts, view) {
  const wanted = view === 'lines' ? 'lines' : 'grid';
  for (const input of parts.views.querySelectorAll('input')) {
    /** @type {HTMLInputElement} */ (input).checked = input.getAttribute('value') === wanted;
  }
}

/**
 * Fills the token choice with the sentence's tokens, keeping the chosen one when it still exists
 * (or the token asked for by `wanted`, an index).
 * @param {HTMLSelectElement} select
 * @param {string[]} tokens
 * @param {number} wanted
 * @returns {number} the chosen index
 */
function fillTokens(select, tokens, wanted) {
  const same =
    select.options.length === tokens.length &&
    tokens.every((token, i) => select.options[i].textContent === `${i + 1}. ${token}`);
  if (!same) {
    const doc = select.ownerDocument;
    select.replaceChildren(
      ...tokens.map((token, i) => {
        const option = doc.createElement('option');
        option.value = String(i);
        option.textContent = `${i + 1}. ${token}`;
        return option;
      }),
    );
  }
  const index = Number.isInteger(wanted) && wanted >= 0 && wanted < tokens.length ? wanted : 0;
  select.value = String(index);
  return index;
}

/**
 * Draws the weights in the chosen view: the grid, or the chosen token's row as lines.
 * @param {import('./markup.js').HeatmapParts} parts
 * @param {Drawn} drawn
 * @param {number} from the index of the token whose row the lines show
 * @param {(index: number) => void} onPick called when the learner clicks a token on the left
 * @returns {number} the token the lines start from
 */
export function drawView(parts, drawn, from, onPick) {
  const lines = chosenView(parts) === 'lines';
  parts.fromField.hidden = !lines;
  parts.figure.hidden = lines;
  parts.lines.hidden = !lines;
  const chosen = fillTokens(parts.from, drawn.tokens, from);
  if (!lines) {
    clearTokenLines(parts.lines);
    renderHeatmap(parts.figure, drawn.data);
    return chosen;
  }
  clearHeatmap(parts.figure);
  const n = drawn.tokens.length;
  const row = Array.from(drawn.weights).slice(chosen * n, (chosen + 1) * n);
  renderTokenLines(parts.lines, {
    tokens: drawn.tokens,
    weights: row,
    from: chosen,
    masked: drawn.tokens.map((_, j) => drawn.causal && j > chosen),
    unknown: drawn.unknown,
    caption:
      `Attention weights from \u201c${drawn.tokens[chosen]}\u201d to every token` +
      `${drawn.causal ? ' (causal mask on)' : ''}; each line is as thick as its weight.`,
    onPick,
  });
  return chosen;
}

/** @param {import('./markup.js').HeatmapParts} parts */
export function clearViews(parts) {
  clearHeatmap(parts.figure);
  clearTokenLines(parts.lines);
}
