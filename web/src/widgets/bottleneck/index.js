// The `bottleneck` widget: a memory width d and a seed; the engine stores N facts (N = 1 … 256)
// and reads each back from one d-wide vector that holds them all, and by attention over all N
// keys; a line chart of both accuracies over N, and one line reading them where N = d. Props:
// { width, seed, state }; state keeps the learner's width and seed across mounts.
import './style.css';
import './deck.css';
import { clearRun, showRun } from './figures.js';
import { buildBottleneckParts } from './markup.js';
import { WIDTHS, finishedRun, runLater } from './sweep.js';
import { SEED_PROBLEM, parseSeed } from '../shared/seed.js';
import { formWidget } from '../shared/form-widget.js';
import { setLine } from '../shared/line.js';
import { registerWidget } from '../shared/registry.js';
import { SETTINGS } from './link-settings.js';

const DEFAULTS = { width: 64, seed: 1 };
const WORKING = 'Storing the facts and reading them back\u2026';

/** @returns {import('../shared/registry.js').Widget} */
function createBottleneck() {
  let stop = () => {};
  return formWidget({
    build: buildBottleneckParts,
    fill(parts, props, state) {
      const width = nearestWidth(Number(state.width ?? props.width ?? DEFAULTS.width));
      for (const input of parts.widths) input.checked = Number(input.value) === width;
      parts.seed.value = String(state.seed ?? props.seed ?? DEFAULTS.seed);
    },
    read(parts, state) {
      state.width = Number(parts.widths.find((input) => input.checked)?.value ?? DEFAULTS.width);
      state.seed = parts.seed.value;
    },
    draw(parts, engine, state) {
      stop();
      stop = draw(parts, engine, state.width, state.seed);
    },
    clear(parts) {
      stop();
      clearRun(parts);
    },
  });
}

/**
 * Shows the experiment's numbers for a width and seed: at once if they are known, else the last
 * ones marked out of date until the engine, a count at a time, has the new ones.
 * @param {import('./markup.js').BottleneckParts} parts
 * @param {object} engine
 * @param {number} width
 * @param {string} seedText what the seed box holds
 * @returns {() => void} stops the work still to do
 */
function draw(parts, engine, width, seedText) {
  const seed = parseSeed(seedText);
  if (seed === null) {
    show(parts, '', SEED_PROBLEM);
    clearRun(parts);
    return () => {};
  }
  const run = finishedRun(engine, width, seed);
  if (run) {
    show(parts, '', '');
    showRun(parts, run, width);
    return () => {};
  }
  show(parts, WORKING, '');
  parts.figure.classList.add('bn-stale');
  return runLater(
    engine,
    width,
    seed,
    (done) => {
      show(parts, '', '');
      showRun(parts, done, width);
    },
    (error) => {
      console.error(error);
      show(parts, '', `The experiment could not be run: ${error.message}`);
      clearRun(parts);
    },
  );
}

/**
 * Shows the status and error lines (an empty text hides a line); the figure is shown, up to date,
 * unless there is an error.
 * @param {import('./markup.js').BottleneckParts} parts
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

registerWidget('bottleneck', createBottleneck, { settings: SETTINGS });
