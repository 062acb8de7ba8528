// The timing figure's drawings, from the run's history (web/src/train/history.js): the button and
// the status lines, the bars of steps per second (bar chart view) and each model's reading line.
// The figure carries its status and each reading line its rate as data- attributes, the numbers
// the lines show.
import { clearBars, renderBars } from '../../views/charts/bars.js';
import { formatNumber } from '../../views/charts/format.js';
import { BAR_LABELS, NOTE, rateText, ratesOf, whatText } from './text.js';

/** @typedef {import('./markup.js').SpeedParts} Parts */
/** @typedef {import('../../train/history.js').History} History */

/**
 * The button's label: what pressing it will do.
 * @param {History['status']} status
 */
function goLabel(status) {
  if (status === 'running') return 'Stop';
  if (status === 'done') return 'Done';
  return 'Start';
}

/**
 * @param {History['status']} status
 * @param {number} steps
 */
function statusLine(status, steps) {
  if (status === 'starting') return 'Building both models from their seed\u2026';
  if (status === 'running') return 'Timing: the two models take turns, one step each.';
  if (status === 'paused') return `Stopped after ${steps.toLocaleString('en-US')} steps of each.`;
  if (status === 'done') return `Done: ${steps.toLocaleString('en-US')} steps of each.`;
  return '';
}

/**
 * Everything but the bars: the button, the count, the status, the words and the readings.
 * @param {Parts} parts
 * @param {History | null} history null while the files download
 */
export function drawControls(parts, history) {
  const status = history?.status ?? 'starting';
  const steps = history?.steps ?? 0;
  setText(parts.go, goLabel(status));
  parts.go.disabled = !history || !['ready', 'running', 'paused'].includes(status);
  const timing = history?.timing ?? null;
  const done = timing ? timing.models.map((m) => m.steps) : [0, 0];
  setText(
    parts.count,
    history
      ? `Steps: ${done[0].toLocaleString('en-US')} and ${done[1].toLocaleString('en-US')}`
      : '',
  );
  if (parts.figure.dataset.status !== status) parts.figure.dataset.status = status;
  setText(parts.status, statusLine(status, steps));
  parts.status.hidden = parts.status.textContent === '';
  setText(parts.what, whatText(timing));
  setText(parts.note, NOTE);
  parts.rates.forEach((line, i) => {
    setText(line, rateText(i, timing));
    const model = timing?.models[i];
    const rate = model && model.steps > 0 ? ratesOf(model, timing.pairs).stepsPerSecond : 0;
    line.dataset.stepsPerSecond = String(rate);
    line.dataset.steps = String(model?.steps ?? 0);
  });
}

/**
 * The bars of steps per second, once a model has a time.
 * @param {Parts} parts
 * @param {History | null} history
 */
export function drawBars(parts, history) {
  const timing = history?.timing ?? null;
  if (!timing || timing.models.every((m) => m.steps === 0)) {
    clearBars(parts.bars);
    return;
  }
  const values = timing.models.map((m) =>
    m.steps > 0 ? ratesOf(m, timing.pairs).stepsPerSecond : 0,
  );
  renderBars(parts.bars, {
    caption:
      `Training steps per second on ${timing.pairs} sentence pairs, median over the steps so ` +
      'far, in this browser',
    labels: [...BAR_LABELS],
    values,
    labelName: 'model',
    valueName: 'steps per second',
    format: (value) => formatNumber(value, 2),
    height: 170,
  });
}

/** @param {Parts} parts */
export function clearFigures(parts) {
  clearBars(parts.bars);
}

/**
 * @param {HTMLElement} node
 * @param {string} text
 */
function setText(node, text) {
  if (node.textContent !== text) node.textContent = text;
}
