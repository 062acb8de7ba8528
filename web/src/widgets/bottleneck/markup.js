// The bottleneck widget's elements: the memory width (one choice per width on offer) and the seed,
// then the figure: its title, the one-line reading, the line chart and a note on guessing. Ids are
// unique per instance, so several can share a page.
import { seedFieldHtml } from '../shared/seed.js';
import { CODEBOOK, COUNTS, TRIALS, WIDTHS } from './sweep.js';
import { choicesHtml } from '../shared/choices.js';
import { messageLinesHtml } from '../shared/line.js';

let instances = 0;

/**
 * Builds the widget's elements (not yet in the page).
 * @param {Document} doc
 */
export function buildBottleneckParts(doc) {
  const id = `bn-${++instances}`;
  const root = doc.createElement('div');
  root.className = 'bn split';
  const guess = Math.round(100 / CODEBOOK);
  root.innerHTML = `
    <div class="bn-controls split-controls">
      <div class="bn-row">
        <fieldset class="bn-widths" aria-describedby="${id}-width-help">
          <legend>Memory width <var>d</var></legend>
          ${choicesHtml(
            `${id}-width`,
            WIDTHS.map((d) => [d, String(d)]),
            { row: 'bn-choices', choice: 'bn-choice', numeric: true },
          )}
        </fieldset>
        <div class="bn-seed-field">
          ${seedFieldHtml(id, { input: 'bn-seed', label: 'bn-seed-label', describedBy: `${id}-seed-help` })}
        </div>
      </div>
      <p id="${id}-width-help" class="help bn-help deck-hidden-wide">
        The fixed vector has <var>d</var> numbers whatever <var>N</var> is; attention keeps all
        <var>N</var> keys and values of width <var>d</var>.
      </p>
      <p id="${id}-seed-help" class="help bn-help deck-hidden-wide">
        The seed draws the facts: for each <var>N</var>, ${TRIALS} times over, <var>N</var>
        random keys of ±1s, each paired with one of ${CODEBOOK} random values.
      </p>
    </div>
    <div class="bn-output split-output">
      ${messageLinesHtml('bn', { busy: true })}
      <figure class="bn-figure" aria-labelledby="${id}-title">
        <figcaption id="${id}-title" class="bn-title">
          Facts read back exactly, out of <var>N</var> stored (${COUNTS[0]} to
          ${COUNTS[COUNTS.length - 1]})
        </figcaption>
        <p class="bn-reading" aria-live="polite"></p>
        <div class="bn-chart"></div>
        <p class="note bn-note">
          Picking one of the ${CODEBOOK} values at random would be right ${guess}% of the time.
        </p>
      </figure>
    </div>`;
  const find = (selector) => /** @type {any} */ (root.querySelector(selector));
  return {
    root,
    widths: /** @type {HTMLInputElement[]} */ (
      Array.from(root.querySelectorAll('.bn-choice input'))
    ),
    seed: /** @type {HTMLInputElement} */ (find('.bn-seed')),
    status: find('.bn-status'),
    error: find('.bn-error'),
    figure: find('.bn-figure'),
    reading: find('.bn-reading'),
    chart: find('.bn-chart'),
  };
}

/** @typedef {ReturnType<typeof buildBottleneckParts>} BottleneckParts */
