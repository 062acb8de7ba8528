// The drag mode's controls: one range slider per source token that sets its score e_j directly,
// each with the token as its label and the score and weight as its value text. The sliders are
// made again only when the tokens change, so the one being dragged keeps the focus.
import { formatWeight } from '../../views/heatmap/index.js';
import { formatScore } from './figures.js';
import { markUnknown } from '../shared/unknown-text.js';

/** The range of a hand-set score: wide enough for a weight near 1, narrow enough to aim. */
export const SCORE_MIN = -6;
export const SCORE_MAX = 6;
export const SCORE_STEP = 0.25;

/**
 * Makes one slider per token, unless the ones on show are for these tokens already.
 * @param {HTMLElement} container
 * @param {string} prefix a unique id prefix
 * @param {string[]} tokens
 * @param {boolean[]} unknown
 * @returns {HTMLInputElement[]} the sliders, in token order
 */
export function slidersFor(container, prefix, tokens, unknown) {
  const key = JSON.stringify([tokens, unknown]);
  if (container.dataset.key === key) {
    return /** @type {HTMLInputElement[]} */ (Array.from(container.querySelectorAll('input')));
  }
  const doc = container.ownerDocument;
  const rows = tokens.map((token, j) => {
    const id = `${prefix}-e-${j}`;
    const row = doc.createElement('div');
    row.className = 'wr-slider-row';
    const label = doc.createElement('label');
    label.className = unknown[j] ? 'wr-slider-label unknown' : 'wr-slider-label';
    label.htmlFor = id;
    // Marked as the bars mark it.
    label.textContent = markUnknown(token, unknown[j]);
    const input = doc.createElement('input');
    Object.assign(input, {
      id,
      type: 'range',
      className: 'wr-slider',
      min: String(SCORE_MIN),
      max: String(SCORE_MAX),
      step: String(SCORE_STEP),
      value: '0',
    });
    input.dataset.index = String(j);
    const output = doc.createElement('output');
    output.className = 'wr-slider-value';
    output.htmlFor.add(id);
    row.append(label, input, output);
    return row;
  });
  container.replaceChildren(...rows);
  container.dataset.key = key;
  return rows.map((row) => /** @type {HTMLInputElement} */ (row.querySelector('input')));
}

/**
 * Puts the scores into the sliders and writes each one's score and weight.
 * @param {HTMLInputElement[]} sliders
 * @param {number[]} scores (n)
 * @param {ArrayLike<number>} weights (n) softmax of the scores
 */
export function showSliders(sliders, scores, weights) {
  sliders.forEach((input, j) => {
    if (Number(input.value) !== scores[j]) input.value = String(scores[j]);
    const text = formatScore(scores[j]);
    input.setAttribute('aria-valuetext', `score ${text}, weight ${formatWeight(weights[j])}`);
    const output = input.nextElementSibling;
    if (output) output.textContent = text;
  });
}

/**
 * @param {HTMLElement} container
 */
export function clearSliders(container) {
  container.replaceChildren();
  delete container.dataset.key;
}
