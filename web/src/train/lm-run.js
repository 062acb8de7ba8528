// One live training run of the small language model (docs/language-model.md, "Training it live"):
// the same shape as a reversal run (run.js), so the registry, the client and the history treat
// both alike. work(budget) takes as many steps as fit in the budget, up to the next measurement;
// every `evalEvery` steps (and on pause, and at the end) every head is measured on held-out text
// and repeated random words, and the probe (a held-out phrase said twice) is drawn through every
// head. What happened since the last report comes out of report().
import { createBatcher } from './batcher.js';
import { createMeter } from './meter.js';
import { composeReport, reportDue } from './report.js';
import { createRunState, loadVectorsOnce, messageOf, nextStop, trainSlice } from './run-parts.js';
import { createSlicer } from './slicer.js';

const DIVERGED =
  'The loss is no longer a finite number, so training stopped. Reset to start again.';

/**
 * @typedef {object} LanguageModelRunSpec
 * @property {'language-model'} kind
 * @property {{ options: import('../engine/index.js').LanguageModelTrainingOptions }[]} models
 *   exactly one
 * @property {number} steps the planned total: training stops there
 * @property {number} evalEvery steps between measurements of the heads
 * @property {{ vectors: Uint8Array | null, train: Uint8Array, heldOut: Uint8Array }} data the
 *   page's word vectors (null: the ones an earlier run gave this engine, which keeps them) and the
 *   two corpus files (web/public/models/brown-live-*.bin)
 */

/**
 * @typedef {object} HeadsEvaluation every head's scores after `step` steps
 * @property {number} step
 * @property {import('../engine/index.js').MeasuredHead[]} heads layer-major
 */

/**
 * @typedef {object} ProbeMap the probe through every head after `step` steps
 * @property {number} step
 * @property {number} layers
 * @property {number} heads per layer
 * @property {(string | null)[]} words
 * @property {Float32Array} weights (layers * heads) blocks of (n, n), layer-major
 */

/**
 * Creates the model of a run (not yet training).
 * @param {import('../engine/index.js').Engine} engine
 * @param {LanguageModelRunSpec} spec
 */
export function createLanguageModelRun(engine, spec) {
  if (spec.models?.length !== 1) throw new Error('a language-model run trains one model');
  if (!spec.data) throw new Error('a language-model run needs its word vectors and corpus files');
  loadVectorsOnce(engine, spec.data.vectors, 'a language-model run');
  const training = engine.createLanguageModelTraining(
    spec.data.train,
    spec.data.heldOut,
    spec.models[0].options,
  );
  const { layers, heads } = training.options;
  const slicer = createSlicer();
  const batcher = createBatcher(1);
  const meter = createMeter();
  const state = createRunState();
  let measureDue = true; // step 0 is measured as soon as the worker has a turn, before Start
  /** @type {HeadsEvaluation[]} finished ones not yet reported */
  let finished = [];
  /** @type {ProbeMap | null} */
  let map = null;
  let measuredAt = -1;

  const fail = (/** @type {string} */ message) => {
    state.fail(message);
    measureDue = false;
  };

  const measure = () => {
    measureDue = false;
    const step = training.steps;
    if (step === measuredAt) return;
    measuredAt = step;
    finished.push({ step, heads: training.measure() });
    const probe = training.probe();
    map = { step, layers, heads, words: probe.words, weights: probe.weights };
    if (step >= spec.steps) state.finish();
  };

  return {
    get status() {
      return state.status;
    },

    get steps() {
      return training.steps;
    },

    start() {
      state.start();
    },

    pause() {
      if (!state.pause()) return;
      meter.clear();
      measureDue = training.steps > measuredAt;
    },

    setMapLength() {},

    busy() {
      return measureDue || state.status === 'running';
    },

    /**
     * Trains, or measures, for about `budgetMs`; one call of the core may run past it.
     * @param {number} budgetMs
     * @param {() => number} clock milliseconds
     */
    work(budgetMs, clock) {
      const end = clock() + budgetMs;
      try {
        while (clock() < end) {
          if (measureDue) {
            measure();
            continue;
          }
          if (state.status !== 'running') break;
          const now = training.steps;
          if (now >= spec.steps) {
            measureDue = true;
            continue;
          }
          const stop = nextStop(now, spec);
          const k = slicer.next(stop - now, end - clock());
          const finite = trainSlice(training, k, { slicer, batcher, model: 0 }, clock);
          meter.mark(clock(), training.steps);
          if (!finite) {
            fail(DIVERGED);
            break;
          }
          if (training.steps === stop) measureDue = true;
        }
      } catch (caught) {
        fail(messageOf(caught));
      }
    },

    /**
     * What happened since the last report, or null when nothing is due.
     * @param {() => number} clock
     * @param {boolean} [force]
     * @returns {import('./run.js').Report | null}
     */
    report(clock, force = false) {
      const now = clock();
      const pending = {
        changed: state.changed,
        batcher,
        evaluations: finished.length,
        map: map !== null,
      };
      if (!reportDue(pending, now, force)) return null;
      const out = composeReport(
        {
          status: state.status,
          steps: training.steps,
          planned: spec.steps,
          evaluating: measureDue,
          batcher,
          meter,
          evaluations: finished,
          map: map ?? undefined,
          error: state.error,
        },
        now,
      );
      finished = [];
      map = null;
      state.reported();
      return out;
    },

    dispose() {
      training.dispose();
      measureDue = false;
      state.dispose();
    },
  };
}
