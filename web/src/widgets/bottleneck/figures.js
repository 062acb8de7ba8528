// The bottleneck widget's figure: one line reading the engine's numbers where N equals the width,
// and the accuracy of both ways of reading over every N as a line chart (log N), N = d marked.
import { formatNumber } from '../../views/charts/format.js';
import { clearLines, renderLines } from '../../views/charts/lines.js';

/** @typedef {import('./markup.js').BottleneckParts} Parts */

/** The two series' names, as the legend, the read-out and the table write them. */
export const SERIES = ['one fixed vector', 'attention over all N'];

/**
 * A percentage as the chart writes it, to 3 significant figures: 27.34375 -> '27.3%'.
 * @param {number} percent 0 to 100
 * @returns {string}
 */
export const formatPercent = (percent) => `${formatNumber(percent)}%`;

/**
 * The sentence that reads the chart where N equals the width.
 * @param {import('./sweep.js').Run} run
 * @param {number} width
 * @returns {string}
 */
export function readingOf(run, width) {
  const i = run.counts.indexOf(width);
  const [fixed, attention] = [run.fixedVector[i], run.attention[i]].map(
    (share) => `${Math.round(share * 100)}%`,
  );
  return (
    `At N = ${width} facts in a ${width}-wide vector, the fixed vector retrieves ${fixed}; ` +
    `attention ${attention}.`
  );
}

/**
 * Shows a finished run: the reading line and the chart.
 * @param {Parts} parts
 * @param {import('./sweep.js').Run} run
 * @param {number} width
 */
export function showRun(parts, run, width) {
  parts.reading.textContent = readingOf(run, width);
  const last = run.counts[run.counts.length - 1];
  renderLines(parts.chart, {
    caption:
      `Share of N stored facts read back exactly, from one ${width}-wide vector and by ` +
      `attention, for N = ${run.counts[0]} to ${last}`,
    x: run.counts,
    xLabel: 'N',
    yLabel: 'accuracy (%)',
    series: [
      { name: SERIES[0], values: run.fixedVector.map((share) => share * 100) },
      { name: SERIES[1], values: run.attention.map((share) => share * 100) },
    ],
    logX: true,
    // Room above 100% for the label of the marked N = d.
    yDomain: [0, 120],
    mark: run.counts.indexOf(width),
    format: formatPercent,
    height: 210,
  });
}

/**
 * Empties the figure.
 * @param {Parts} parts
 */
export function clearRun(parts) {
  parts.reading.textContent = '';
  clearLines(parts.chart);
}
