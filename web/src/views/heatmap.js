// Heatmap view: draws a matrix of weights in [0, 1] as an SVG grid with row and column labels, a
// colour legend, a read-out of the pointed-at or focused cell (arrow keys move a roving focus) and
// a real <table> with the same numbers for screen readers. It takes plain arrays only.

const SVG_NS = 'http://www.w3.org/2000/svg';
const MAX_LABEL_CHARS = 12;
const MAX_LABEL_PX = 120;
const MIN_CELL = 14;
const MAX_CELL = 48;
const SLANT_MIN_CELL = 26;
const HINT =
  'Point at or tap a cell, or Tab into the grid and use the arrow keys, to read a weight.';

/** Per-container state kept between renders. */
const states = new WeakMap();
let nextId = 0;

/**
 * @typedef {object} HeatmapData
 * @property {string[]} rowLabels one label per row (the queries)
 * @property {string[]} colLabels one label per column (the keys)
 * @property {ArrayLike<number>} values rows x cols weights, row-major, each in [0, 1]
 * @property {ArrayLike<boolean>} [masked] rows x cols, true where a cell is masked out
 * @property {string} caption one sentence describing the figure
 * @property {string} [rowName] what a row is, e.g. 'query'
 * @property {string} [colName] what a column is, e.g. 'key'
 */

/**
 * Formats a weight for the table and the read-out: exactly 0 as '0', else three decimals.
 * @param {number} value
 * @returns {string}
 */
export function formatWeight(value) {
  return value === 0 ? '0' : value.toFixed(3);
}

/**
 * Draws (or redraws) the heatmap into a container, replacing what the container held.
 * @param {HTMLElement} container an empty element owned by the heatmap
 * @param {HeatmapData} data the labels and weights to show
 */
export function renderHeatmap(container, data) {
  const rows = data.rowLabels.length;
  const cols = data.colLabels.length;
  if (data.values.length !== rows * cols) {
    throw new Error(`heatmap: values has ${data.values.length} entries, expected ${rows}x${cols}`);
  }
  const state = stateFor(container);
  const previous = container.querySelector('details');
  const focusedIndex = indexOfFocusedCell(container);
  state.data = data;
  state.width = container.clientWidth;
  state.active = Math.min(state.active, rows * cols - 1);

  const parts = buildParts(container, data, state);
  container.replaceChildren(parts.root);
  if (previous) parts.details.open = previous.open;
  if (focusedIndex >= 0 && focusedIndex < rows * cols) parts.cells[focusedIndex].focus();
}

/**
 * Empties the container (for example when there is nothing to show).
 * @param {HTMLElement} container
 */
export function clearHeatmap(container) {
  const state = states.get(container);
  if (state) state.data = null;
  container.replaceChildren();
}

/**
 * @param {HTMLElement} container
 * @returns {{ id: number, active: number, width: number, data: HeatmapData | null }}
 */
function stateFor(container) {
  let state = states.get(container);
  if (!state) {
    state = { id: nextId++, active: 0, width: 0, data: null };
    states.set(container, state);
    // Lay the grid out again when the space for it changes (phone rotation, window resize).
    if (typeof ResizeObserver === 'function') {
      new ResizeObserver(() => {
        if (state.data && Math.abs(container.clientWidth - state.width) > 8) {
          renderHeatmap(container, state.data);
        }
      }).observe(container);
    }
  }
  return state;
}

/**
 * @param {HTMLElement} container
 * @returns {number} the index of the focused cell, or -1
 */
function indexOfFocusedCell(container) {
  const active = container.ownerDocument.activeElement;
  if (!active || !container.contains(active) || !active.dataset.index) return -1;
  return Number(active.dataset.index);
}

/**
 * @param {HTMLElement} container
 * @param {HeatmapData} data
 * @param {{ id: number, active: number }} state
 */
function buildParts(container, data, state) {
  const doc = container.ownerDocument;
  const root = el(doc, 'div', { class: 'heatmap' });
  const readoutId = `heatmap-readout-${state.id}`;
  const readout = el(doc, 'p', { class: 'heatmap-readout', id: readoutId });
  readout.textContent = HINT;

  const scroll = el(doc, 'div', { class: 'heatmap-scroll' });
  const grid = buildGrid(doc, data, state, container.clientWidth, readoutId);
  scroll.append(grid.svg);

  const details = el(doc, 'details', { class: 'heatmap-details' });
  const summary = el(doc, 'summary');
  summary.textContent = 'Show the numbers as a table';
  details.append(summary, buildTable(doc, data));

  root.append(scroll, buildLegend(doc, data, state.id), readout, details);
  wireInteraction(grid, data, state, readout);
  return { root, details, cells: grid.cells };
}

/**
 * Chooses sizes so the grid fits the available width when it can.
 * @param {HeatmapData} data
 * @param {number} available width in CSS pixels (0 when unknown)
 */
function layout(data, available) {
  const rows = data.rowLabels.length;
  const cols = data.colLabels.length;
  const font = Math.max(rows, cols) > 24 ? 11 : 13;
  const widest = (labels) =>
    Math.min(MAX_LABEL_PX, Math.max(0, ...labels.map((l) => textWidth(shortLabel(l), font))));
  const rowLabelWidth = Math.ceil(widest(data.rowLabels)) + 12;
  const colLabelWidth = widest(data.colLabels);
  const fit = (overhang) => {
    const spare = available > 0 ? available - rowLabelWidth - overhang - 4 : MAX_CELL * cols;
    return Math.max(MIN_CELL, Math.min(MAX_CELL, Math.floor(spare / cols)));
  };
  // Column labels slant at 45 degrees; when the cells get too narrow for that, they stand upright.
  let angle = -45;
  let overhang = Math.SQRT1_2 * colLabelWidth;
  let cell = fit(overhang);
  if (cell < SLANT_MIN_CELL) {
    angle = -90;
    overhang = font / 2;
    cell = fit(overhang);
  }
  const rise = angle === -90 ? colLabelWidth : Math.SQRT1_2 * colLabelWidth;
  const top = Math.ceil(rise + font) + 8;
  const right = Math.max(4, Math.ceil(overhang - cell / 2) + 4);
  return {
    font,
    angle,
    cell,
    left: rowLabelWidth,
    top,
    width: rowLabelWidth + cols * cell + right,
    height: top + rows * cell + 2,
    valueFont: cell >= 40 ? 12 : cell >= 32 ? 10.5 : 0,
  };
}

/**
 * @param {Document} doc
 * @param {HeatmapData} data
 * @param {{ id: number, active: number }} state
 * @param {number} available
 * @param {string} readoutId
 */
function buildGrid(doc, data, state, available, readoutId) {
  const { rowLabels, colLabels, values, masked } = data;
  const nCols = colLabels.length;
  const rowName = data.rowName ?? 'row';
  const colName = data.colName ?? 'column';
  const box = layout(data, available);
  const svg = svgEl(doc, 'svg', {
    class: 'heatmap-svg',
    viewBox: `0 0 ${box.width} ${box.height}`,
    width: box.width,
    height: box.height,
    role: 'grid',
    // Only the cells take focus (one at a time); without this the browser also stops on the svg.
    tabindex: -1,
    'aria-label': data.caption,
    'aria-describedby': readoutId,
    'aria-rowcount': rowLabels.length,
    'aria-colcount': colLabels.length,
  });
  svg.style.setProperty('--label-font', `${box.font}px`);
  const hatchId = `heatmap-hatch-${state.id}`;
  svg.append(hatchPattern(doc, hatchId));

  const colGroup = svgEl(doc, 'g', { class: 'col-labels', 'aria-hidden': 'true' });
  const colTexts = colLabels.map((label, j) => {
    const x = box.left + (j + 0.5) * box.cell;
    const text = labelText(doc, label, {
      class: 'col-label',
      transform: `translate(${x} ${box.top - 6}) rotate(${box.angle})`,
    });
    colGroup.append(text);
    return text;
  });
  const rowGroup = svgEl(doc, 'g', { class: 'row-labels', 'aria-hidden': 'true' });
  const rowTexts = rowLabels.map((label, i) => {
    const text = labelText(doc, label, {
      class: 'row-label',
      x: box.left - 8,
      y: box.top + (i + 0.5) * box.cell,
    });
    rowGroup.append(text);
    return text;
  });
  svg.append(colGroup, rowGroup);

  const cells = [];
  const valueGroup = svgEl(doc, 'g', { class: 'cell-values', 'aria-hidden': 'true' });
  valueGroup.style.fontSize = `${box.valueFont}px`;
  rowLabels.forEach((rowLabel, i) => {
    const row = svgEl(doc, 'g', {
      role: 'row',
      'aria-rowindex': i + 1,
      'aria-label': `${rowName} \u201c${rowLabel}\u201d`,
    });
    colLabels.forEach((colLabel, j) => {
      const index = i * nCols + j;
      const value = values[index];
      const isMasked = Boolean(masked?.[index]);
      const cell = svgEl(doc, 'rect', {
        class: isMasked ? 'cell masked' : 'cell',
        x: box.left + j * box.cell,
        y: box.top + i * box.cell,
        width: box.cell,
        height: box.cell,
        role: 'gridcell',
        'aria-colindex': j + 1,
        tabindex: index === state.active ? 0 : -1,
        'aria-label': describe(rowName, rowLabel, colName, colLabel, value, isMasked),
        'data-index': index,
        'data-value': value,
      });
      cell.style.fill = isMasked ? `url(#${hatchId})` : heatColour(value);
      row.append(cell);
      cells.push(cell);
      if (box.valueFont > 0 && !isMasked) valueGroup.append(valueText(doc, box, i, j, value));
    });
    svg.append(row);
  });
  const frame = svgEl(doc, 'rect', {
    class: 'grid-frame',
    x: box.left - 0.5,
    y: box.top - 0.5,
    width: colLabels.length * box.cell + 1,
    height: rowLabels.length * box.cell + 1,
    'aria-hidden': 'true',
  });
  const ring = svgEl(doc, 'rect', {
    class: 'cell-ring',
    'aria-hidden': 'true',
    visibility: 'hidden',
  });
  svg.append(valueGroup, frame, ring);
  return { svg, cells, ring, box, rowTexts, colTexts };
}

/**
 * @param {Document} doc
 * @param {{ left: number, top: number, cell: number }} box
 * @param {number} i
 * @param {number} j
 * @param {number} value
 */
function valueText(doc, box, i, j, value) {
  const text = svgEl(doc, 'text', {
    x: box.left + (j + 0.5) * box.cell,
    y: box.top + (i + 0.5) * box.cell,
    class: value > 0.5 ? 'cell-value on-strong' : 'cell-value',
  });
  text.textContent = value >= 0.995 ? '1' : value.toFixed(2).replace(/^0/, '');
  return text;
}

/**
 * Moves the roving focus with the arrow keys and shows the value of the pointed-at or focused cell.
 * @param {{ svg: SVGSVGElement, cells: SVGRectElement[], ring: SVGRectElement,
 *   rowTexts: SVGTextElement[], colTexts: SVGTextElement[] }} grid
 * @param {HeatmapData} data
 * @param {{ active: number }} state
 * @param {HTMLElement} readout
 */
function wireInteraction(grid, data, state, readout) {
  const { svg, cells, ring } = grid;
  const nCols = data.colLabels.length;
  const nRows = data.rowLabels.length;
  let focused = -1;

  const show = (index) => {
    if (index < 0) {
      ring.setAttribute('visibility', 'hidden');
      readout.textContent = HINT;
      highlight(grid, -1, -1);
      return;
    }
    const cell = cells[index];
    for (const name of ['x', 'y', 'width', 'height'])
      ring.setAttribute(name, cell.getAttribute(name));
    ring.setAttribute('visibility', 'visible');
    readout.textContent = cell.getAttribute('aria-label');
    highlight(grid, Math.floor(index / nCols), index % nCols);
  };

  const moveTo = (index) => {
    cells[state.active]?.setAttribute('tabindex', '-1');
    state.active = index;
    cells[index].setAttribute('tabindex', '0');
    cells[index].focus();
  };

  svg.addEventListener('focusin', (event) => {
    const index = Number(event.target.dataset?.index ?? -1);
    if (index < 0) return;
    cells[state.active]?.setAttribute('tabindex', '-1');
    state.active = index;
    event.target.setAttribute('tabindex', '0');
    focused = index;
    show(index);
  });
  svg.addEventListener('focusout', () => {
    focused = -1;
    show(-1);
  });
  svg.addEventListener('pointerover', (event) => {
    const index = Number(event.target.dataset?.index ?? -1);
    if (index >= 0) show(index);
  });
  svg.addEventListener('pointerleave', () => show(focused));
  svg.addEventListener('keydown', (event) => {
    const row = Math.floor(state.active / nCols);
    const col = state.active % nCols;
    const target = {
      ArrowRight: [row, Math.min(nCols - 1, col + 1)],
      ArrowLeft: [row, Math.max(0, col - 1)],
      ArrowDown: [Math.min(nRows - 1, row + 1), col],
      ArrowUp: [Math.max(0, row - 1), col],
      Home: event.ctrlKey ? [0, 0] : [row, 0],
      End: event.ctrlKey ? [nRows - 1, nCols - 1] : [row, nCols - 1],
      PageUp: [0, col],
      PageDown: [nRows - 1, col],
    }[event.key];
    if (!target) return;
    event.preventDefault();
    moveTo(target[0] * nCols + target[1]);
  });
}

/**
 * Marks the row and column labels of the active cell.
 * @param {{ rowTexts: SVGTextElement[], colTexts: SVGTextElement[] }} grid
 * @param {number} row
 * @param {number} col
 */
function highlight(grid, row, col) {
  grid.rowTexts.forEach((text, i) => text.classList.toggle('active', i === row));
  grid.colTexts.forEach((text, j) => text.classList.toggle('active', j === col));
}

/**
 * @param {string} rowName
 * @param {string} rowLabel
 * @param {string} colName
 * @param {string} colLabel
 * @param {number} value
 * @param {boolean} isMasked
 */
function describe(rowName, rowLabel, colName, colLabel, value, isMasked) {
  const pair = `${rowName} \u201c${rowLabel}\u201d to ${colName} \u201c${colLabel}\u201d`;
  return isMasked ? `${pair}: masked, weight 0` : `${pair}: weight ${formatWeight(value)}`;
}

/**
 * Builds the accessible table with the same numbers as the grid.
 * @param {Document} doc
 * @param {HeatmapData} data
 */
function buildTable(doc, data) {
  const wrap = el(doc, 'div', { class: 'table-scroll', tabindex: 0, role: 'region' });
  const table = el(doc, 'table', { class: 'heatmap-table' });
  const caption = el(doc, 'caption');
  caption.textContent = data.caption;
  wrap.setAttribute('aria-label', 'Weights table');

  const headRow = el(doc, 'tr');
  const corner = el(doc, 'th', { scope: 'col' });
  corner.textContent = `${data.rowName ?? 'row'} \\ ${data.colName ?? 'column'}`;
  headRow.append(corner);
  for (const label of data.colLabels) {
    const th = el(doc, 'th', { scope: 'col' });
    th.textContent = label;
    headRow.append(th);
  }
  const thead = el(doc, 'thead');
  thead.append(headRow);

  const tbody = el(doc, 'tbody');
  data.rowLabels.forEach((label, i) => {
    const tr = el(doc, 'tr');
    const th = el(doc, 'th', { scope: 'row' });
    th.textContent = label;
    tr.append(th);
    data.colLabels.forEach((_, j) => {
      const index = i * data.colLabels.length + j;
      const value = data.values[index];
      const td = el(doc, 'td', { 'data-value': value });
      if (data.masked?.[index]) td.className = 'masked';
      td.textContent = formatWeight(value);
      tr.append(td);
    });
    tbody.append(tr);
  });
  table.append(caption, thead, tbody);
  wrap.append(table);
  return wrap;
}

/**
 * The colour legend: a 0-to-1 bar, plus a swatch for masked cells when there are any.
 * @param {Document} doc
 * @param {HeatmapData} data
 * @param {number} id
 */
function buildLegend(doc, data, id) {
  const legend = el(doc, 'div', { class: 'heatmap-legend' });
  const title = el(doc, 'span', { class: 'legend-title' });
  title.textContent = 'Weight';
  const scale = el(doc, 'div', { class: 'legend-scale' });
  const bar = el(doc, 'div', {
    class: 'legend-bar',
    role: 'img',
    'aria-label': 'Colour scale: from weight 0 to weight 1',
  });
  const ticks = el(doc, 'div', { class: 'legend-ticks', 'aria-hidden': 'true' });
  for (const tick of ['0', '0.25', '0.5', '0.75', '1']) {
    const span = el(doc, 'span');
    span.textContent = tick;
    ticks.append(span);
  }
  scale.append(bar, ticks);
  legend.append(title, scale);
  if (Array.prototype.some.call(data.masked ?? [], Boolean)) {
    const item = el(doc, 'span', { class: 'legend-masked' });
    const swatch = svgEl(doc, 'svg', { width: 18, height: 18, 'aria-hidden': 'true' });
    const hatchId = `heatmap-legend-hatch-${id}`;
    const rect = svgEl(doc, 'rect', { x: 0.5, y: 0.5, width: 17, height: 17, class: 'swatch' });
    rect.style.fill = `url(#${hatchId})`;
    swatch.append(hatchPattern(doc, hatchId), rect);
    item.append(swatch, doc.createTextNode('masked (weight 0)'));
    legend.append(item);
  }
  return legend;
}

/**
 * A diagonal hatch used for masked cells.
 * @param {Document} doc
 * @param {string} id
 */
function hatchPattern(doc, id) {
  const defs = svgEl(doc, 'defs');
  const pattern = svgEl(doc, 'pattern', {
    id,
    width: 6,
    height: 6,
    patternUnits: 'userSpaceOnUse',
    patternTransform: 'rotate(45)',
  });
  pattern.append(
    svgEl(doc, 'rect', { width: 6, height: 6, class: 'hatch-bg' }),
    svgEl(doc, 'line', { x1: 0, y1: 0, x2: 0, y2: 6, class: 'hatch-line' }),
  );
  defs.append(pattern);
  return defs;
}

/**
 * The cell colour for a weight: a three-stop scale whose stops are CSS custom properties, so the
 * light and dark colour schemes each get their own palette.
 * @param {number} value
 * @returns {string}
 */
function heatColour(value) {
  const t = Math.min(1, Math.max(0, value));
  if (t <= 0.5) return `color-mix(in oklab, var(--heat-1) ${(t * 200).toFixed(1)}%, var(--heat-0))`;
  return `color-mix(in oklab, var(--heat-2) ${((t - 0.5) * 200).toFixed(1)}%, var(--heat-1))`;
}

/**
 * An SVG label, shortened when long (the full text stays in a <title>).
 * @param {Document} doc
 * @param {string} label
 * @param {Record<string, string | number>} attrs
 */
function labelText(doc, label, attrs) {
  const text = svgEl(doc, 'text', attrs);
  const short = shortLabel(label);
  text.textContent = short;
  if (short !== label) {
    const title = svgEl(doc, 'title');
    title.textContent = label;
    text.append(title);
  }
  return text;
}

/**
 * @param {string} label
 * @returns {string} the label, cut to MAX_LABEL_CHARS user-visible characters
 */
function shortLabel(label) {
  const chars = graphemes(label);
  return chars.length <= MAX_LABEL_CHARS
    ? label
    : `${chars.slice(0, MAX_LABEL_CHARS - 1).join('')}\u2026`;
}

/**
 * @param {string} text
 * @returns {string[]}
 */
function graphemes(text) {
  if (typeof Intl === 'object' && typeof Intl.Segmenter === 'function') {
    return Array.from(
      new Intl.Segmenter(undefined, { granularity: 'grapheme' }).segment(text),
      (s) => s.segment,
    );
  }
  return Array.from(text);
}

/**
 * A rough width estimate of a label, good enough for layout.
 * @param {string} text
 * @param {number} font the font size in pixels
 */
function textWidth(text, font) {
  let width = 0;
  for (const ch of text) {
    if (/[\p{M}\p{Cf}\uFE00-\uFE0F]/u.test(ch)) continue;
    width += ch.codePointAt(0) < 0x1100 ? 0.6 : 1.15;
  }
  return width * font;
}

/**
 * @param {Document} doc
 * @param {string} tag
 * @param {Record<string, string | number>} [attrs]
 * @returns {HTMLElement}
 */
function el(doc, tag, attrs = {}) {
  const node = doc.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) node.setAttribute(name, String(value));
  return node;
}

/**
 * @param {Document} doc
 * @param {string} tag
 * @param {Record<string, string | number>} [attrs]
 * @returns {SVGElement}
 */
function svgEl(doc, tag, attrs = {}) {
  const node = doc.createElementNS(SVG_NS, tag);
  for (const [name, value] of Object.entries(attrs)) node.setAttribute(name, String(value));
  return node;
}
