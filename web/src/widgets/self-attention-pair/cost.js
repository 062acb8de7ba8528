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

/** What the panel shows before any measurement. */
const NONE = Object.freeze({ sizes: Object.freeze([]), times: Object.freeze([]) });

/**
 * Wires the panel's button to the engine. The panel shows the measurement the widget keeps
 * (`kept()`) once `sync` is called, and hands a finished one to `keep`.
 * @param {import('./cost-markup.js').CostParts} parts
 * @param {Pick<import('../../engine/index.js').Engine, 'attention' | 'unitNormal'>} engine
 * @param {{ kept: () => CostResult | undefined, keep: (result: CostResult) => void }} store
 * @returns {{ sync(): void, destroy(): void }} sync draws the kept measurement when it is not
 *   the one shown (and none is running)
 */
export function mountCost(parts, engine, { kept, keep }) {
  let stop = null;
  /** @type {CostResult | null} */
  let shown = null;
  let drawn = false;

  const show = (measuring) => {
    drawn = true;
    const { sizes, times } = shown ?? NONE;
    parts.measure.setAttribute('aria-disabled', String(measuring));
    parts.measure.textContent = measuring
      ? 'Measuring\u2026'
      : sizes.length > 0
        ? 'Measure again'
        : 'Measure';
    drawTimes(parts, sizes, times);
    drawStatus(parts, { measuring, sizes, times });
  };

  const start = () => {
    if (stop) return;
    setLine(parts.error, '');
    /** @type {CostResult} */
    const running = { sizes: [], times: [] };
    shown = running;
    stop = measureLater(engine, {
      onLength(n, runs) {
        running.sizes.push(n);
        running.times.push(median(runs));
        show(true);
      },
      done() {
        stop = null;
        show(false);
        keep(running);
      },
      fail(error) {
        stop = null;
        console.error(error);
        shown = kept() ?? null;
        show(false);
        setLine(parts.error, `The timing could not be run: ${error.message}`);
      },
    });
    show(true);
  };

  parts.measure.addEventListener('click', start);
  return {
    sync() {
      const result = kept() ?? null;
      if (stop || (drawn && result === shown)) return;
      shown = result;
      show(false);
    },
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
