// The why-scale widget's figures: at one width, the numbers table and the histogram of scores;
// over every width, the chosen softmax measure as a line chart with the current width marked.
import { formatNumber } from '../../views/charts/format.js';
import { renderHistogram } from '../../views/charts/histogram.js';
import { renderLines } from '../../views/charts/lines.js';
import { MEASURES } from './markup.js';
import { KEYS, TRIALS, WIDTHS } from './sweep.js';

/** @typedef {ReturnType<typeof import('./markup.js').buildWhyScaleParts>} Parts */

const DK = 'd\u2096';

/**
 * Shows the experiment at one width: the slider's value, the numbers and the histogram.
 * @param {Parts} parts
 * @param {import('../../engine/index.js').ScalingResult} result
 */
export function showWidth(parts, result) {
  const { dk, unscaled, scaled } = result;
  parts.dk.textContent = String(dk);
  parts.range.setAttribute('aria-valuetext', String(dk));
  const counts = `${unscaled.samples.length} scores, ${TRIALS} softmaxes over ${KEYS} keys`;
  parts.caption.textContent = `Measured at ${DK} = ${dk} (${counts})`;
  for (const tr of parts.numbers.rows) {
    for (const cell of tr.querySelectorAll('td')) {
      const value = (cell.dataset.side === 'scaled' ? scaled : unscaled)[tr.dataset.key];
      cell.dataset.value = String(value);
      cell.textContent = formatNumber(value);
    }
  }
  renderHistogram(parts.hist, {
    caption: `Scores q·k of random q, k at ${DK} = ${dk}: unscaled, and divided by √${DK}`,
    xLabel: 'score',
    series: [
      {
        name: 'unscaled',
        samples: unscaled.samples,
        detail: `variance ${formatNumber(unscaled.variance)}`,
      },
      {
        name: `scaled ÷ √${DK}`,
        samples: scaled.samples,
        detail: `variance ${formatNumber(scaled.variance)}`,
      },
    ],
    height: 190,
  });
}

/**
 * Shows the chosen measure over every width, the current width marked.
 * @param {Parts} parts
 * @param {import('../../engine/index.js').ScalingResult[]} sweep
 * @param {number} dk
 * @param {string} key a field of MEASURES
 */
export function showSweep(parts, sweep, dk, key) {
  const measure = MEASURES.find((m) => m.key === key) ?? MEASURES[0];
  renderLines(parts.lines, {
    caption: `Softmax ${measure.name} over ${KEYS} keys for ${DK} = 1 to 1024, unscaled and scaled`,
    x: WIDTHS,
    xLabel: DK,
    yLabel: measure.title,
    series: [
      { name: 'unscaled', values: sweep.map((r) => r.unscaled[key]) },
      { name: `scaled ÷ √${DK}`, values: sweep.map((r) => r.scaled[key]) },
    ],
    logX: true,
    logY: key === 'gradientNorm',
    yDomain: key === 'maxWeight' ? [0, 1] : undefined,
    mark: WIDTHS.indexOf(dk),
    height: 170,
  });
}
