// Draws the cost panel: the measured times against n on log-log axes with a guide that grows as
// n², and the status line (the prompt, the progress, or the fitted slope and what it means).
import { clearLines, renderLines } from '../../views/charts/lines.js';
import { fitSlope, growthWords, powerGuide } from './cost-math.js';
import { FIT_FROM, REPEATS, SIZES, WIDTH } from './cost-timing.js';

const PROMPT = 'Press Measure to time attention here, in this browser.';

/**
 * The chart of the lengths measured so far.
 * @param {import('./cost-markup.js').CostParts} parts
 * @param {number[]} sizes (m) the lengths measured so far
 * @param {number[]} times (m) their median milliseconds per call
 */
export function drawTimes(parts, sizes, times) {
  parts.figure.hidden = sizes.length === 0;
  if (sizes.length === 0) {
    clearLines(parts.lines);
    return;
  }
  renderLines(parts.lines, {
    caption:
      `Milliseconds per attention call (d = ${WIDTH}, median of ${REPEATS} runs) against the ` +
      'sequence length n, both axes logarithmic, with a guide line that grows as n squared.',
    x: sizes,
    xLabel: 'n',
    yLabel: 'ms per call',
    series: [
      { name: 'measured', values: times },
      { name: 'n\u00b2 guide', values: powerGuide(sizes, times, 2) },
    ],
    logX: true,
    logY: true,
    height: 150,
  });
}

/**
 * The status line: the prompt before any measurement, the progress while measuring, or the slope.
 * @param {import('./cost-markup.js').CostParts} parts
 * @param {{ measuring: boolean, sizes: number[], times: number[] }} progress
 */
export function drawStatus(parts, { measuring, sizes, times }) {
  const line = parts.status;
  line.className = 'sap-cost-status';
  delete line.dataset.slope;
  if (measuring) {
    line.classList.add('status', 'busy');
    const next = SIZES[sizes.length];
    line.textContent = `Timing n = ${next} (${sizes.length + 1} of ${SIZES.length})\u2026`;
    return;
  }
  const fit = sizes.length === SIZES.length ? fitSlope(sizes, times, FIT_FROM) : null;
  if (!fit) {
    line.classList.add('status');
    line.textContent = PROMPT;
    return;
  }
  const words = growthWords(fit.slope);
  line.classList.add('sap-slope');
  line.dataset.slope = String(fit.slope);
  const doc = line.ownerDocument;
  const strong = doc.createElement('strong');
  strong.className = 'sap-slope-value';
  strong.textContent = `slope ${words.slope}`;
  const power = doc.createElement('sup');
  power.textContent = words.power;
  line.replaceChildren(
    strong,
    ': time grows about as n',
    power,
    ` for n \u2265 ${FIT_FROM}; doubling n multiplies it by about ${words.doubling}.`,
  );
}
