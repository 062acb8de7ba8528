// Line chart view: one or more series over the same x values, on linear or base-10 logarithmic
// axes (decade ticks), with a marker at every point and, optionally, one x marked as current.
import { svgEl } from '../heatmap/dom.js';
import { FONT, drawAxes, plotBox, ticksAt } from './axis.js';
import { formatNumber } from './format.js';
import { renderChart } from './frame.js';
import { marker, seriesClass } from './marks.js';
import { makeScale } from './scale.js';
import { LINE_X_TICKS, decadeDomain, decadeTicks, linearTicks, niceDomain } from './ticks.js';

export { clearChart as clearLines } from './frame.js';

/**
 * @typedef {object} LinesData
 * @property {string} caption one sentence saying what the chart shows
 * @property {number[]} x the x values, increasing
 * @property {{ name: string, values: number[] }[]} series each with one value per x
 * @property {string} xLabel what x is, e.g. 'd_k'
 * @property {string[]} [xNames] a name per x, e.g. a range such as '6-10': written as its tick,
 *   in the table and in the read-out instead of the number (the x values then only place them)
 * @property {string} yLabel what the values are
 * @property {boolean} [logX] a logarithmic x axis (x > 0)
 * @property {boolean} [logY] a logarithmic y axis (values > 0)
 * @property {[number, number]} [yDomain] the y range (default: round numbers around the values)
 * @property {number} [mark] the index of an x to mark, e.g. the current setting
 * @property {(value: number) => string} [format] how values are written (3 significant figures)
 * @property {number} [height] in pixels (default 180)
 */

/**
 * Draws (or redraws) the chart into a container, replacing what it held.
 * @param {HTMLElement} container
 * @param {LinesData} data
 */
export function renderLines(container, data) {
  const format = data.format ?? ((value) => formatNumber(value));
  const all = data.series.flatMap((s) => s.values);
  const [low, high] = [Math.min(...all), Math.max(...all)];
  const yDomain = data.yDomain ?? (data.logY ? decadeDomain(low, high) : niceDomain(low, high));
  const xDomain = /** @type {[number, number]} */ ([data.x[0], data.x[data.x.length - 1]]);
  const yTicks = data.logY ? decadeTicks(...yDomain) : linearTicks(...yDomain);
  const xTicks = data.logX ? decadeTicks(...xDomain) : linearTicks(...xDomain, LINE_X_TICKS);
  const xName = (i) => data.xNames?.[i] ?? formatNumber(data.x[i], 6);
  const at = (i) => (data.xNames ? `${data.xLabel} ${xName(i)}` : `${data.xLabel} = ${xName(i)}`);
  const describe = (i) =>
    `${at(i)}: ${data.series.map((s) => `${s.name} ${format(s.values[i])}`).join(', ')}`;
  const height = data.height ?? 180;

  renderChart(container, {
    kind: 'lines',
    caption: data.caption,
    height,
    legend: data.series.map((s) => ({ name: s.name, shape: 'line' })),
    hint: 'Point at the chart, or Tab in and use the arrow keys, to read it.',
    table: {
      caption: data.caption,
      columns: [data.xLabel, ...data.series.map((s) => s.name)],
      rows: data.x.map((_, i) => ({
        head: xName(i),
        cells: data.series.map((s) => ({ text: format(s.values[i]), value: s.values[i] })),
      })),
    },
    draw(doc, width) {
      const yTexts = yTicks.map((t) => formatNumber(t, 6));
      const box = plotBox(width, height, yTexts, { yTitle: Boolean(data.yLabel) });
      const x = makeScale(xDomain, [box.left + 8, box.right - 8], data.logX);
      const y = makeScale(yDomain, [box.bottom, box.top], data.logY);
      const axes = drawAxes(doc, box, {
        x: {
          ticks: data.xNames
            ? data.x.map((value, i) => ({ at: x(value), text: xName(i) }))
            : ticksAt(xTicks, x),
          title: data.xLabel,
        },
        y: { ticks: ticksAt(yTicks, y), title: data.yLabel },
      });
      const nodes = [axes];
      const px = data.x.map(x);
      if (data.mark !== undefined) nodes.push(markAt(doc, box, px[data.mark], at(data.mark)));
      data.series.forEach((s, k) => {
        const group = svgEl(doc, 'g', { class: 'chart-series', 'aria-hidden': 'true' });
        const points = s.values.map((v, i) => `${px[i].toFixed(1)},${y(v).toFixed(1)}`);
        const path = svgEl(doc, 'polyline', { points: points.join(' ') });
        path.classList.add('chart-line', seriesClass(k));
        group.append(path, ...s.values.map((v, i) => marker(doc, k, px[i], y(v))));
        nodes.push(group);
      });
      const mid = (i) => (px[i] + px[i + 1]) / 2;
      const stops = px.map((_, i) => ({
        x0: i === 0 ? box.left : mid(i - 1),
        x1: i === px.length - 1 ? box.right : mid(i),
        label: describe(i),
      }));
      return { box, nodes, stops };
    },
  });
}

/**
 * A vertical line at the marked x, labelled at the top of the plot.
 * @param {Document} doc
 * @param {import('./axis.js').Box} box
 * @param {number} px
 * @param {string} label
 */
function markAt(doc, box, px, label) {
  const group = svgEl(doc, 'g', { class: 'chart-mark', 'aria-hidden': 'true' });
  const rightHalf = px > (box.left + box.right) / 2;
  group.append(
    svgEl(doc, 'line', { x1: px, x2: px, y1: box.top, y2: box.bottom }),
    svgEl(
      doc,
      'text',
      { x: px + (rightHalf ? -6 : 6), y: box.top + FONT / 2, class: rightHalf ? 'end' : '' },
      label,
    ),
  );
  return group;
}
