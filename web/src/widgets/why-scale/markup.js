// The why-scale widget's elements: the dₖ slider, the table of measured numbers, and the two
// figures (the histogram of scores, and a chosen measure over every dₖ). Ids are unique per
// instance, so several can share a page.
import { KEYS, WIDTHS } from './sweep.js';

let instances = 0;

/** The measures the line chart can show: engine field, name, axis title. */
export const MEASURES = [
  { key: 'gradientNorm', name: 'gradient norm', title: 'gradient norm (log)' },
  { key: 'maxWeight', name: 'largest weight', title: 'largest weight' },
  { key: 'entropy', name: 'entropy (nats)', title: 'entropy (nats)' },
];

/** The rows of the numbers table: engine field and name. */
export const ROWS = [{ key: 'variance', name: 'score variance' }, ...MEASURES];

/**
 * Builds the widget's elements (not yet in the page).
 * @param {Document} doc
 */
export function buildWhyScaleParts(doc) {
  const id = `ws-${++instances}`;
  const root = doc.createElement('div');
  root.className = 'ws split';
  const rows = ROWS.map(
    (row) =>
      `<tr data-key="${row.key}"><th scope="row">${row.name}</th>` +
      '<td data-side="unscaled"></td><td data-side="scaled"></td></tr>',
  ).join('');
  const options = MEASURES.map((m) => `<option value="${m.key}">${m.name}</option>`).join('');
  root.innerHTML = `
    <div class="ws-controls split-controls">
      <div class="ws-slider">
        <label class="field-label" for="${id}-dk">Key width <i>d</i><sub>k</sub></label>
        <output class="ws-dk" for="${id}-dk"></output>
        <input id="${id}-dk" class="ws-range" type="range" min="0" max="${WIDTHS.length - 1}"
          step="1" aria-describedby="${id}-dk-help" />
        <p class="help ws-ends" aria-hidden="true"><span>1</span><span>1024</span></p>
        <p id="${id}-dk-help" class="visually-hidden">Doubles at each step, from 1 to 1024.</p>
      </div>
      <div class="ws-numbers-scroll" role="region" tabindex="0" aria-labelledby="${id}-numbers">
        <table class="ws-numbers">
          <caption id="${id}-numbers" class="ws-numbers-caption deck-hidden"></caption>
          <thead><tr><td></td><th scope="col" class="ws-unscaled">unscaled</th>
              <th scope="col" class="ws-scaled">scaled</th></tr></thead>
          <tbody>${rows}</tbody>
        </table>
      </div>
    </div>
    <div class="ws-output split-output">
      <p class="error ws-error" role="alert" hidden></p>
      <figure class="ws-figure" aria-labelledby="${id}-hist-title">
        <figcaption id="${id}-hist-title" class="ws-title">Scores of random <i>q</i>, <i>k</i>,
          unscaled and divided by √<i>d</i><sub>k</sub></figcaption>
        <div class="ws-hist"></div>
      </figure>
      <figure class="ws-figure" aria-labelledby="${id}-lines-title">
        <figcaption class="ws-title ws-lines-head">
          <span id="${id}-lines-title">Softmax over ${KEYS} keys, for every <i>d</i><sub>k</sub>:</span>
          <select class="widget-box ws-measure" aria-labelledby="${id}-lines-title">${options}</select>
        </figcaption>
        <p class="status busy ws-sweep" role="status">Computing every width…</p>
        <div class="ws-lines"></div>
      </figure>
    </div>`;
  const find = (selector) => /** @type {any} */ (root.querySelector(selector));
  return {
    root,
    range: /** @type {HTMLInputElement} */ (find('.ws-range')),
    dk: find('.ws-dk'),
    caption: find('.ws-numbers-caption'),
    numbers: find('.ws-numbers tbody'),
    error: find('.ws-error'),
    hist: find('.ws-hist'),
    measure: /** @type {HTMLSelectElement} */ (find('.ws-measure')),
    sweep: find('.ws-sweep'),
    lines: find('.ws-lines'),
  };
}
