// The cross-attention widget's elements: two sentences, the mode (cross, or self-attention of
// either sentence), optional seeded projections, then the line of shapes and the weights' heatmap.
// Ids are unique per instance, so several can share a page.
import { buildReadout } from '../../views/heatmap/index.js';
import { seedFieldHtml } from '../shared/seed.js';
import { MAX_TOKENS } from './math.js';
import { choicesHtml } from '../shared/choices.js';
import { messageLinesHtml } from '../shared/line.js';

let instances = 0;

/** The mode switch: value, visible name. */
const MODE_CHOICES = [
  ['cross', 'Cross: A asks B'],
  ['self-a', 'Self: A asks A'],
  ['self-b', 'Self: B asks B'],
];

/**
 * Builds the widget's elements (not yet in the page).
 * @param {Document} doc
 */
export function buildCrossParts(doc) {
  const id = `xa-${++instances}`;
  const root = doc.createElement('div');
  root.className = 'xa split widget-columns';
  const sentence = (side, name, help) => `
      <label class="field-label xa-label" for="${id}-${side}">${name}</label>
      <input id="${id}-${side}" class="widget-input xa-sentence xa-${side}" name="sentence-${side}"
        type="text" dir="auto" spellcheck="false" autocomplete="off" autocapitalize="off"
        aria-describedby="${id}-${side}-help" />
      <p id="${id}-${side}-help" class="help xa-help deck-hidden">${help}</p>`;
  root.innerHTML = `
    <div class="xa-controls split-controls">
      <div class="xa-sentences">
        ${sentence('a', 'Sentence A', `Its tokens ask: the queries (up to ${MAX_TOKENS}).`)}
        ${sentence('b', 'Sentence B', `Its tokens answer: the keys and values (up to ${MAX_TOKENS}).`)}
      </div>
      <fieldset class="xa-modes" aria-describedby="${id}-mode-help">
        <legend>Mode</legend>
        ${choicesHtml(`${id}-mode`, MODE_CHOICES, { row: 'xa-choices', choice: 'xa-choice' })}
        <p id="${id}-mode-help" class="help xa-help deck-hidden">
          Cross: queries from A, keys and values from B. Self: all three from one sentence.
        </p>
      </fieldset>
      <div class="xa-projection">
        <div class="toggle xa-toggle">
          <input id="${id}-project" class="xa-project" name="project" type="checkbox"
            aria-describedby="${id}-project-help" />
          <label for="${id}-project">Random W<sub>Q</sub>, W<sub>K</sub>, W<sub>V</sub></label>
        </div>
        <span class="xa-seed-field">
          ${seedFieldHtml(id, { input: 'widget-input xa-seed', label: 'xa-seed-label', describedBy: `${id}-project-help` })}
        </span>
        <p id="${id}-project-help" class="help xa-help deck-hidden">
          Off: Q, K and V are the word vectors themselves. On: each is multiplied by its own
          Glorot-uniform matrix, drawn from the seed and the numbers after it.
        </p>
      </div>
    </div>
    <div class="xa-output split-output">
      ${messageLinesHtml('xa')}
      <figure class="xa-result" aria-labelledby="${id}-title" hidden>
        <figcaption id="${id}-title" class="xa-title deck-hidden"></figcaption>
        <p class="xa-shapes"></p>
        <p class="help xa-axes deck-hidden"></p>
        <div class="xa-figure"></div>
        <div class="xa-tables"></div>
        <p class="note xa-note">
          <strong class="xa-shape"></strong> <span class="xa-why"></span>
          <span class="xa-unknown"></span>
        </p>
      </figure>
    </div>`;
  const find = (selector) => /** @type {any} */ (root.querySelector(selector));
  const readout = buildReadout(doc, `${id}-readout`, 'weight');
  readout.classList.add('xa-readout');
  find('.xa-figure').after(readout);
  return {
    root,
    /** @type {HTMLInputElement} */
    a: find('.xa-a'),
    /** @type {HTMLInputElement} */
    b: find('.xa-b'),
    /** @type {HTMLInputElement[]} */
    modes: [...root.querySelectorAll('.xa-choice input')],
    /** @type {HTMLInputElement} */
    project: find('.xa-project'),
    /** @type {HTMLInputElement} */
    seed: find('.xa-seed'),
    status: find('.xa-status'),
    error: find('.xa-error'),
    result: find('.xa-result'),
    title: find('.xa-title'),
    shape: find('.xa-shape'),
    shapes: find('.xa-shapes'),
    axes: find('.xa-axes'),
    figure: find('.xa-figure'),
    readout,
    tables: find('.xa-tables'),
    why: find('.xa-why'),
    unknown: find('.xa-unknown'),
  };
}

/** @typedef {ReturnType<typeof buildCrossParts>} CrossParts */

/**
 * @param {CrossParts} parts
 * @returns {string} the chosen mode's value
 */
export function checkedMode(parts) {
  return parts.modes.find((input) => input.checked)?.value ?? 'cross';
}

/**
 * @param {CrossParts} parts
 * @param {string} mode
 */
export function checkMode(parts, mode) {
  for (const input of parts.modes) input.checked = input.value === mode;
}
