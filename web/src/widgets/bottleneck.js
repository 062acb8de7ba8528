// The `bottleneck` widget: a memory width d and a seed; the engine stores N facts (N = 1 … 256)
// and reads each back from one d-wide vector that holds them all, and by attention over all N
// keys; a line chart of both accuracies over N, and one line reading them where N = d. Props:
// { width, seed, state }; state keeps the learner's width and seed across mounts.
import '../styles/bottleneck.css';
import '../styles/bottleneck-deck.css';
import { clearRun, showRun } from './bottleneck-figures.js';
import { buildBottleneckParts } from './bottleneck-markup.js';
import { MAX_SEED, WIDTHS, finishedRun, runLater } from './bottleneck-sweep.js';
import { setLine } from './heatmap-markup.js';
import { registerWidget } from './registry.js';

const DEFAULTS = { width: 64, seed: 1 };
const WORKING = 'Storing the facts and reading them back\u2026';

/** @returns {import('./registry.js').Widget} */
function createBottleneck() {
  /** @type {import('./bottleneck-markup.js').BottleneckParts | null} */
  let parts = null;
  let engine = null;
  let state = {};
  let stop = () => {};

  const redraw = () => {
    if (!parts) return;
    stop();
    const width = Number(parts.widths.find((input) => input.checked)?.value ?? DEFAULTS.width);
    state.width = width;
    state.seed = parts.seed.value;
    const seed = parseSeed(parts.seed.value);
    if (seed === null) {
      show(parts, '', `The seed must be a whole number from 0 to ${MAX_SEED}.`);
      clearRun(parts);
      return;
    }
    const run = finishedRun(engine, width, seed);
    if (run) {
      show(parts, '', '');
      showRun(parts, run, width);
      return;
    }
    // The chart keeps the last numbers, marked as out of date, until the new ones are in.
    show(parts, WORKING, '');
    parts.figure.classList.add('bn-stale');
    stop = runLater(
      engine,
      width,
      seed,
      (done) => {
        if (!parts) return;
        show(parts, '', '');
        showRun(parts, done, width);
      },
      (error) => {
        console.error(error);
        if (!parts) return;
        show(parts, '', `The experiment could not be run: ${error.message}`);
        clearRun(parts);
      },
    );
  };

  const apply = (props) => {
    state = props.state ?? {};
    const width = nearestWidth(Number(state.width ?? props.width ?? DEFAULTS.width));
    for (const input of parts.widths) input.checked = Number(input.value) === width;
    parts.seed.value = String(state.seed ?? props.seed ?? DEFAULTS.seed);
    redraw();
  };

  return {
    mount(el, props, facade) {
      engine = facade;
      parts = buildBottleneckParts(el.ownerDocument);
      el.replaceChildren(parts.root);
      parts.root.addEventListener('input', redraw);
      apply(props);
    },
    update(props) {
      if (parts) apply(props);
    },
    destroy() {
      stop();
      if (!parts) return;
      parts.root.removeEventListener('input', redraw);
      clearRun(parts);
      parts.root.remove();
      parts = null;
      engine = null;
    },
  };
}

/**
 * Shows the status and error lines (an empty text hides a line); the figure is shown, up to date,
 * unless there is an error.
 * @param {import('./bottleneck-markup.js').BottleneckParts} parts
 * @param {string} status
 * @param {string} error
 */
function show(parts, status, error) {
  setLine(parts.status, status);
  setLine(parts.error, error);
  parts.figure.hidden = error !== '';
  parts.figure.classList.remove('bn-stale');
  if (status === '') parts.figure.removeAttribute('aria-busy');
  else parts.figure.setAttribute('aria-busy', 'true');
}

/**
 * @param {number} width any number (a link may carry one)
 * @returns {number} the width on offer nearest to it on a log scale, or the default
 */
function nearestWidth(width) {
  if (!(width > 0)) return DEFAULTS.width;
  const distance = (d) => Math.abs(Math.log2(d / width));
  return WIDTHS.reduce((best, d) => (distance(d) < distance(best) ? d : best));
}

/**
 * @param {string} text what the seed box holds
 * @returns {number | null} the seed, or null when it is not a whole number in the engine's range
 */
function parseSeed(text) {
  const value = Number(text);
  const ok = text.trim() !== '' && Number.isInteger(value) && value >= 0 && value <= MAX_SEED;
  return ok ? value : null;
}

registerWidget('bottleneck', createBottleneck);
