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
import { setLine } from '../shared/line.js';
import { registerWidget, stateReporter } from '../shared/registry.js';
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

/** @returns {import('../shared/registry.js').Widget} */
function createTraining() {
  /** @type {import('./markup.js').TrainingParts | null} */
  let parts = null;
  /** @type {import('./experiments.js').Experiment | null} */
  let experiment = null;
  /** @type {Record<string, any>} */
  let state = {};
  let report = stateReporter({});
  /** The place this figure is shown in (props.place): its run is kept by it. */
  let here = {};
  /** @type {HTMLElement | null} */
  let host = null;
  /** @type {import('../../train/client.js').Session | null} */
  let session = null;
  let unsubscribe = () => {};
  let frame = 0;
  let timer = 0;
  /** @type {IntersectionObserver | null} */
  let visibility = null;
  /** Figures whose news are not drawn yet, and when each was last drawn. */
  const stale = { losses: true, evaluation: true, map: true };
  const drawnAt = { losses: -Infinity, evaluation: -Infinity, map: -Infinity };

  /** The settings in the boxes, each checked. */
  const settings = () => {
    const seed = parseSeed(/** @type {any} */ (parts).seed.value);
    const rate = parseRate(/** @type {any} */ (parts).rate.value);
    return { seed, rate, error: seed.error || rate.error };
  };
  const mapLength = () => {
    const asked = Number(state.length);
    return MAP_LENGTHS.includes(asked) ? asked : DEFAULT_MAP_LENGTH;
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
   * The language model's first needs its files: until they are in, the figure waits for them.
   */
  const attach = () => {
    if (!experiment) return;
    const { seed, rate, error } = settings();
    if (error || seed.value === null || rate.value === null) return;
    if (experiment.kind === 'language-model' && !liveCorpus) {
      const waitingFor = experiment;
      if (parts) parts.reading.textContent = DOWNLOADING;
      fetchLiveCorpusOnce().then(
        (files) => {
          liveCorpus = files;
          loadError = '';
          if (experiment === waitingFor) attach();
        },
        (failure) => {
          loadError = failure.message;
          if (experiment === waitingFor) draw();
        },
      );
      return;
    }
    const key = JSON.stringify([seed.value, rate.value]);
    const spec = runSpec(
      experiment,
      { seed: seed.value, learningRate: rate.value, mapLength: mapLength() },
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

  const onSettings = () => {
    if (!parts) return;
    state.seed = parts.seed.value;
    state.rate = parts.rate.value;
    report(state);
    attach();
    draw();
  };
  const onLength = () => {
    if (!parts) return;
    const chosen = parts.lengths.find((input) => input.checked);
    state.length = Number(chosen?.value ?? DEFAULT_MAP_LENGTH);
    report(state);
    session?.setMapLength(mapLength());
  };
  const onGo = () => {
    if (!session) return;
    if (session.history.status === 'running') session.pause();
    else session.start();
  };
  const onReset = () => {
    session?.reset();
    drawAll();
  };

  const mount = (/** @type {HTMLElement} */ el, /** @type {Record<string, any>} */ props) => {
    host = el;
    state = props.state ?? {};
    report = stateReporter(props);
    here = props.place && typeof props.place === 'object' ? props.place : {};
    experiment = EXPERIMENTS[props.experiment] ?? null;
    if (!experiment) {
      const line = el.ownerDocument.createElement('p');
      line.className = 'error widget-message';
      line.setAttribute('role', 'alert');
      line.textContent = UNKNOWN;
      el.replaceChildren(line);
      return;
    }
    parts = buildTrainingParts(el.ownerDocument, experiment);
    parts.seed.value = String(state.seed ?? props.seed ?? DEFAULTS.seed);
    parts.rate.value = String(state.rate ?? props.rate ?? experiment.rate ?? DEFAULTS.rate);
    for (const input of parts.lengths) input.checked = Number(input.value) === mapLength();
    el.replaceChildren(parts.root);
    parts.seed.addEventListener('input', onSettings);
    parts.rate.addEventListener('input', onSettings);
    for (const input of parts.lengths) input.addEventListener('change', onLength);
    parts.go.addEventListener('click', onGo);
    parts.reset.addEventListener('click', onReset);
    attach();
    watchVisibility([
      ...parts.root.querySelectorAll(':scope > .split-controls, :scope > .split-output'),
    ]);
    if (session?.resumeOnReturn) {
      session.resumeOnReturn = false;
      session.start();
    }
    drawAll();
  };

  // A figure scrolled out of sight (in the article) pauses its run and resumes it when it is
  // back, as leaving and coming back to a slide does. Out of sight: neither its controls nor its
  // output shows (the root itself has no box in the deck).
  const watchVisibility = (/** @type {HTMLElement[]} */ targets) => {
    if (typeof IntersectionObserver !== 'function') return;
    const showing = new Map(targets.map((target) => [target, true]));
    visibility = new IntersectionObserver((entries) => {
      for (const entry of entries) showing.set(entry.target, entry.isIntersecting);
      if (!session) return;
      const seen = [...showing.values()].some(Boolean);
      if (!seen && session.history.status === 'running') {
        session.pause();
        session.resumeOnReturn = true;
      } else if (seen && session.resumeOnReturn) {
        session.resumeOnReturn = false;
        session.start();
      }
    });
    for (const target of targets) visibility.observe(target);
  };

  const unmount = () => {
    visibility?.disconnect();
    visibility = null;
    if (frame) cancelAnimationFrame(frame);
    clearTimeout(timer);
    frame = 0;
    timer = 0;
    unsubscribe();
    unsubscribe = () => {};
    // Leaving the figure pauses its run; coming back resumes it.
    if (session && session.history.status === 'running') {
      session.pause();
      session.resumeOnReturn = true;
    }
    session = null;
    if (parts) {
      parts.seed.removeEventListener('input', onSettings);
      parts.rate.removeEventListener('input', onSettings);
      for (const input of parts.lengths) input.removeEventListener('change', onLength);
      parts.go.removeEventListener('click', onGo);
      parts.reset.removeEventListener('click', onReset);
      clearFigures(parts);
      parts.root.remove();
    }
    host?.replaceChildren();
    parts = null;
    experiment = null;
  };

  return {
    mount(el, props) {
      mount(el, props);
    },
    update(props) {
      const el = host;
      if (!el) return;
      unmount();
      mount(el, props);
    },
    destroy() {
      unmount();
      host = null;
    },
  };
}

registerWidget('training', createTraining, { settings: SETTINGS });
