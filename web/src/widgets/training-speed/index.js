// The `training-speed` widget (lesson 2's recurrence slide): times one training step of lesson
// 1's attention translator and of the Transformer, at the sizes of the page's trained models and
// from a seed, on the same 64 sentence pairs, in the page's training worker (web/src/train/,
// speed-run.js), and shows each model's steps per second as bars with the batch and the sizes
// named. It has no settings of its own. The run belongs to the place (props.place), so it
// outlives the figure: taken down or scrolled out of sight while timing, it stops, and goes on
// when the figure is back.
import './style.css';
import { fetchTimingDataOnce } from '../../text/timing-pairs.js';
import { openSession } from '../../train/client.js';
import { TIMED } from '../../train/speed-run.js';
import { formWidget } from '../shared/form-widget.js';
import { setLine } from '../shared/line.js';
import { registerWidget } from '../shared/registry.js';
import { pauseForReturn, pauseOutOfSight, resumeOnReturn } from '../shared/run-in-sight.js';
import { clearFigures, drawBars, drawControls } from './figures.js';
import { SETTINGS } from './link-settings.js';
import { buildSpeedParts } from './markup.js';

/** Steps of each model before the run stops by itself. */
export const PLANNED_STEPS = 50;
/** The seed both models are built from. */
export const SEED = 1;
const DOWNLOADING = 'Downloading the sentence pairs and the word vectors\u2026';
/** The least time between two redraws of the bars, in ms. */
const BARS_MS = 300;

/**
 * The run shown at each place, by the object that stands for the place (props.place).
 * @type {WeakMap<object, import('../../train/client.js').Session>}
 */
const places = new WeakMap();

/** The files, once downloaded (web/src/text/timing-pairs.js). */
/** @type {import('../../text/timing-pairs.js').TimingData | null} */
let data = null;
/** Why they could not be downloaded, for the learner ('' while nothing failed). */
let loadError = '';

/**
 * The run the worker times.
 * @param {import('../../text/timing-pairs.js').TimingData} files
 * @returns {import('../../train/speed-run.js').SpeedRunSpec}
 */
export function speedSpec(files) {
  return {
    kind: 'translator-speed',
    models: TIMED.map((model) => ({ model })),
    steps: PLANNED_STEPS,
    seed: SEED,
    data: files,
  };
}

/** @returns {import('../shared/registry.js').Widget} */
function createTrainingSpeed() {
  /** @type {import('./markup.js').SpeedParts | null} */
  let parts = null;
  let here = {};
  /** @type {import('../../train/client.js').Session | null} */
  let session = null;
  let unsubscribe = () => {};
  let frame = 0;
  let timer = 0;
  let barsAt = -Infinity;

  const draw = () => {
    frame = 0;
    if (!parts) return;
    const history = session?.history ?? null;
    drawControls(parts, history);
    if (!session) setLine(parts.status, loadError ? '' : DOWNLOADING);
    setLine(parts.error, history?.error || loadError);
    const now = performance.now();
    if (now - barsAt >= BARS_MS) {
      drawBars(parts, history);
      barsAt = now;
    } else if (!timer) {
      timer = window.setTimeout(() => {
        timer = 0;
        soon();
      }, BARS_MS);
    }
  };
  const soon = () => {
    if (!frame) frame = requestAnimationFrame(draw);
  };

  /** Takes up the place's run, opening it once the files are in. */
  const attach = () => {
    if (!parts) return;
    if (!data) {
      const waiting = parts;
      draw();
      fetchTimingDataOnce().then(
        (files) => {
          data = files;
          loadError = '';
          if (parts === waiting) attach();
        },
        (failure) => {
          loadError = failure.message;
          if (parts === waiting) draw();
        },
      );
      return;
    }
    let place = places.get(here);
    if (!place) {
      place = openSession(speedSpec(data));
      places.set(here, place);
    }
    if (session !== place) {
      unsubscribe();
      session = place;
      unsubscribe = session.subscribe(soon);
    }
    barsAt = -Infinity;
    draw();
  };

  return formWidget({
    build(doc, props) {
      here = props.place && typeof props.place === 'object' ? props.place : {};
      parts = buildSpeedParts(doc);
      return parts;
    },
    draw() {
      if (!session) attach();
      else draw();
    },
    wire() {
      if (!parts) return () => {};
      const shown = parts;
      const onGo = () => {
        if (!session) return;
        if (session.history.status === 'running') session.pause();
        else session.start();
      };
      shown.go.addEventListener('click', onGo);
      // Out of sight (in the article) the run stops, and goes on when the figure is back.
      const visibility = pauseOutOfSight(shown.root, () => session);
      // The place's run, stopped as its figure was taken down, goes on now that it is back.
      resumeOnReturn(places.get(here));
      return () => {
        visibility?.disconnect();
        unsubscribe();
        unsubscribe = () => {};
        pauseForReturn(session);
        session = null;
        shown.go.removeEventListener('click', onGo);
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

registerWidget('training-speed', createTrainingSpeed, { settings: SETTINGS });
