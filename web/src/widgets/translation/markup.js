// The translation widget's elements, for one of its three views: the English sentence, then
// - compare: both models' German side by side and Figure 2, BLEU by English length;
// - steps: the German written so far with a step slider, and for the chosen step the scores
//   e_tj and the weights alpha_tj over the English words;
// - alignment: the attention model's weights as a matrix, German rows and English columns.
// Every view ends with what the models are and how good they are. Ids are unique per instance.
import { buildReadout } from '../../views/heatmap/index.js';
import { MAX_STEP } from './link-settings.js';
import { sentenceFieldHtml } from '../shared/token-cap.js';
import { messageLinesHtml } from '../shared/line.js';

/** @typedef {'compare' | 'steps' | 'alignment'} TranslationView */

let instances = 0;

/**
 * Builds the widget's elements (not yet in the page).
 * @param {Document} doc
 * @param {TranslationView} view
 */
export function buildTranslationParts(doc, view) {
  const id = `mt-${++instances}`;
  const root = doc.createElement('div');
  root.className = `mt split mt-${view}`;
  root.dataset.view = view;
  root.innerHTML = `
    <div class="mt-controls split-controls">
      ${sentenceFieldHtml(id, { label: 'English sentence', input: 'hm-sentence mt-sentence', helpClass: 'mt-help', language: 'en', help: 'The models translate as you type; they read up to 64 words and punctuation marks.' })}
      <p class="status busy mt-pending" hidden></p>
    </div>
    <div class="mt-output split-output">
      ${messageLinesHtml('mt')}
      <figure class="mt-result" aria-labelledby="${id}-title" hidden>
        <figcaption id="${id}-title" class="mt-title deck-hidden"></figcaption>
        ${VIEWS[view](id)}
        <p class="note mt-unknown" hidden></p>
        <p class="note mt-facts"><span class="mt-facts-short"></span>
          <span class="mt-facts-more deck-hidden"></span></p>
      </figure>
    </div>`;
  const find = (selector) => /** @type {any} */ (root.querySelector(selector));
  const readout = view === 'alignment' ? buildReadout(doc, `${id}-readout`, 'weight') : null;
  if (readout) find('.mt-matrix').after(readout);
  return {
    root,
    view,
    /** @type {HTMLTextAreaElement} */
    sentence: find('.mt-sentence'),
    /** @type {HTMLInputElement | null} */
    step: find('.mt-step'),
    /** @type {HTMLElement | null} */
    stepValue: find('.mt-step-value'),
    status: find('.mt-status'),
    /** @type {HTMLElement} under the sentence: the figure is a recording, the models loading (a
     * note, not a live region: the deck's one status region speaks for the slide) */
    pending: find('.mt-pending'),
    error: find('.mt-error'),
    result: find('.mt-result'),
    title: find('.mt-title'),
    /** @type {HTMLElement | null} the attention model's German */
    attention: find('.mt-attention'),
    /** @type {HTMLElement | null} the fixed-vector model's German */
    fixedVector: find('.mt-fixed-vector'),
    /** @type {HTMLElement | null} */
    chart: find('.mt-chart'),
    /** @type {HTMLElement | null} */
    lead: find('.mt-lead'),
    /** @type {HTMLElement | null} */
    words: find('.mt-words'),
    /** @type {HTMLElement | null} */
    stepLine: find('.mt-step-line'),
    /** @type {HTMLElement | null} */
    scores: find('.mt-scores'),
    /** @type {HTMLElement | null} */
    weights: find('.mt-weights'),
    /** @type {HTMLElement | null} */
    sum: find('.mt-sum'),
    /** @type {HTMLElement | null} */
    sumValue: find('.mt-sum-value'),
    /** @type {HTMLElement | null} */
    matrix: find('.mt-matrix'),
    readout,
    /** @type {HTMLElement | null} */
    tables: find('.mt-tables'),
    /** @type {HTMLElement | null} */
    alignmentFacts: find('.mt-alignment-facts'),
    unknown: find('.mt-unknown'),
    factsShort: find('.mt-facts-short'),
    factsMore: find('.mt-facts-more'),
  };
}

/** @typedef {ReturnType<typeof buildTranslationParts>} TranslationParts */

/**
 * The step slider, whose maximum the figure sets to the words written (until then, any step a
 * link names stands).
 * @param {string} id
 */
function stepControls(id) {
  return `
      <div class="mt-step-field">
        <label class="field-label" for="${id}-step">German word</label>
        <input id="${id}-step" class="mt-step" name="step" type="range" min="1"
          max="${MAX_STEP}" step="1" value="1" aria-describedby="${id}-step-help" />
        <output class="mt-step-value" for="${id}-step"></output>
      </div>
      <p id="${id}-step-help" class="help mt-help deck-hidden">
        Choose which output step to look at: the decoder writes one German word per step.
      </p>`;
}

/** @type {Record<TranslationView, (id: string) => string>} */
const VIEWS = {
  compare: () => `
        <div class="mt-models">
          <div class="mt-model">
            <h3 class="mt-model-name">With attention</h3>
            <p class="mt-german mt-attention" lang="de"></p>
          </div>
          <div class="mt-model">
            <h3 class="mt-model-name">One fixed vector</h3>
            <p class="mt-german mt-fixed-vector" lang="de"></p>
          </div>
        </div>
        <div class="mt-chart"></div>
        <p class="note mt-lead"></p>`,
  steps: (id) => `
        ${stepControls(id)}
        <p class="mt-german mt-words" lang="de"></p>
        <p class="mt-step-line"></p>
        <div class="mt-bars">
          <p class="mt-bars-name">Scores e<sub>tj</sub>, any sign</p>
          <div class="mt-scores"></div>
          <p class="mt-bars-name">Weights α<sub>tj</sub>, their softmax, adding up to
            <span class="mt-sum-value"></span></p>
          <div class="mt-weights"></div>
        </div>
        <p class="note mt-sum deck-hidden"></p>`,
  alignment: () => `
        <p class="mt-german mt-words" lang="de"></p>
        <div class="mt-matrix"></div>
        <div class="mt-tables"></div>
        <p class="note mt-alignment-facts deck-hidden"></p>`,
};
