// The attention-steps widget's elements: the sentence, the causal and padding toggles, the stepper
// (Previous, the list of steps, Next, and a live line that names the step reached), then the
// figure of the current step with its read-out and table. Ids are unique per instance.
import { buildReadout } from '../../views/heatmap/index.js';
import { PAD, PAD_MULTIPLE, STEPS } from './math.js';
import { sentenceFieldHtml } from '../shared/token-cap.js';
import { toggleHtml } from '../shared/toggle.js';
import { messageLinesHtml } from '../shared/line.js';

let instances = 0;

/**
 * Builds the widget's elements (not yet in the page).
 * @param {Document} doc
 * @param {number} maxTokens
 */
export function buildAttentionStepsParts(doc, maxTokens) {
  const id = `ast-${++instances}`;
  const root = doc.createElement('div');
  root.className = 'ast split widget-columns';
  const steps = STEPS.map(
    (step, i) =>
      `<li><button type="button" class="widget-box ast-step" data-step="${i + 1}">` +
      `<span class="ast-step-number">${i + 1}</span> ${step.name}</button></li>`,
  ).join('');
  root.innerHTML = `
    <div class="ast-controls split-controls sentence-areas">
      ${sentenceFieldHtml(id, { label: 'Sentence', input: 'hm-sentence ast-sentence', helpClass: 'ast-help', help: `Words and punctuation become tokens (up to ${maxTokens}), each a pre-trained word vector of 100 numbers. Q, K and V are all that matrix X.` })}
      <div class="ast-toggles">
        ${toggleHtml(id, { name: 'causal', input: 'ast-causal', label: 'Causal mask', helpClass: 'ast-help', help: 'Each token may look only at itself and the tokens before it.' })}
        ${toggleHtml(id, { name: 'padding', input: 'ast-padding', label: 'Padding', helpClass: 'ast-help', help: `Adds ${PAD} tokens (vectors of zeros) up to the next multiple of ${PAD_MULTIPLE}, and a padding mask that hides them from every query.` })}
      </div>
      <div class="ast-stepper" role="group" aria-labelledby="${id}-stepper-name">
        <p id="${id}-stepper-name" class="ast-stepper-name deck-hidden">The formula, step by step</p>
        <div class="ast-nav">
          <button type="button" class="widget-box ast-move ast-prev">
            Previous<span class="visually-hidden"> step</span>
          </button>
          <ol class="ast-steps">${steps}</ol>
          <button type="button" class="widget-box ast-move ast-next">
            Next<span class="visually-hidden"> step</span>
          </button>
        </div>
        <p class="visually-hidden ast-announce" aria-live="polite"></p>
      </div>
    </div>
    <div class="ast-output split-output">
      ${messageLinesHtml('ast')}
      <figure class="ast-result" aria-labelledby="${id}-title" hidden>
        <figcaption class="ast-head">
          <span id="${id}-title" class="ast-title"></span>
          <span class="pill ast-shape"></span>
        </figcaption>
        <p class="ast-explain"></p>
        <div class="ast-figure"></div>
        <p class="note ast-pad-note" hidden></p>
        <p class="note ast-unknown" hidden></p>
        <div class="ast-tables"></div>
      </figure>
    </div>`;
  const find = (selector) => /** @type {any} */ (root.querySelector(selector));
  const readout = buildReadout(doc, `${id}-readout`, 'value');
  readout.classList.add('ast-readout');
  readout.dataset.hint = readout.textContent =
    'Point at a cell, or Tab in and use the arrow keys, to read it.';
  find('.ast-pad-note').before(readout);
  return {
    root,
    sentence: /** @type {HTMLTextAreaElement} */ (find('.ast-sentence')),
    causal: /** @type {HTMLInputElement} */ (find('.ast-causal')),
    padding: /** @type {HTMLInputElement} */ (find('.ast-padding')),
    stepper: find('.ast-stepper'),
    steps: /** @type {HTMLButtonElement[]} */ ([...root.querySelectorAll('.ast-step')]),
    prev: /** @type {HTMLButtonElement} */ (find('.ast-prev')),
    next: /** @type {HTMLButtonElement} */ (find('.ast-next')),
    announce: find('.ast-announce'),
    output: find('.ast-output'),
    status: find('.ast-status'),
    error: find('.ast-error'),
    result: find('.ast-result'),
    title: find('.ast-title'),
    shape: find('.ast-shape'),
    explain: find('.ast-explain'),
    figure: find('.ast-figure'),
    readout,
    padNote: find('.ast-pad-note'),
    unknown: find('.ast-unknown'),
    tables: find('.ast-tables'),
  };
}

/** @typedef {ReturnType<typeof buildAttentionStepsParts>} AttentionStepsParts */

/**
 * Marks the current step in the list and at the two ends makes Previous or Next inert (they keep
 * their focus, so the keys never fall back to the slides).
 * @param {AttentionStepsParts} parts
 * @param {number} step 1..STEPS.length
 */
export function showStep(parts, step) {
  parts.steps.forEach((button, i) => {
    if (i + 1 === step) button.setAttribute('aria-current', 'step');
    else button.removeAttribute('aria-current');
  });
  parts.prev.setAttribute('aria-disabled', String(step <= 1));
  parts.next.setAttribute('aria-disabled', String(step >= STEPS.length));
}

/**
 * Says the step reached in the live line, for screen readers.
 * @param {AttentionStepsParts} parts
 * @param {number} step 1..STEPS.length
 */
export function announceStep(parts, step) {
  parts.announce.textContent = `Step ${step} of ${STEPS.length}: ${STEPS[step - 1].said}.`;
}
