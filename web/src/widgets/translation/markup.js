// The translation widget's elements, for one of its three views: the English sentence, then
// - compare: both models' German side by side and Figure 2, BLEU by English length;
// - steps: the German written so far with a step slider, and for the chosen step the scores
//   e_tj and the weights alpha_tj over the English words;
// - alignment: the attention model's weights as a matrix, German rows and English columns.
// Every view ends with what the models are and how good they are. Ids are unique per instance.
import { buildReadout } from '../../views/heatmap/index.js';
import { MAX_STEP } from './link-settings.js';

/** @typedef {'compare' | 'steps' | 'alignment'} TranslationView */

let instances = 0;

/**
 * Builds the widget's elements (not yet in the page).
 * @param {Document} doc
 * @param {TranslationView} view
 */
export function buildTranslationParts(doc, view) {
  const id = `tr-${++instances}`;
  const root = doc.createElement('div');
  root.className = `tr split tr-${view}`;
  root.dataset.view = view;
  root.innerHTML = `
    <div class="tr-controls split-controls">
      <label class="field-label" for="${id}-sentence">English sentence</label>
      <textarea id="${id}-sentence" class="hm-sentence tr-sentence" name="sentence" rows="2"
        lang="en" dir="auto" spellcheck="false" autocomplete="off" autocapitalize="off"
        aria-describedby="${id}-help"></textarea>
      <p id="${id}-help" class="help tr-help deck-hidden">
        The models translate as you type; they read up to 64 words and punctuation marks.
      </p>
    </div>
    <div class="tr-output split-output">
      <p class="status tr-status" role="status" hidden></p>
      <p class="error tr-error" role="alert" hidden></p>
      <figure class="tr-result" aria-labelledby="${id}-title" hidden>
        <figcaption id="${id}-title" class="tr-title deck-hidden"></figcaption>
        ${VIEWS[view](id)}
        <p class="note tr-unknown" hidden></p>
        <p class="note tr-facts"><span class="tr-facts-short"></span>
          <span class="tr-facts-more deck-hidden"></span></p>
      </figure>
    </div>`;
  const find = (selector) => /** @type {any} */ (root.querySelector(selector));
  const readout = view === 'alignment' ? buildReadout(doc, `${id}-readout`, 'weight') : null;
  if (readout) find('.tr-matrix').after(readout);
  return {
    root,
    view,
    /** @type {HTMLTextAreaElement} */
    sentence: find('.tr-sentence'),
    /** @type {HTMLInputElement | null} */
    step: find('.tr-step'),
    /** @type {HTMLElement | null} */
    stepValue: find('.tr-step-value'),
    status: find('.tr-status'),
    error: find('.tr-error'),
    result: find('.tr-result'),
    title: find('.tr-title'),
    /** @type {HTMLElement | null} the attention model's German */
    attention: find('.tr-attention'),
    /** @type {HTMLElement | null} the fixed-vector model's German */
    fixedVector: find('.tr-fixed-vector'),
    /** @type {HTMLElement | null} */
    chart: find('.tr-chart'),
    /** @type {HTMLElement | null} */
    lead: find('.tr-lead'),
    /** @type {HTMLElement | null} */
    words: find('.tr-words'),
    /** @type {HTMLElement | null} */
    stepLine: find('.tr-step-line'),
    /** @type {HTMLElement | null} */
    scores: find('.tr-scores'),
    /** @type {HTMLElement | null} */
    weights: find('.tr-weights'),
    /** @type {HTMLElement | null} */
    sum: find('.tr-sum'),
    /** @type {HTMLElement | null} */
    sumValue: find('.tr-sum-value'),
    /** @type {HTMLElement | null} */
    matrix: find('.tr-matrix'),
    readout,
    /** @type {HTMLElement | null} */
    tables: find('.tr-tables'),
    /** @type {HTMLElement | null} */
    alignmentFacts: find('.tr-alignment-facts'),
    unknown: find('.tr-unknown'),
    facts: find('.tr-facts'),
    factsShort: find('.tr-facts-short'),
    factsMore: find('.tr-facts-more'),
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
      <div class="tr-step-field">
        <label class="field-label" for="${id}-step">German word</label>
        <input id="${id}-step" class="tr-step" name="step" type="range" min="1"
          max="${MAX_STEP}" step="1" value="1" aria-describedby="${id}-step-help" />
        <output class="tr-step-value" for="${id}-step"></output>
      </div>
      <p id="${id}-step-help" class="help tr-help deck-hidden">
        Choose which output step to look at: the decoder writes one German word per step.
      </p>`;
}

/** @type {Record<TranslationView, (id: string) => string>} */
const VIEWS = {
  compare: () => `
        <div class="tr-models">
          <div class="tr-model">
            <h3 class="tr-model-name">With attention</h3>
            <p class="tr-german tr-attention" lang="de"></p>
          </div>
          <div class="tr-model">
            <h3 class="tr-model-name">One fixed vector</h3>
            <p class="tr-german tr-fixed-vector" lang="de"></p>
          </div>
        </div>
        <div class="tr-chart"></div>
        <p class="note tr-lead"></p>`,
  steps: (id) => `
        ${stepControls(id)}
        <p class="tr-german tr-words" lang="de"></p>
        <p class="tr-step-line"></p>
        <div class="tr-bars">
          <p class="tr-bars-name">Scores e<sub>tj</sub>, any sign</p>
          <div class="tr-scores"></div>
          <p class="tr-bars-name">Weights α<sub>tj</sub>, their softmax, adding up to
            <span class="tr-sum-value"></span></p>
          <div class="tr-weights"></div>
        </div>
        <p class="note tr-sum deck-hidden"></p>`,
  alignment: () => `
        <p class="tr-german tr-words" lang="de"></p>
        <div class="tr-matrix"></div>
        <div class="tr-tables"></div>
        <p class="note tr-alignment-facts deck-hidden"></p>`,
};
