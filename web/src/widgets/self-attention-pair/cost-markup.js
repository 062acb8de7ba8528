// The cost panel's elements: one line on why attention costs O(n²d), the Measure button, a status
// line (what to do, the progress, then the fitted slope) and the log-log chart of time against n.
import { FIT_FROM, SIZES, WIDTH } from './cost-timing.js';

/**
 * Builds the panel's elements (not yet in the page).
 * @param {Document} doc
 * @param {string} id a prefix unique in the page
 */
export function buildCostParts(doc, id) {
  const root = doc.createElement('div');
  root.className = 'sap-cost split-controls';
  root.innerHTML = `
    <div class="sap-cost-controls">
      <p class="sap-cost-why">
        <strong>Cost:</strong> every query meets every key, <var>n</var>&thinsp;&times;&thinsp;<var>n</var>
        scores of <var>d</var> products each, so the work is <var>O</var>(<var>n</var><sup>2</sup><var>d</var>).
      </p>
      <div class="sap-cost-actions">
        <button type="button" class="widget-button sap-measure"
          aria-describedby="${id}-cost-help">Measure</button>
        <p id="${id}-cost-help" class="help sap-cost-help deck-hidden">
          Times the attention call in this browser for <var>n</var> = ${SIZES[0]} to
          ${SIZES[SIZES.length - 1]}, with <var>d</var> = ${WIDTH}, and fits the slope of
          log(time) on log(<var>n</var>) for <var>n</var> &ge; ${FIT_FROM}.
        </p>
      </div>
      <p class="sap-cost-status" role="status"></p>
      <p class="error sap-cost-error" role="alert" hidden></p>
    </div>
    <figure class="sap-cost-figure" aria-labelledby="${id}-cost-title" hidden>
      <figcaption id="${id}-cost-title" class="sap-title deck-hidden">
        Time of one attention call against <var>n</var> (<var>d</var> = ${WIDTH}), log-log
      </figcaption>
      <div class="sap-lines"></div>
    </figure>`;
  const find = (selector) => /** @type {any} */ (root.querySelector(selector));
  return {
    root,
    measure: /** @type {HTMLButtonElement} */ (find('.sap-measure')),
    status: /** @type {HTMLElement} */ (find('.sap-cost-status')),
    error: /** @type {HTMLElement} */ (find('.sap-cost-error')),
    figure: /** @type {HTMLElement} */ (find('.sap-cost-figure')),
    lines: /** @type {HTMLElement} */ (find('.sap-lines')),
  };
}

/** @typedef {ReturnType<typeof buildCostParts>} CostParts */
