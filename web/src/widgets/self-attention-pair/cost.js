// The cost panel of the self-attention-pair widget: Measure times the engine's attention kernel
// for growing n (cost-timing.js), drawing each length as it is done, then prints the
// slope of log(time) on log(n). The last full measurement is kept in the widget's state.
import { setLine } from '../shared/line.js';
import { median } from './cost-math.js';
import { drawStatus, drawTimes } from './cost-figures.js';
import { measureLater } from './cost-timing.js';

/**
 * @typedef {{ sizes: number[], times: number[] }} CostResult the lengths and their median ms
 */

/**
 * Wires the panel's button to the engine and draws what `state.cost` holds.
 * @param {import('./cost-markup.js').CostParts} parts
 * @param {Pick<import('../../engine/index.js').Engine, 'attention' | 'unitNormal'>} engine
 * @param {{ cost?: CostResult }} state the widget's state: a finished measurement is kept in it
 * @param {() => void} changed called once a finished measurement is in the state
 * @returns {{ destroy(): void }}
 */
export function mountCost(parts, engine, state, changed) {
  let stop = null;
  /** @type {CostResult} */
  let shown = state.cost ?? { sizes: [], times: [] };

  const show = (measuring) => {
    parts.measure.setAttribute('aria-disabled', String(measuring));
    parts.measure.textContent = measuring
      ? 'Measuring\u2026'
      : shown.sizes.length > 0
        ? 'Measure again'
        : 'Measure';
    drawTimes(parts, shown.sizes, shown.times);
    drawStatus(parts, { measuring, ...shown });
  };

  const start = () => {
    if (stop) return;
    setLine(parts.error, '');
    shown = { sizes: [], times: [] };
    stop = measureLater(engine, {
      onLength(n, runs) {
        shown.sizes.push(n);
        shown.times.push(median(runs));
        show(true);
      },
      done() {
        stop = null;
        state.cost = shown;
        show(false);
        changed();
      },
      fail(error) {
        stop = null;
        console.error(error);
        shown = state.cost ?? { sizes: [], times: [] };
        show(false);
        setLine(parts.error, `The timing could not be run: ${error.message}`);
      },
    });
    show(true);
  };

  parts.measure.addEventListener('click', start);
  show(false);
  return {
    destroy() {
      stop?.();
      stop = null;
      parts.measure.removeEventListener('click', start);
      clearLinesOf(parts);
    },
  };
}

/** @param {import('./cost-markup.js').CostParts} parts */
function clearLinesOf(parts) {
  drawTimes(parts, [], []);
}
