// Chart stops: the places a reader can point at or move to with the keyboard (a bar, a bin, one
// x of a line chart), drawn as bands across the plot. One stop is in the Tab order at a time; the
// arrow keys, Home and End move between them.
import { svgEl } from '../heatmap/dom.js';

/**
 * @typedef {{ x0: number, x1: number, label: string }} Stop a band from x0 to x1, and what it says
 */

/**
 * Draws the stops over the plot, from its top to its bottom.
 * @param {Document} doc
 * @param {import('./axis.js').Box} box
 * @param {Stop[]} stops
 * @param {number} active the stop in the Tab order
 * @returns {{ group: SVGElement, rects: SVGElement[] }}
 */
export function buildStops(doc, box, stops, active) {
  const group = svgEl(doc, 'g', { class: 'chart-stops' });
  const rects = stops.map((stop, i) =>
    svgEl(doc, 'rect', {
      class: 'chart-stop',
      x: stop.x0,
      y: box.top,
      width: Math.max(1, stop.x1 - stop.x0),
      height: Math.max(1, box.bottom - box.top),
      role: 'img',
      'aria-label': stop.label,
      tabindex: i === active ? 0 : -1,
      'data-index': i,
    }),
  );
  group.append(...rects);
  return { group, rects };
}

/**
 * The index of a stop element, or -1 for anything else.
 * @param {EventTarget | null} target
 * @returns {number}
 */
export function stopIndexOf(target) {
  const index = /** @type {any} */ (target)?.dataset?.index;
  return index === undefined ? -1 : Number(index);
}

/**
 * Moves the focus between stops with the arrow keys, Home and End; the keys it uses go no
 * further (the page does not scroll, the deck does not turn).
 * @param {SVGElement} svg
 * @param {SVGElement[]} rects
 * @param {{ active: number }} state where the Tab stop is; updated as it moves
 */
export function wireKeys(svg, rects, state) {
  const activate = (index) => {
    rects[state.active]?.setAttribute('tabindex', '-1');
    state.active = index;
    rects[index].setAttribute('tabindex', '0');
  };
  svg.addEventListener('focusin', (event) => {
    const index = stopIndexOf(event.target);
    if (index >= 0) activate(index);
  });
  svg.addEventListener('keydown', (event) => {
    const last = rects.length - 1;
    const to = {
      ArrowRight: Math.min(last, state.active + 1),
      ArrowUp: Math.min(last, state.active + 1),
      ArrowLeft: Math.max(0, state.active - 1),
      ArrowDown: Math.max(0, state.active - 1),
      Home: 0,
      End: last,
    }[event.key];
    if (to === undefined || event.altKey || event.ctrlKey || event.metaKey) return;
    event.preventDefault();
    event.stopPropagation();
    activate(to);
    rects[to].focus();
  });
}
