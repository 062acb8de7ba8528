// The timing figure's elements: the Start / Stop button and the status lines, then the figure:
// its title, what is timed, the bars of steps per second, one reading line per model, and what
// the numbers are and are not. Ids are unique per instance, so several can share a page.
import { messageLinesHtml } from '../shared/line.js';
import { TIMED_NAMES } from './text.js';

let instances = 0;

/**
 * Builds the elements (not yet in the page).
 * @param {Document} doc
 */
export function buildSpeedParts(doc) {
  const id = `ts-${++instances}`;
  const root = doc.createElement('div');
  root.className = 'ts split';
  root.innerHTML = `
    <div class="ts-controls split-controls">
      <div class="ts-row">
        <button type="button" class="widget-button ts-go" aria-describedby="${id}-help">Start</button>
        <span class="ts-count" id="${id}-count"></span>
      </div>
      <p id="${id}-help" class="help ts-help deck-hidden-wide">
        Start trains both models in turn, one step each, in this page's training worker; Stop
        stops after the step under way.
      </p>
      ${messageLinesHtml('ts')}
    </div>
    <div class="ts-output split-output">
      <figure class="ts-figure" aria-labelledby="${id}-title" data-status="starting">
        <figcaption id="${id}-title" class="ts-title">One training step of each translator, timed in this browser</figcaption>
        <p class="ts-what"></p>
        <div class="ts-bars"></div>
        ${TIMED_NAMES.map(
          (_, i) => `<p class="ts-rate" data-model="${['attention', 'transformer'][i]}"></p>`,
        ).join('')}
        <p class="ts-note deck-hidden-wide"></p>
      </figure>
    </div>`;
  const find = (/** @type {string} */ selector) =>
    /** @type {HTMLElement} */ (root.querySelector(selector));
  return {
    root,
    go: /** @type {HTMLButtonElement} */ (find('.ts-go')),
    count: find('.ts-count'),
    status: find('.ts-status'),
    error: find('.ts-error'),
    figure: find('.ts-figure'),
    what: find('.ts-what'),
    bars: find('.ts-bars'),
    rates: /** @type {HTMLElement[]} */ (Array.from(root.querySelectorAll('.ts-rate'))),
    note: find('.ts-note'),
  };
}

/** @typedef {ReturnType<typeof buildSpeedParts>} SpeedParts */
