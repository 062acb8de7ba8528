// Histogram view: binned samples, one series or two overlaid (the first filled, the second
// hatched with a dashed outline), as the share of each series' samples in each bin.
import { svgEl } from '../heatmap/dom.js';
import { drawAxes, plotBox, ticksAt } from './axis.js';
import { binSamples, symmetricDomain } from './bins.js';
import { formatPercent, formatTick } from './format.js';
import { renderChart } from './frame.js';
import { fillArea, hatchDefs } from './marks.js';
import { linearScale } from './scale.js';
import { linearTicks, niceDomain } from './ticks.js';

export { clearChart as clearHistogram } from './frame.js';

/**
 * @typedef {object} HistogramData
 * @property {string} caption one sentence saying what the chart shows
 * @property {{ name: string, samples: ArrayLike<number>, detail?: string }[]} series one or two;
 *   the legend writes a series' detail after its name
 * @property {string} xLabel what a sample is, e.g. 'q·k'
 * @property {number} [bins] how many bins (default 40)
 * @property {[number, number]} [domain] the x range (default: around 0, holding every sample)
 * @property {number} [height] in pixels (default 200)
 */

/**
 * Draws (or redraws) the histogram into a container, replacing what it held.
 * @param {HTMLElement} container
 * @param {HistogramData} data
 */
export function renderHistogram(container, data) {
  const count = data.bins ?? 40;
  const domain = data.domain ?? symmetricDomain(data.series.map((s) => s.samples));
  const binned = data.series.map((s) => binSamples(s.samples, domain, count));
  const shares = binned.map((b) => b.counts.map((n) => (b.total > 0 ? n / b.total : 0)));
  const top = Math.max(0.01, ...shares.flat());
  const yDomain = niceDomain(0, top);
  const { edges } = binned[0];
  const range = (i) => `${data.xLabel} from ${formatTick(edges[i])} to ${formatTick(edges[i + 1])}`;
  const describe = (i) =>
    `${range(i)}: ${data.series
      .map((s, k) => `${s.name} ${binned[k].counts[i]} (${formatPercent(shares[k][i])})`)
      .join(', ')}`;

  renderChart(container, {
    kind: 'histogram',
    caption: data.caption,
    height: data.height ?? 200,
    legend: data.series.map((s) => ({ name: s.name, shape: 'area', detail: s.detail })),
    hint: 'Point at a bin, or Tab in and use the arrow keys, to read it.',
    table: {
      caption: data.caption,
      columns: [`${data.xLabel} from … to`, ...data.series.map((s) => `${s.name} (count)`)],
      rows: edges.slice(0, -1).map((_, i) => ({
        head: `${formatTick(edges[i])} to ${formatTick(edges[i + 1])}`,
        cells: binned.map((b) => ({ text: String(b.counts[i]), value: b.counts[i] })),
      })),
    },
    draw(doc, width, hatchId) {
      const yTicks = linearTicks(yDomain[0], yDomain[1]);
      const box = plotBox(
        width,
        data.height ?? 200,
        yTicks.map((t) => formatPercent(t)),
      );
      const x = linearScale(domain, [box.left, box.right]);
      const y = linearScale(yDomain, [box.bottom, box.top]);
      const nodes = [hatchDefs(doc, hatchId)];
      nodes.push(
        drawAxes(doc, box, {
          x: { ticks: ticksAt(linearTicks(domain[0], domain[1]), x), title: data.xLabel },
          y: { ticks: ticksAt(yTicks, y, formatPercent), title: 'share of samples' },
        }),
      );
      binned.forEach((b, k) => {
        const group = svgEl(doc, 'g', { class: 'chart-bins', 'aria-hidden': 'true' });
        b.counts.forEach((n, i) => {
          if (n === 0) return;
          const at = { x: x(edges[i]), y: y(shares[k][i]), width: x(edges[i + 1]) - x(edges[i]) };
          const rect = svgEl(doc, 'rect', { ...at, height: box.bottom - at.y });
          group.append(fillArea(rect, k, hatchId));
        });
        nodes.push(group);
      });
      const stops = edges.slice(0, -1).map((edge, i) => ({
        x0: x(edge),
        x1: x(edges[i + 1]),
        label: describe(i),
      }));
      return { box, nodes, stops };
    },
  });
}
