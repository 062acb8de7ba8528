// The heatmap widget's elements: the sentence box and causal toggle, a status line, an alert line
// and the figure. Ids are unique per instance, so several can share a page.
import { MAX_TOKENS } from './math.js';
import { sentenceFieldHtml } from '../shared/token-cap.js';
import { toggleHtml } from '../shared/toggle.js';
import { messageLinesHtml } from '../shared/line.js';

let instances = 0;

/**
 * @typedef {object} HeatmapParts
 * @property {HTMLElement} root
 * @property {HTMLTextAreaElement} sentence
 * @property {HTMLInputElement} causal
 * @property {HTMLElement} status
 * @property {HTMLElement} error
 * @property {HTMLElement} result the figure with its caption, hidden when there is nothing to draw
 * @property {HTMLElement} count
 * @property {HTMLElement} figure the container the heatmap view draws into
 * @property {HTMLElement} views the Grid / Lines choice
 * @property {HTMLSelectElement} from the token whose row the lines view draws
 * @property {HTMLElement} fromField the label and select of `from`, shown with the lines only
 * @property {HTMLElement} lines the container the token lines view draws into
 * @property {HTMLElement} unknown the line naming the tokens outside the vocabulary
 */

/**
 * Builds the widget's elements (not yet in the page).
 * @param {Document} doc
 * @returns {HeatmapParts}
 */
export function buildHeatmapParts(doc) {
  const id = `hm-${++instances}`;
  const root = doc.createElement('div');
  root.className = 'hm';
  root.innerHTML = `
    <div class="hm-controls">
      ${sentenceFieldHtml(id, { label: 'Sentence', input: 'hm-sentence', help: `Words and punctuation become tokens (up to ${MAX_TOKENS}). The figure follows as you type.` })}
      ${toggleHtml(id, { name: 'causal', input: 'hm-causal', label: 'Causal mask', help: 'Each token may look only at itself and the tokens before it.' })}
      <p class="note hm-note">
        Each token is a pre-trained word vector of 100 numbers, from a vocabulary of the 20,000
        most frequent English words.
      </p>
    </div>
    <div class="hm-output">
      ${messageLinesHtml('hm')}
      <figure class="hm-result" aria-labelledby="${id}-title" hidden>
        <figcaption class="hm-head deck-hidden">
          <span id="${id}-title" class="hm-title">Self-attention weights</span>
          <span class="pill hm-count"></span>
        </figcaption>
        <p class="help hm-axes">
          <strong>Row</strong>: the token that looks (query). <strong>Column</strong>: the token
          it looks at (key). Each row adds up to 1.
        </p>
        <div class="hm-view-row">
          <fieldset class="hm-views segmented">
            <legend class="visually-hidden">Show the weights as</legend>
            <label><input type="radio" name="${id}-view" value="grid" checked /> Grid</label>
            <label><input type="radio" name="${id}-view" value="lines" /> Lines</label>
          </fieldset>
          <span class="hm-from-field" hidden>
            <label for="${id}-from">From</label>
            <select id="${id}-from" class="widget-box hm-from"></select>
          </span>
        </div>
        <div class="hm-figure"></div>
        <div class="hm-lines" hidden></div>
        <p class="note hm-unknown" hidden></p>
      </figure>
    </div>`;
  const find = (selector) => /** @type {any} */ (root.querySelector(selector));
  return {
    root,
    sentence: find('.hm-sentence'),
    causal: find('.hm-causal'),
    status: find('.hm-status'),
    error: find('.hm-error'),
    result: find('.hm-result'),
    count: find('.hm-count'),
    figure: find('.hm-figure'),
    views: find('.hm-views'),
    from: find('.hm-from'),
    fromField: find('.hm-from-field'),
    lines: find('.hm-lines'),
    unknown: find('.hm-unknown'),
  };
}
