// Chart read-out: one line under the chart that says what the pointed-at or focused stop shows,
// and marks that stop in the chart.
import { el } from '../heatmap/dom.js';
import { stopIndexOf } from './stops.js';

/**
 * @param {Document} doc
 * @param {string} id the line's id, which the chart names in aria-describedby
 * @param {string} hint what the line says while nothing is pointed at
 * @returns {HTMLElement}
 */
export function buildReadout(doc, id, hint) {
  return el(doc, 'p', { class: 'chart-readout', id }, hint);
}

/**
 * Shows the pointed-at stop, else the focused one, else the hint.
 * @param {SVGElement} svg
 * @param {SVGElement[]} rects the stops
 * @param {HTMLElement} readout
 * @param {string} hint
 */
export function wireReadout(svg, rects, readout, hint) {
  let focused = -1;
  const show = (index) => {
    rects.forEach((rect, i) => rect.classList.toggle('active', i === index));
    readout.textContent = index >= 0 ? rects[index].getAttribute('aria-label') : hint;
  };
  svg.addEventListener('focusin', (event) => {
    focused = stopIndexOf(event.target);
    show(focused);
  });
  svg.addEventListener('focusout', () => {
    focused = -1;
    show(-1);
  });
  svg.addEventListener('pointerover', (event) => {
    const index = stopIndexOf(event.target);
    if (index >= 0) show(index);
  });
  svg.addEventListener('pointerleave', () => show(focused));
}
