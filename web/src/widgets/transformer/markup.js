// The transformer widget's elements, for one of its two views: the English sentence, then
// - heads: the search (greedy or the measured beam) and a choice of the decoder's cross-attention
//   heads (each with what it scored on the test split) beside the sentence, then the German the
//   Transformer writes and the chosen head's weights as one German-by-English matrix, with what
//   it scored under it;
// - compare: the three translators' German side by side and their BLEU by English length;
// - encoder: a choice of the encoder's self-attention heads beside the sentence, then the chosen
//   head's weights as one English-by-English matrix;
// - stream: a choice of measure beside the sentence, then the residual stream of every English
//   word at every stage of the encoder, by that measure, as one word-by-stage matrix, with what it
//   shows on the sentence and what the report measured on the test split.
// Every view ends with what the models are. Ids are unique per instance.
import { buildReadout } from '../../views/heatmap/index.js';
import { choicesHtml } from '../shared/choices.js';
import { messageLinesHtml } from '../shared/line.js';
import { sentenceFieldHtml } from '../shared/token-cap.js';
import { MEASURE_LABELS, MEASURES, encoderHeadChoices, headTag } from './encoder-text.js';
import { headChoices, scoreLabel } from './text.js';

/** @typedef {'heads' | 'compare' | 'encoder' | 'stream'} TransformerView */

/** The views that draw one matrix, with its read-out and its table. */
const MATRIX_VIEWS = ['heads', 'encoder', 'stream'];

let instances = 0;

/**
 * Builds the widget's elements (not yet in the page).
 * @param {Document} doc
 * @param {TransformerView} view
 * @param {import('../../engine/index.js').TranslatorInfo} info the Transformer's
 */
export function buildTransformerParts(doc, view, info) {
  const id = `tf-${++instances}`;
  const root = doc.createElement('div');
  root.className = `tf split tf-${view}`;
  root.dataset.view = view;
  const search =
    view === 'heads'
      ? `<fieldset class="tf-search">
          <legend class="field-label">Search</legend>
          ${choicesHtml(`${id}-search`, [
            ['greedy', 'greedy'],
            ['beam', `beam ${info.measuredBeam}`],
          ])}
        </fieldset>`
      : '';
  root.innerHTML = `
    <div class="tf-controls split-controls sentence-areas">
      ${sentenceFieldHtml(id, { label: 'English sentence', input: 'hm-sentence tf-sentence', helpClass: 'tf-help', language: 'en', help: 'The models translate as you type; they read up to 64 words and punctuation marks.' })}
      ${search}
      ${view === 'heads' ? headsHtml(id, info) : ''}
      ${view === 'encoder' ? encoderHeadsHtml(id, info) : ''}
      ${view === 'stream' ? measuresHtml(id) : ''}
    </div>
    <div class="tf-output split-output">
      ${messageLinesHtml('tf')}
      <figure class="tf-result" aria-labelledby="${id}-title" hidden>
        <figcaption id="${id}-title" class="tf-title deck-hidden"></figcaption>
        ${FIGURES[view]}
        <p class="note tf-unknown" hidden></p>
        <p class="note tf-facts deck-hidden"></p>
      </figure>
    </div>`;
  const find = (selector) => /** @type {any} */ (root.querySelector(selector));
  // On a slide the heads are laid out a layer a row, their mean beside them (deck.css).
  const sizes = info.transformer;
  const headRow = /** @type {HTMLElement | null} */ (root.querySelector('.tf-head-choices'));
  if (headRow && sizes) {
    headRow.style.setProperty('--tf-heads', String(sizes.heads));
    const layers = view === 'encoder' ? sizes.encoderLayers : sizes.decoderLayers;
    headRow.style.setProperty('--tf-layers', String(layers));
  }
  const readout = MATRIX_VIEWS.includes(view)
    ? buildReadout(doc, `${id}-readout`, view === 'stream' ? 'value' : 'weight')
    : null;
  if (readout) find('.tf-matrix').after(readout);
  return {
    root,
    view,
    /** @type {HTMLTextAreaElement} */
    sentence: find('.tf-sentence'),
    /** @type {HTMLInputElement[]} the search's radios, none in the compare view */
    searches: Array.from(root.querySelectorAll('.tf-search input')),
    /** @type {HTMLInputElement[]} the heads' radios (the decoder's cross-attention heads, or the
     * encoder's self-attention heads), none in the compare and stream views */
    heads: Array.from(root.querySelectorAll('.tf-head-choices input')),
    /** @type {HTMLInputElement[]} the measures' radios, the stream view's only */
    measures: Array.from(root.querySelectorAll('.tf-measure input')),
    status: find('.tf-status'),
    error: find('.tf-error'),
    /** @type {HTMLElement} */
    result: find('.tf-result'),
    /** @type {HTMLElement} */
    title: find('.tf-title'),
    /** @type {HTMLElement | null} the Transformer's German (heads view) */
    words: find('.tf-words'),
    /** @type {HTMLElement | null} */
    matrix: find('.tf-matrix'),
    readout,
    /** @type {HTMLElement | null} */
    tables: find('.tf-tables'),
    /** @type {HTMLElement | null} */
    headFacts: find('.tf-head-facts'),
    /** @type {HTMLElement | null} */
    split: find('.tf-split'),
    /** @type {Record<'fixedVector' | 'attention' | 'transformer', HTMLElement | null>} */
    german: {
      fixedVector: find('.tf-fixed-vector'),
      attention: find('.tf-attention'),
      transformer: find('.tf-transformer'),
    },
    /** @type {HTMLElement | null} */
    chart: find('.tf-chart'),
    /** @type {HTMLElement | null} */
    lead: find('.tf-lead'),
    /** @type {HTMLElement} */
    unknown: find('.tf-unknown'),
    /** @type {HTMLElement} */
    facts: find('.tf-facts'),
  };
}

/** @typedef {ReturnType<typeof buildTransformerParts>} TransformerParts */

/**
 * A choice of heads, each its name over what was measured on it.
 * @param {string} id
 * @param {string} legend
 * @param {{ key: string, label: string, tag: string }[]} heads
 * @param {string} row the row's classes
 */
function headFieldHtml(id, legend, heads, row) {
  const options = heads.map(
    ({ key, label, tag }) =>
      /** @type {const} */ ([
        key,
        `<span class="tf-head-name">${label}</span> <span class="tf-head-score">${tag}</span>`,
      ]),
  );
  return `<fieldset class="tf-head-field">
        <legend class="field-label">${legend}</legend>
        ${choicesHtml(`${id}-head`, options, { row, choice: 'tf-head-choice' })}
      </fieldset>`;
}

/**
 * The choice of the head drawn: every decoder head, then their mean, each with its score.
 * @param {string} id
 * @param {import('../../engine/index.js').TranslatorInfo} info
 */
function headsHtml(id, info) {
  const heads = headChoices(info).map(({ key, label, score }) => ({
    key,
    label,
    tag: scoreLabel(score),
  }));
  return headFieldHtml(id, 'Cross-attention head drawn', heads, 'tf-head-choices');
}

/**
 * The choice of the encoder's self-attention head drawn: every layer's heads, layer-major, each
 * with where its largest weights fell.
 * @param {string} id
 * @param {import('../../engine/index.js').TranslatorInfo} info
 */
function encoderHeadsHtml(id, info) {
  const heads = encoderHeadChoices(info).map(({ key, label, shares }) => ({
    key,
    label,
    tag: headTag(shares),
  }));
  return headFieldHtml(id, 'Self-attention head drawn', heads, 'tf-head-choices tf-encoder-heads');
}

/**
 * The choice of what the stream view draws.
 * @param {string} id
 */
function measuresHtml(id) {
  const options = MEASURES.map(
    (measure) => /** @type {const} */ ([measure, MEASURE_LABELS[measure]]),
  );
  return `<fieldset class="tf-measure">
        <legend class="field-label">Measure drawn</legend>
        ${choicesHtml(`${id}-measure`, options)}
      </fieldset>`;
}

/** The heads view's figure: the German, the chosen head's matrix and what it scored. */
const HEADS = `
        <p class="mt-german tf-words" lang="de"></p>
        <div class="tf-matrix"></div>
        <div class="tf-tables"></div>
        <p class="note tf-head-facts"></p>
        <p class="note tf-split deck-hidden-wide"></p>`;

/** The compare view's figure: the three translators' German, then their BLEU by length. */
const COMPARE = `
        <div class="mt-models">
          <div class="mt-model">
            <h3 class="mt-model-name">One fixed vector</h3>
            <p class="mt-german tf-fixed-vector" lang="de"></p>
          </div>
          <div class="mt-model">
            <h3 class="mt-model-name">With attention</h3>
            <p class="mt-german tf-attention" lang="de"></p>
          </div>
          <div class="mt-model">
            <h3 class="mt-model-name">Transformer</h3>
            <p class="mt-german tf-transformer" lang="de"></p>
          </div>
        </div>
        <div class="tf-chart"></div>
        <p class="note tf-lead"></p>`;

/** The encoder view's figure: the chosen head's matrix and what it is. */
const ENCODER = `
        <div class="tf-matrix"></div>
        <div class="tf-tables"></div>
        <p class="note tf-head-facts"></p>`;

/** The stream view's figure: the measure's matrix, what it shows here and on the test split. */
const STREAM = `
        <div class="tf-matrix"></div>
        <div class="tf-tables"></div>
        <p class="note tf-lead"></p>
        <p class="note tf-head-facts"></p>`;

/** Each view's figure. */
const FIGURES = { heads: HEADS, compare: COMPARE, encoder: ENCODER, stream: STREAM };
