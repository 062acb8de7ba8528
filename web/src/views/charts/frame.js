// The frame every chart shares: a legend (two series or more), the SVG with its focusable stops,
// the read-out line and the table of numbers. It measures the width it has and draws again when
// that changes, keeping the focused stop and the table's open state.
import '../../styles/charts.css';
import '../../styles/chart-parts.css';
import { el, svgEl } from '../heatmap/dom.js';
import { buildLegend } from './legend.js';
import { buildReadout, wireReadout } from './readout.js';
import { buildStops, stopIndexOf, wireKeys } from './stops.js';
import { buildDetails } from './table.js';

const FALLBACK_WIDTH = 440;

/**
 * @typedef {object} Drawing what a chart draws at a given width
 * @property {import('./axis.js').Box} box
 * @property {SVGElement[]} nodes the axes and series
 * @property {import('./stops.js').Stop[]} stops
 */

/**
 * @typedef {object} ChartSpec
 * @property {string} kind 'bars', 'histogram' or 'lines': the root's class is `chart-<kind>`
 * @property {string} caption one sentence saying what the chart shows
 * @property {number} height in pixels
 * @property {import('./legend.js').LegendEntry[]} legend
 * @property {import('./table.js').TableSpec} table
 * @property {string} hint what the read-out says while nothing is pointed at
 * @property {(doc: Document, width: number, hatchId: string) => Drawing} draw
 */

/** @type {WeakMap<HTMLElement, { id: number, active: number, width: number, spec: ChartSpec | null }>} */
const states = new WeakMap();
let nextId = 0;

/**
 * Draws (or redraws) a chart into a container, replacing what it held.
 * @param {HTMLElement} container an element owned by the chart
 * @param {ChartSpec} spec
 */
export function renderChart(container, spec) {
  const state = stateFor(container);
  const doc = container.ownerDocument;
  const wasOpen = container.querySelector('details')?.open ?? false;
  const active = doc.activeElement;
  const focused = active && container.contains(active) ? stopIndexOf(active) : -1;
  state.spec = spec;
  state.width = container.clientWidth;

  const id = `chart-${state.id}`;
  const width = state.width || FALLBACK_WIDTH;
  const drawing = spec.draw(doc, width, `${id}-hatch`);
  state.active = Math.max(0, Math.min(state.active, drawing.stops.length - 1));
  const svg = svgEl(doc, 'svg', {
    class: 'chart-svg',
    viewBox: `0 0 ${width} ${spec.height}`,
    width,
    height: spec.height,
    role: 'group',
    // Only the stops take focus (one at a time); without this the browser also stops on the svg.
    tabindex: -1,
    'aria-label': spec.caption,
    'aria-describedby': `${id}-readout`,
  });
  const stops = buildStops(doc, drawing.box, drawing.stops, state.active);
  svg.append(...drawing.nodes, stops.group);
  const readout = buildReadout(doc, `${id}-readout`, spec.hint);
  wireKeys(svg, stops.rects, state);
  wireReadout(svg, stops.rects, readout, spec.hint);

  const details = buildDetails(doc, spec.table);
  details.open = wasOpen;
  const root = el(doc, 'div', { class: `chart chart-${spec.kind}` });
  const legend = buildLegend(doc, spec.legend, `${id}-legend`);
  root.append(...(legend ? [legend] : []), svg, readout, details);
  container.replaceChildren(root);
  if (focused >= 0 && focused < stops.rects.length) stops.rects[focused].focus();
}

/**
 * Empties the container and forgets its chart.
 * @param {HTMLElement} container
 */
export function clearChart(container) {
  const state = states.get(container);
  if (state) state.spec = null;
  container.replaceChildren();
}

/**
 * @param {HTMLElement} container
 */
function stateFor(container) {
  let state = states.get(container);
  if (!state) {
    state = { id: nextId++, active: 0, width: 0, spec: null };
    states.set(container, state);
    // Draw again when the space changes (a phone turned, a window resized).
    if (typeof ResizeObserver === 'function') {
      const current = state;
      new ResizeObserver(() => {
        if (current.spec && Math.abs(container.clientWidth - current.width) > 8) {
          renderChart(container, current.spec);
        }
      }).observe(container);
    }
  }
  return state;
}
