// The weighted-retrieval widget's elements: the source sentence, the query word, the seed, the
// mode and the lines that say what is wrong or missing; then either the three scoring functions
// side by side (each with its weights as bars, its scores and its context vector) or the drag
// mode (one slider per source token, the weights and the context). Ids are unique per instance.
// Nothing the learner types is put in as HTML.
import { buildReadout } from '../../views/heatmap/index.js';
import { seedFieldHtml } from '../shared/seed.js';
import { ATTENTION_WIDTH, KINDS } from './math.js';
import { sentenceFieldHtml } from '../shared/token-cap.js';
import { choicesHtml } from '../shared/choices.js';
import { messageLinesHtml } from '../shared/line.js';

let instances = 0;

/** Suggested query words, all in the vocabulary. */
export const SUGGESTIONS = ['kitten', 'dog', 'rug', 'floor', 'sitting', 'under', 'animal', 'seat'];

/** How each scoring function is named and written. */
export const KIND_TEXT = {
  dot: { name: 'Dot', formula: 's · h<sub>j</sub>' },
  general: { name: 'General', formula: 's · W h<sub>j</sub>' },
  additive: {
    name: 'Additive',
    formula: 'v · tanh(W<sub>s</sub>\u2009s + W<sub>h</sub>\u2009h<sub>j</sub>)',
  },
  drag: { name: 'Your scores', formula: 'e<sub>j</sub> from the sliders' },
};

/**
 * One figure: its head (name, formula, sum of the weights), the weights as bars, the scores as a
 * table and the context vector.
 * @param {string} id
 * @param {string} kind a scoring function, or 'drag'
 */
function cardHtml(id, kind) {
  const text = KIND_TEXT[kind];
  const scores = kind === 'drag' ? '' : `<div class="wr-scores" data-kind="${kind}"></div>`;
  return `
    <figure class="wr-card" data-kind="${kind}" aria-labelledby="${id}-${kind}-name">
      <figcaption class="wr-card-head">
        <span id="${id}-${kind}-name" class="wr-card-name">${text.name}</span>
        <span class="wr-formula">${text.formula}</span>
        <span class="wr-sum"></span>
      </figcaption>
      <div class="wr-bars"></div>
      ${scores}
      <div class="wr-context"></div>
    </figure>`;
}

/**
 * Builds the widget's elements (not yet in the page).
 * @param {Document} doc
 * @param {number} maxTokens
 */
export function buildRetrievalParts(doc, maxTokens) {
  const id = `wr-${++instances}`;
  const root = doc.createElement('div');
  root.className = 'wr split';
  const options = SUGGESTIONS.map((word) => `<option value="${word}"></option>`).join('');
  // deck-hidden (deck-figures.css): on a slide the query word shows in its box and the mode's
  // two buttons say what they do, so those lines are left to screen readers there.
  root.innerHTML = `
    <div class="wr-controls">
      <div class="wr-field wr-sentence-field">
        ${sentenceFieldHtml(id, { label: 'Source sentence', input: 'hm-sentence wr-sentence', helpClass: 'wr-help', help: `Each token's word vector is one encoder state h<sub>j</sub> (up to ${maxTokens} tokens).` })}
      </div>
      <div class="wr-field wr-query-field">
        <label class="field-label" for="${id}-query">Query word</label>
        <input id="${id}-query" class="widget-input wr-query" name="query" type="text" list="${id}-words"
          spellcheck="false" autocomplete="off" autocapitalize="off"
          aria-describedby="${id}-query-help" />
        <datalist id="${id}-words">${options}</datalist>
        <p id="${id}-query-help" class="help wr-help deck-hidden">
          Its word vector is the decoder state s.
        </p>
      </div>
      <div class="wr-field wr-seed-field">
        ${seedFieldHtml(id, { input: 'widget-input wr-seed', label: 'field-label', describedBy: `${id}-seed-help` })}
        <p id="${id}-seed-help" class="help wr-help deck-hidden">
          Draws W (general) and W<sub>s</sub>, W<sub>h</sub>, v (additive,
          d<sub>a</sub> = ${ATTENTION_WIDTH}) at random.
        </p>
      </div>
      <fieldset class="wr-mode">
        <legend class="field-label deck-hidden">Scores</legend>
        ${choicesHtml(
          `${id}-mode`,
          [
            ['compare', 'Three scoring functions'],
            ['drag', 'Drag the scores'],
          ],
          { row: 'wr-mode-choices', choice: 'wr-mode-choice' },
        )}
      </fieldset>
      <div class="wr-messages">
        ${messageLinesHtml('wr')}
        <p class="note wr-unknown" hidden></p>
      </div>
    </div>
    <div class="wr-output">
      <div class="wr-result" hidden>
        <p class="wr-query-line deck-hidden"></p>
        <div class="wr-compare">
          ${KINDS.map((kind) => cardHtml(id, kind)).join('')}
        </div>
        <div class="wr-drag">
          <div class="wr-drag-controls" role="group" aria-labelledby="${id}-drag-title">
            <div class="wr-drag-head">
              <p id="${id}-drag-title" class="wr-drag-title">Scores e<sub>j</sub>, set by hand</p>
              <button type="button" class="widget-button secondary wr-reset">Set every score to 0</button>
            </div>
            <div class="wr-sliders"></div>
          </div>
          ${cardHtml(id, 'drag')}
        </div>
        <div class="wr-shared">
          <div class="wr-legend"></div>
          <div class="wr-tables"></div>
        </div>
      </div>
    </div>`;
  const find = (selector) => /** @type {any} */ (root.querySelector(selector));
  const readout = buildReadout(doc, `${id}-readout`, 'value');
  readout.classList.add('wr-readout');
  find('.wr-tables').before(readout);
  const card = (kind) => {
    const figure = find(`.wr-card[data-kind="${kind}"]`);
    const part = (selector) => /** @type {HTMLElement} */ (figure.querySelector(selector));
    return {
      figure: /** @type {HTMLElement} */ (figure),
      bars: part('.wr-bars'),
      sum: part('.wr-sum'),
      scores: part('.wr-scores'),
      context: part('.wr-context'),
    };
  };
  return {
    id,
    root,
    sentence: /** @type {HTMLTextAreaElement} */ (find('.wr-sentence')),
    query: /** @type {HTMLInputElement} */ (find('.wr-query')),
    seed: /** @type {HTMLInputElement} */ (find('.wr-seed')),
    modes: /** @type {HTMLInputElement[]} */ (Array.from(root.querySelectorAll('.wr-mode input'))),
    status: find('.wr-status'),
    error: find('.wr-error'),
    result: find('.wr-result'),
    queryLine: find('.wr-query-line'),
    compare: find('.wr-compare'),
    drag: find('.wr-drag'),
    sliders: find('.wr-sliders'),
    reset: /** @type {HTMLButtonElement} */ (find('.wr-reset')),
    unknown: find('.wr-unknown'),
    legend: find('.wr-legend'),
    readout,
    tables: find('.wr-tables'),
    cards: {
      dot: card('dot'),
      general: card('general'),
      additive: card('additive'),
      drag: card('drag'),
    },
  };
}

/** @typedef {ReturnType<typeof buildRetrievalParts>} RetrievalParts */
/** @typedef {RetrievalParts['cards']['dot']} CardParts */
