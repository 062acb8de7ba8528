// The language-model widget's elements: the text box, the "Repeat random words" button, the
// model's next words and the line about its training (under the slide text in the deck); then the
// heads as a layer by head grid of small heatmaps, and the chosen head drawn large with its lines
// (where the read-out's word looks most, the live induction score) and, beside it, its read-out,
// legend and table. Ids are unique per instance, so several can share a page.
import { buildReadout } from '../../views/heatmap/index.js';
import { REPEAT_WORDS } from './math.js';
import { sentenceFieldHtml } from '../shared/token-cap.js';
import { messageLinesHtml } from '../shared/line.js';

let instances = 0;
/** Far above the numbers the heatmap view gives its own legends. */
const LEGEND_IDS = 1_000_000;

/**
 * Builds the widget's elements (not yet in the page).
 * @param {Document} doc
 * @param {{ demo: boolean }} options demo: the repeat button stands out (the induction
 *   demonstration)
 */
export function buildLanguageModelParts(doc, { demo }) {
  const instance = ++instances;
  const id = `lm-${instance}`;
  const root = doc.createElement('div');
  root.className = `lm split${demo ? ' lm-demo' : ''}`;
  root.innerHTML = `
    <div class="lm-controls split-controls sentence-areas">
      ${sentenceFieldHtml(id, { label: 'Text for the trained model', input: 'lm-sentence', labelClass: 'lm-label', helpClass: 'lm-help', help: 'Words and punctuation become tokens, each looking only at itself and the tokens before it. The figure follows as you type.' })}
      <div class="lm-repeat-row">
        <button type="button" class="widget-button lm-repeat${demo ? '' : ' secondary'}"
          aria-describedby="${id}-repeat-help">Repeat random words</button>
        <p id="${id}-repeat-help" class="help lm-repeat-help deck-hidden">
          Writes ${REPEAT_WORDS} random words twice and draws the head that best finds where the
          current word was before, and what came after it.
        </p>
      </div>
      <figure class="lm-figure lm-next" aria-labelledby="${id}-next-title" hidden>
        <figcaption id="${id}-next-title" class="lm-title lm-next-title">
          The model\u2019s next word
        </figcaption>
        <ol class="lm-next-list"></ol>
      </figure>
      <p class="help lm-facts"></p>
    </div>
    <div class="lm-output split-output">
      ${messageLinesHtml('lm')}
      <div class="lm-result" hidden>
        <figure class="lm-figure lm-heads" aria-labelledby="${id}-heads-title">
          <figcaption id="${id}-heads-title" class="lm-title lm-heads-title deck-hidden"></figcaption>
          <div class="lm-grid" role="group" aria-labelledby="${id}-heads-title"></div>
        </figure>
        <figure class="lm-figure lm-chosen" aria-labelledby="${id}-chosen-title">
          <figcaption id="${id}-chosen-title" class="lm-title lm-chosen-title"></figcaption>
          <p class="lm-line lm-strongest"></p>
          <p class="lm-line lm-induction" aria-live="polite" hidden></p>
          <div class="lm-large">
            <div class="lm-map"></div>
            <div class="lm-side">
              <div class="lm-legend"></div>
              <div class="lm-tables"></div>
            </div>
          </div>
        </figure>
        <p class="note lm-unknown" hidden></p>
      </div>
    </div>`;
  const find = (selector) => /** @type {any} */ (root.querySelector(selector));
  // The small heatmaps are pictures of their head; their cells are read in the large one, whose
  // read-out sits under the lines about it.
  const tileReadout = buildReadout(doc, `${id}-tile-readout`);
  tileReadout.hidden = true;
  find('.lm-grid').after(tileReadout);
  const readout = buildReadout(doc, `${id}-readout`);
  readout.classList.add('lm-readout');
  find('.lm-side').prepend(readout);
  return {
    id,
    /** Numbers this instance's legend, whose pattern ids must be unique on the page. */
    legendId: LEGEND_IDS + instance,
    root,
    sentence: /** @type {HTMLTextAreaElement} */ (find('.lm-sentence')),
    help: find('.lm-help'),
    repeat: /** @type {HTMLButtonElement} */ (find('.lm-repeat')),
    nextFigure: find('.lm-next'),
    next: find('.lm-next-list'),
    facts: find('.lm-facts'),
    output: find('.lm-output'),
    status: find('.lm-status'),
    error: find('.lm-error'),
    result: find('.lm-result'),
    headsTitle: find(`#${id}-heads-title`),
    grid: find('.lm-grid'),
    tileReadout,
    chosenTitle: find('.lm-chosen-title'),
    strongest: find('.lm-strongest'),
    induction: find('.lm-induction'),
    readout,
    large: find('.lm-large'),
    map: find('.lm-map'),
    legend: find('.lm-legend'),
    tables: find('.lm-tables'),
    unknown: find('.lm-unknown'),
    /** @type {import('./figures.js').Fit | null} how the large head fits its column */
    fit: null,
  };
}

/** @typedef {ReturnType<typeof buildLanguageModelParts>} LanguageModelParts */
