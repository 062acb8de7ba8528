// The `training` widget: trains small sequence-reversal models in the page's training worker
// (web/src/train/) and shows them learn. Props: { experiment, seed, rate, state } where experiment
// is 'bottleneck' (one fixed vector against attention: accuracy per input length), 'alignment'
// (the cross-attention map of a sample, redrawn as the model learns) or 'scaling' (dot-product
// attention at d_k = 256 with and without 1/sqrt(d_k)), or 'language-model' (a small sibling of
// the page's language model, from scratch, its heads measured as they form). state keeps the seed, the learning rate
// and the sample length; the run itself belongs to the place (props.place, registry.js), so it
// outlives the figure: taken down while training, it pauses, and resumes when the figure is back.
import './style.css';
import './deck.css';
import { fetchLiveCorpusOnce } from '../../text/live-corpus.js';
import { openSession } from '../../train/client.js';
import { formWidget } from '../shared/form-widget.js';
import { setLine } from '../shared/line.js';
import { registerWidget } from '../shared/registry.js';
import { pauseForReturn, pauseOutOfSight, resumeOnReturn } from '../shared/run-in-sight.js';
import { SETTINGS } from './link-settings.js';
import { DEFAULT_MAP_LENGTH, EXPERIMENTS, MAP_LENGTHS, runSpec } from './experiments.js';
import {
  clearFigures,
  drawAccuracy,
  drawControls,
  drawLoss,
  drawMap,
  drawReading,
} from './figures.js';
import { buildTrainingParts } from './markup.js';
import { DEFAULTS, parseRate, parseSeed } from './settings.js';

/** The figures, by what redraws them: the loss chart, the accuracy (chart and reading), the map. */
const FIGURES = /** @type {const} */ (['losses', 'evaluation', 'map']);
/** The least time between two redraws of one figure while training, in ms. */
const FIGURE_MS = 300;

const UNKNOWN = `This figure names no training experiment (known: ${Object.keys(EXPERIMENTS).join(', ')}).`;

/**
 * The run shown at each place, by the object that stands for the place (props.place), and the
 * settings it was made with.
 * @type {WeakMap<object, { session: import('../../train/client.js').Session, key: string }>}
 */
const places = new WeakMap();

/** The language model's files, once downloaded (web/src/text/live-corpus.js). */
/** @type {import('../../text/live-corpus.js').LiveCorpus | null} */
let liveCorpus = null;
/** Why they could not be downloaded, for the learner ('' while nothing failed). */
let loadError = '';
const DOWNLOADING = 'Downloading the text it trains on (about 250 kB)\u2026';

/**
 * @param {Record<string, any>} state
 * @returns {number} the sample length for the attention map the state names, else the default
 */
function mapLength(state) {
  const asked = Number(state.length);
  return MAP_LENGTHS.includes(asked) ? asked : DEFAULT_MAP_LENGTH;
}

/**
 * The figure of an experiment it does not know: one line that says so.
 * @param {Document} doc
 * @returns {HTMLParagraphElement}
 */
function unknownLine(doc) {
  const line = doc.createElement('p');
  line.className = 'error widget-message';
  line.setAttribute('role', 'alert');
  line.textContent = UNKNOWN;
  return line;
}

/** @returns {import('../shared/registry.js').Widget} */
function createTraining() {
  // What build made for a known experiment while it is in the page, else null (an unknown
  // experiment's figure is its error line alone): the steps below, and the draws that follow the
  // run's reports, work on it.
  /** @type {import('./markup.js').TrainingParts | null} */
  let parts = null;
  /** @type {import('./experiments.js').Experiment | null} */
  let experiment = null;
  /** The place this figure is shown in (props.place): its run is kept by it. */
  let here = {};
  /** What fill put in the seed and rate boxes. */
  let filled = { seed: '', rate: '' };
  /** @type {import('../../train/client.js').Session | null} */
  let session = null;
  let unsubscribe = () => {};
  let frame = 0;
  let timer = 0;
  /** Figures whose news are not drawn yet, and when each was last drawn. */
  const stale = { losses: true, evaluation: true, map: true };
  const drawnAt = { losses: -Infinity, evaluation: -Infinity, map: -Infinity };

  /** The settings in the boxes, each checked. */
  const settings = () => {
    const seed = parseSeed(/** @type {any} */ (parts).seed.value);
    const rate = parseRate(/** @type {any} */ (parts).rate.value);
    return { seed, rate, error: seed.error || rate.error };
  };

  /** The controls follow every report; each figure is redrawn at most every FIGURE_MS, one per
   * frame, so no frame of the page's own work grows long while the worker trains. */
  const draw = () => {
    frame = 0;
    timer = 0;
    if (!parts || !experiment) return;
    const { error } = settings();
    const history = error ? null : (session?.history ?? null);
    drawControls(parts, history);
    setLine(parts.error, error || history?.error || (session ? '' : loadError));
    if (!session) return;
    const now = performance.now();
    const due = FIGURES.filter((name) => stale[name] && now - drawnAt[name] >= FIGURE_MS).sort(
      (a, b) => drawnAt[a] - drawnAt[b],
    )[0];
    if (due) {
      drawFigure(due, session.history);
      stale[due] = false;
      drawnAt[due] = now;
    }
    const waiting = FIGURES.filter((name) => stale[name]);
    if (waiting.length === 0) return;
    const wait = Math.min(...waiting.map((name) => drawnAt[name] + FIGURE_MS - now));
    if (wait <= 0) frame = requestAnimationFrame(draw);
    else timer = window.setTimeout(() => soon(), wait);
  };
  /**
   * @param {keyof typeof stale} name
   * @param {import('../../train/history.js').History} history
   */
  const drawFigure = (name, history) => {
    if (!parts || !experiment) return;
    if (name === 'losses') drawLoss(parts, experiment, history);
    if (name === 'map') drawMap(parts, experiment, history);
    if (name === 'evaluation') {
      drawAccuracy(parts, experiment, history);
      drawReading(parts, experiment, history);
    }
  };
  /** Draws everything now (a figure put up, or started over). */
  const drawAll = () => {
    for (const name of FIGURES) {
      stale[name] = true;
      drawnAt[name] = -Infinity;
    }
    if (!session) {
      draw();
      return;
    }
    if (parts && experiment) for (const name of FIGURES) drawFigure(name, session.history);
    for (const name of FIGURES) stale[name] = false;
    draw();
  };
  /** Redraws on the next frame, however many reports arrive before it. */
  const soon = (/** @type {Partial<typeof stale>} */ changes = {}) => {
    for (const name of FIGURES) stale[name] ||= Boolean(changes[name]);
    if (!frame) frame = requestAnimationFrame(draw);
  };

  /**
   * Finds the place's run, or opens one for the settings; a run not started yet follows them.
   * The figure follows the run's reports from then on. The language model's first needs its
   * files: until they are in, the figure waits for them.
   * @param {Record<string, any>} state
   */
  const attach = (state) => {
    if (!parts || !experiment) return;
    const { seed, rate, error } = settings();
    if (error || seed.value === null || rate.value === null) return;
    if (experiment.kind === 'language-model' && !liveCorpus) {
      const waiting = parts;
      parts.reading.textContent = DOWNLOADING;
      fetchLiveCorpusOnce().then(
        (files) => {
          liveCorpus = files;
          loadError = '';
          if (parts === waiting) attach(state);
        },
        (failure) => {
          loadError = failure.message;
          if (parts === waiting) draw();
        },
      );
      return;
    }
    const key = JSON.stringify([seed.value, rate.value]);
    const spec = runSpec(
      experiment,
      { seed: seed.value, learningRate: rate.value, mapLength: mapLength(state) },
      liveCorpus ?? undefined,
    );
    let place = places.get(here);
    if (!place) {
      place = { session: openSession(spec), key };
      places.set(here, place);
    } else if (place.key !== key && place.session.history.steps === 0) {
      const status = place.session.history.status;
      if (status !== 'running') {
        place.session.configure(spec);
        place.key = key;
      }
    }
    if (session !== place.session) {
      unsubscribe();
      session = place.session;
      unsubscribe = session.subscribe(soon);
    }
    drawAll();
  };

  return formWidget({
    build(doc, props) {
      here = props.place && typeof props.place === 'object' ? props.place : {};
      experiment = EXPERIMENTS[props.experiment] ?? null;
      parts = experiment ? buildTrainingParts(doc, experiment) : null;
      return parts ?? { root: unknownLine(doc) };
    },
    fill(_parts, props, state) {
      if (!parts || !experiment) return;
      parts.seed.value = String(state.seed ?? props.seed ?? experiment.seed ?? DEFAULTS.seed);
      parts.rate.value = String(state.rate ?? props.rate ?? experiment.rate ?? DEFAULTS.rate);
      filled = { seed: parts.seed.value, rate: parts.rate.value };
      for (const input of parts.lengths) input.checked = Number(input.value) === mapLength(state);
    },
    // A setting goes into the state, and so into a link, once the learner changes it (or the
    // state came with it): the seed and the rate together once either box holds other than it
    // was filled with, the length once another is picked (the checked one is then not the one
    // the state names).
    read(_parts, state) {
      if (!parts) return;
      const edited = parts.seed.value !== filled.seed || parts.rate.value !== filled.rate;
      if (edited || Object.hasOwn(state, 'seed')) state.seed = parts.seed.value;
      if (edited || Object.hasOwn(state, 'rate')) state.rate = parts.rate.value;
      const chosen = parts.lengths.find((input) => input.checked);
      if (chosen && Number(chosen.value) !== mapLength(state)) state.length = Number(chosen.value);
    },
    // Takes up the place's run for the settings (opening it, or changing one not started yet)
    // and draws the figure from it.
    draw(_parts, _engine, state) {
      attach(state);
      draw();
    },
    wire(_parts, context) {
      if (!parts) return () => {};
      const shown = parts;
      const onLength = () => session?.setMapLength(mapLength(context.state()));
      const onGo = () => {
        if (!session) return;
        if (session.history.status === 'running') session.pause();
        else session.start();
      };
      const onReset = () => {
        session?.reset();
        drawAll();
      };
      for (const input of shown.lengths) input.addEventListener('change', onLength);
      shown.go.addEventListener('click', onGo);
      shown.reset.addEventListener('click', onReset);
      // Out of sight (in the article) the run pauses, and goes on when the figure is back.
      const visibility = pauseOutOfSight(shown.root, () => session);
      // The place's run, paused as its figure was taken down, resumes now that it is back.
      resumeOnReturn(places.get(here)?.session);
      return () => {
        visibility?.disconnect();
        unsubscribe();
        unsubscribe = () => {};
        // Leaving the figure pauses its run; coming back resumes it.
        pauseForReturn(session);
        session = null;
        for (const input of shown.lengths) input.removeEventListener('change', onLength);
        shown.go.removeEventListener('click', onGo);
        shown.reset.removeEventListener('click', onReset);
      };
    },
    clear() {
      if (frame) cancelAnimationFrame(frame);
      clearTimeout(timer);
      frame = 0;
      timer = 0;
      if (parts) clearFigures(parts);
      parts = null;
    },
  });
}

registerWidget('training', createTraining, { settings: SETTINGS });
