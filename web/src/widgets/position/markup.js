// The position widget's elements: sentence, Shuffle and Original order, the positional-encoding
// toggle, the order on show and the equivariance check, then the output and encoding heatmaps.
import { buildReadout } from '../../views/heatmap/index.js';
import { sentenceFieldHtml } from '../shared/token-cap.js';
import { toggleHtml } from '../shared/toggle.js';
import { messageLinesHtml } from '../shared/line.js';

let instances = 0;

/**
 * Builds the widget's elements (not yet in the page).
 * @param {Document} doc
 * @param {number} maxTokens
 */
export function buildPositionParts(doc, maxTokens) {
  const id = `pos-${++instances}`;
  const root = doc.createElement('div');
  root.className = 'pos split widget-columns';
  // deck-hidden (deck-figures.css): on a slide the output heatmap's rows show the order.
  root.innerHTML = `
    <div class="pos-controls split-controls sentence-areas">
      ${sentenceFieldHtml(id, { label: 'Sentence', input: 'hm-sentence pos-sentence', helpClass: 'pos-help', help: `Words and punctuation become tokens (up to ${maxTokens}).` })}
      <div class="pos-actions">
        <button type="button" class="widget-button pos-shuffle">Shuffle</button>
        <button type="button" class="widget-button secondary pos-reset">Original order</button>
      </div>
      ${toggleHtml(id, { name: 'pe', input: 'pos-pe', label: 'Add positional encodings', toggleClass: 'pos-toggle', helpClass: 'pos-help', help: "Each token's vector becomes X + PE: its position's code, of the same width, added." })}
      <p class="pos-order deck-hidden"></p>
      <p class="pos-check" role="status"></p>
    </div>
    <div class="pos-output split-output">
      ${messageLinesHtml('pos')}
      <div class="pos-result" hidden>
        <figure class="widget-figure pos-figure" aria-labelledby="${id}-out-title">
          <figcaption id="${id}-out-title"></figcaption>
          <div class="pos-out"></div>
        </figure>
        <figure class="widget-figure pos-figure" aria-labelledby="${id}-pe-title">
          <figcaption id="${id}-pe-title"></figcaption>
          <div class="pos-pe-map"></div>
        </figure>
        <div class="pos-tables"></div>
      </div>
    </div>`;
  const find = (selector) => /** @type {any} */ (root.querySelector(selector));
  const readout = buildReadout(doc, `${id}-readout`, 'value');
  readout.classList.add('pos-readout');
  find('.pos-tables').before(readout);
  return {
    root,
    sentence: find('.pos-sentence'),
    shuffle: find('.pos-shuffle'),
    reset: find('.pos-reset'),
    pe: find('.pos-pe'),
    order: find('.pos-order'),
    check: find('.pos-check'),
    status: find('.pos-status'),
    error: find('.pos-error'),
    result: find('.pos-result'),
    outTitle: find(`#${id}-out-title`),
    out: find('.pos-out'),
    peTitle: find(`#${id}-pe-title`),
    peMap: find('.pos-pe-map'),
    readout,
    tables: find('.pos-tables'),
  };
}

/** @typedef {ReturnType<typeof buildPositionParts>} PositionParts */
