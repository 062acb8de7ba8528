// The multi-head widget's elements: sentence, head count, seed, the sizes and parameter counts,
// then the per-head weights (small multiples) and the combined output. Ids are unique per instance.
import { buildReadout } from '../../views/heatmap/index.js';
import { seedFieldHtml } from '../shared/seed.js';
import { sentenceFieldHtml } from '../shared/token-cap.js';
import { messageLinesHtml } from '../shared/line.js';

let instances = 0;

/**
 * Builds the widget's elements (not yet in the page).
 * @param {Document} doc
 * @param {number} maxTokens
 */
export function buildMultiHeadParts(doc, maxTokens) {
  const id = `mh-${++instances}`;
  const root = doc.createElement('div');
  root.className = 'mh split widget-columns';
  root.innerHTML = `
    <div class="mh-controls split-controls sentence-areas">
      ${sentenceFieldHtml(id, { label: 'Sentence', input: 'hm-sentence mh-sentence', helpClass: 'mh-help', help: `Words and punctuation become tokens; the figure draws the first ${maxTokens}.` })}
      <div class="mh-row">
        <fieldset class="mh-heads">
          <legend>Heads <var>h</var></legend>
          <div class="mh-choices"></div>
        </fieldset>
        <div class="mh-seed-field">
          ${seedFieldHtml(id, { input: 'mh-seed', label: 'mh-seed-label', describedBy: `${id}-seed-help` })}
        </div>
      </div>
      <p id="${id}-seed-help" class="help mh-help deck-hidden">
        W<sup>Q</sup>, W<sup>K</sup>, W<sup>V</sup> and W<sup>O</sup> are drawn with
        Glorot-uniform numbers from the seed and the three after it.
      </p>
      <p class="mh-sizes" aria-live="polite"></p>
      <div class="mh-params" aria-live="polite"></div>
    </div>
    <div class="mh-output split-output">
      ${messageLinesHtml('mh')}
      <div class="mh-result" hidden>
        <figure class="widget-figure" aria-labelledby="${id}-heads-title">
          <figcaption id="${id}-heads-title"></figcaption>
          <div class="mh-grid"></div>
          <div class="mh-legend"></div>
        </figure>
        <figure class="widget-figure" aria-labelledby="${id}-out-title">
          <figcaption id="${id}-out-title"></figcaption>
          <div class="mh-out"></div>
        </figure>
        <p class="note mh-unknown" hidden></p>
        <div class="mh-tables"></div>
      </div>
    </div>`;
  const find = (selector) => /** @type {any} */ (root.querySelector(selector));
  const readout = buildReadout(doc, `${id}-readout`, 'value');
  readout.classList.add('mh-readout');
  find('.mh-unknown').before(readout);
  return {
    id,
    root,
    sentence: find('.mh-sentence'),
    choices: find('.mh-choices'),
    seed: find('.mh-seed'),
    sizes: find('.mh-sizes'),
    params: find('.mh-params'),
    output: find('.mh-output'),
    status: find('.mh-status'),
    error: find('.mh-error'),
    result: find('.mh-result'),
    headsTitle: find(`#${id}-heads-title`),
    grid: find('.mh-grid'),
    outTitle: find(`#${id}-out-title`),
    out: find('.mh-out'),
    legend: find('.mh-legend'),
    readout,
    unknown: find('.mh-unknown'),
    tables: find('.mh-tables'),
    /** @type {import('./figures.js').Fit | null} how the figure fits its column */
    fit: null,
  };
}

/** @typedef {ReturnType<typeof buildMultiHeadParts>} MultiHeadParts */

/**
 * Fills the head-count radio group with one choice per divisor of d_model.
 * @param {MultiHeadParts} parts
 * @param {number[]} choices
 * @param {number} checked
 */
export function setHeadChoices(parts, choices, checked) {
  const doc = parts.root.ownerDocument;
  parts.choices.replaceChildren(
    ...choices.map((h) => {
      const label = doc.createElement('label');
      label.className = 'mh-choice';
      const input = doc.createElement('input');
      Object.assign(input, { type: 'radio', name: `${parts.id}-heads`, value: String(h) });
      input.checked = h === checked;
      label.append(input, doc.createTextNode(String(h)));
      return label;
    }),
  );
}
