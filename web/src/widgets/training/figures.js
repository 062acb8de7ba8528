// The training figure's drawings, from a run's history (web/src/train/history.js): the controls'
// state and the progress bar, the reading line, the cross-attention map of a sample (heatmap
// view), the loss curves and the accuracy against input length (line charts).
import { formatNumber } from '../../views/charts/format.js';
import { clearLines, renderLines } from '../../views/charts/lines.js';
import { niceDomain } from '../../views/charts/ticks.js';
import { clearHeatmap, renderHeatmap } from '../../views/heatmap/index.js';
import { lossCurves } from '../../train/history.js';
import { SAMPLES, lossBucket } from './experiments.js';
import {
  clearHeadFigures,
  drawHeadScores,
  drawProbe,
  headEvaluations,
  headsReading,
} from './heads.js';

/** @typedef {import('./markup.js').TrainingParts} Parts */
/** @typedef {import('./experiments.js').Experiment} Experiment */
/** @typedef {import('../../train/history.js').History} History */

const count = (/** @type {number} */ n) => n.toLocaleString('en-US');
/** A share (0 to 1) as a whole percentage: 0.974 -> '97%'. */
export const percent = (/** @type {number} */ share) => `${Math.round(share * 100)}%`;

/**
 * A symbol of the task (1 to 8) as a letter, so inputs read as words of letters, not positions.
 * @param {number} symbol
 */
export const letter = (symbol) => String.fromCharCode(64 + symbol);

/**
 * The one button's label: what pressing it will do.
 * @param {History['status']} status
 */
function goLabel(status) {
  if (status === 'running') return 'Pause';
  if (status === 'paused') return 'Resume';
  if (status === 'done') return 'Finished';
  return 'Start';
}

/**
 * The buttons, the settings' boxes, the progress bar and the status line.
 * @param {Parts} parts
 * @param {History | null} history null when the settings are bad (no run)
 */
export function drawControls(parts, history) {
  const status = history?.status ?? 'ready';
  const steps = history?.steps ?? 0;
  const planned = Number(parts.progress.max);
  // Only what changed is written: the page redraws as little as it can while the worker trains.
  setText(parts.go, goLabel(status));
  setFlag(parts.go, !history || !['ready', 'running', 'paused'].includes(status));
  setFlag(parts.reset, !history || (steps === 0 && status !== 'failed') || status === 'starting');
  // The settings belong to the run from step 0; a run under way keeps them until Reset.
  const locked = steps > 0 || status === 'running';
  setFlag(parts.seed, locked);
  setFlag(parts.rate, locked);
  if (parts.progress.value !== steps) parts.progress.value = steps;
  setText(parts.count, `${count(steps)} of ${count(planned)} steps`);
  setText(
    parts.speed,
    status === 'running' && history && history.stepsPerSecond > 0
      ? `${count(Math.round(history.stepsPerSecond))} steps/s`
      : '',
  );
  if (parts.figure.dataset.status !== status) parts.figure.dataset.status = status;
  if (parts.figure.dataset.steps !== String(steps)) parts.figure.dataset.steps = String(steps);
  setText(parts.status, statusLine(status, steps));
}

/**
 * @param {Element} node
 * @param {string} text
 */
function setText(node, text) {
  if (node.textContent !== text) node.textContent = text;
}

/**
 * @param {HTMLButtonElement | HTMLInputElement} control
 * @param {boolean} disabled
 */
function setFlag(control, disabled) {
  if (control.disabled !== disabled) control.disabled = disabled;
}

/**
 * @param {History['status']} status
 * @param {number} steps
 */
function statusLine(status, steps) {
  if (status === 'running') return 'Training\u2026';
  if (status === 'paused') return `Paused after ${count(steps)} steps.`;
  if (status === 'done') return `Finished after ${count(steps)} steps. Reset to train again.`;
  return '';
}

/**
 * The loss of every model over the steps so far, averaged over buckets of steps.
 * @param {Parts} parts
 * @param {Experiment} experiment
 * @param {History} history
 */
export function drawLoss(parts, experiment, history) {
  const bucket = lossBucket(experiment);
  const { x, series } = lossCurves(history.losses, bucket);
  if (x.length === 0) {
    clearLines(parts.loss);
    return;
  }
  const names = experiment.models.map((model) => model.name);
  const high = Math.max(...series.flat());
  renderLines(parts.loss, {
    caption:
      `Training loss of ${names.join(' and ')}, each point the mean over ${bucket} steps, ` +
      `after ${count(x[x.length - 1])} steps`,
    x,
    xLabel: 'step',
    yLabel: 'loss',
    series: names.map((name, i) => ({ name, values: series[i] })),
    yDomain: niceDomain(0, high > 0 ? high : 1),
    height: experiment.chartHeight,
  });
}

/**
 * Accuracy against input length at the latest evaluation, as a chart (bottleneck, scaling).
 * @param {Parts} parts
 * @param {Experiment} experiment
 * @param {History} history
 */
export function drawAccuracy(parts, experiment, history) {
  if (experiment.kind === 'language-model') {
    drawHeadScores(parts, experiment.chartHeight, history);
    return;
  }
  if (!parts.accuracy) return;
  const latest = history.evaluations[history.evaluations.length - 1];
  if (!latest) {
    clearLines(parts.accuracy);
    return;
  }
  renderLines(parts.accuracy, {
    caption:
      `Accuracy (share of ${SAMPLES} held-out sequences per length reversed without a mistake) ` +
      `against input length, after ${count(latest.step)} steps`,
    x: latest.lengths,
    xLabel: 'input length',
    yLabel: 'accuracy (%)',
    series: experiment.models.map((model, i) => ({
      name: model.name,
      values: latest.models[i].sequence.map((share) => share * 100),
    })),
    yDomain: [0, 100],
    format: (value) => `${formatNumber(value)}%`,
    height: experiment.chartHeight,
  });
}

/**
 * The line that reads the latest evaluation in words.
 * @param {Parts} parts
 * @param {Experiment} experiment
 * @param {History} history
 */
export function drawReading(parts, experiment, history) {
  const latest = history.evaluations[history.evaluations.length - 1];
  if (experiment.kind === 'language-model') {
    const evaluations = headEvaluations(history);
    parts.reading.textContent =
      evaluations.length > 0 && history.steps > 0 ? headsReading(evaluations) : experiment.idle;
    // The jobs found at the latest measurement, for whoever reads the figure's state.
    const heads = evaluations.at(-1)?.heads ?? [];
    parts.figure.dataset.jobs = [...new Set(heads.map((head) => head.kind))]
      .filter((kind) => kind !== 'mixed')
      .sort()
      .join(' ');
  } else {
    parts.reading.textContent = latest
      ? readingOf(experiment, /** @type {import('../../train/run.js').Evaluation} */ (latest))
      : experiment.idle;
  }
  parts.figure.dataset.evaluated = latest ? String(latest.step) : '';
}

/**
 * @param {Experiment} experiment
 * @param {import('../../train/run.js').Evaluation} evaluation
 * @returns {string}
 */
export function readingOf(experiment, evaluation) {
  const { step, lengths, models } = evaluation;
  const after = `after ${count(step)} steps`;
  const last = lengths.length - 1;
  const mean = (/** @type {number[]} */ shares) =>
    shares.reduce((sum, share) => sum + share, 0) / shares.length;
  if (experiment.key === 'bottleneck') {
    const [fixed, attention] = models.map((m) => percent(m.sequence[last]));
    return (
      `At length ${lengths[last]}, ${after}: accuracy ${attention} with attention, ` +
      `${fixed} with one fixed vector.`
    );
  }
  if (experiment.key === 'scaling') {
    const [unscaled, scaled] = models.map((m) => percent(mean(m.sequence)));
    return (
      `${after[0].toUpperCase()}${after.slice(1)}: accuracy ${scaled} scaled, ${unscaled} ` +
      `unscaled (mean over lengths ${lengths[0]} to ${lengths[last]}).`
    );
  }
  const shares = models[0].sequence;
  return (
    `${after[0].toUpperCase()}${after.slice(1)}: accuracy ${percent(mean(shares))} on lengths ` +
    `${lengths[0]}\u2013${lengths[last]}, ${percent(shares[last])} at ${lengths[last]}.`
  );
}

/**
 * The cross-attention map of the sample: rows are output steps (labelled with the symbol the
 * model wrote), columns input positions (labelled with the input symbol). The language model's
 * figure draws every head on its probe instead (heads.js).
 * @param {Parts} parts
 * @param {Experiment} experiment
 * @param {History} history
 */
export function drawMap(parts, experiment, history) {
  if (experiment.kind === 'language-model') {
    drawProbe(parts, history);
    return;
  }
  if (!parts.map || !parts.sample) return;
  const map = history.map && 'input' in history.map ? history.map : null;
  if (!map) {
    clearHeatmap(parts.map);
    parts.sample.textContent = '';
    return;
  }
  const { length, input, target, output, weights } = map;
  renderHeatmap(parts.map, {
    rowLabels: output.map(letter),
    colLabels: input.map(letter),
    values: weights,
    caption:
      `Cross-attention weights after ${count(map.step)} steps for a sample of length ${length}: ` +
      'each row is an output step, named by the symbol the model wrote; each column an input ' +
      'position, named by its symbol',
    rowName: 'output',
    colName: 'input',
    // Small cells without numbers (they are in the read-out and the table): a map to look at.
    compact: true,
    rowHeight: length > 8 ? 14 : 20,
  });
  const right = output.filter((symbol, t) => symbol === target[t]).length;
  parts.sample.textContent =
    `Input ${input.map(letter).join(' ')}; the model writes ${output.map(letter).join(' ')}: ` +
    `${right} of ${length} right.`;
}

/**
 * Empties every drawing.
 * @param {Parts} parts
 */
export function clearFigures(parts) {
  clearLines(parts.loss);
  if (parts.accuracy) clearLines(parts.accuracy);
  if (parts.map) clearHeatmap(parts.map);
  clearHeadFigures(parts);
}
