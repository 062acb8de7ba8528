// One training run: one model or several trained side by side on the same task (the same number
// of steps each), up to a planned number of steps, with held-out evaluations along the way. The
// run never blocks for long: work(budget) does as much as fits in the budget (steps in chunks the
// slicer sizes, or one evaluation of one model at one length) and returns, so the worker can read
// its messages between slices. What happened since the last report comes out of report().
import { createBatcher } from './batcher.js';
import { createMeter } from './meter.js';
import { composeReport, reportDue } from './report.js';
import { createRunState, messageOf, nextStop, trainSlice } from './run-parts.js';
import { createSlicer } from './slicer.js';

const DIVERGED =
  'The loss is no longer a finite number: this learning rate is too large for the model. ' +
  'Reset, and train with a smaller one.';

/**
 * @typedef {object} RunSpec what to train and how to measure it
 * @property {{ options: import('../engine/index.js').TrainingOptions }[]} models trained side
 *   by side, each with its own options (and so its own seed, weights and batches)
 * @property {number} steps the planned total: training stops there
 * @property {number} evalEvery steps between evaluations (also on pause and at the end)
 * @property {number[]} lengths the input lengths each evaluation measures
 * @property {number} samples held-out sequences per length
 * @property {{ model: number, length: number, live?: boolean }} [map] the attention map of a
 *   sample input of `length` from model `model` (an attention model), reported with every
 *   evaluation, or with every report when `live`
 */

/**
 * @typedef {'ready' | 'running' | 'paused' | 'done' | 'failed'} RunStatus ready: not started yet
 */

/**
 * @typedef {object} Evaluation held-out accuracy of every model after `step` steps
 * @property {number} step
 * @property {number[]} lengths
 * @property {{ sequence: number[], symbol: number[] }[]} models per model, per length: the share
 *   of sequences reversed whole, and of symbols right
 */

/**
 * @typedef {object} Report what the page learns in one message
 * @property {RunStatus} status
 * @property {number} steps steps every model has taken
 * @property {number} planned
 * @property {boolean} evaluating an evaluation is under way
 * @property {Float32Array[]} losses per model, the losses of its steps since the last report
 * @property {number} stepsPerSecond over the last second or so of training, 0 when not running
 * @property {(Evaluation | import('./lm-run.js').HeadsEvaluation)[]} evaluations the evaluations
 *   finished since the last report, in order (a language-model run's measure its heads)
 * @property {(import('../engine/index.js').TrainingAttentionMap & { step: number })
 *   | import('./lm-run.js').ProbeMap} [map]
 * @property {string} [error] why the run failed, for the learner
 * @property {import('./speed-run.js').Timing} [timing] a speed run's step times so far
 */

/**
 * @typedef {{ kind: 'level', model: number } | { kind: 'evaluate', model: number, index: number }} Task
 */

/**
 * Creates the models of a run (not yet training).
 * @param {import('../engine/index.js').Engine} engine
 * @param {RunSpec} spec
 */
export function createRun(engine, spec) {
  const trainings = spec.models.map((model) => engine.createTraining(model.options));
  const slicers = trainings.map(() => createSlicer());
  const batcher = createBatcher(trainings.length);
  const meter = createMeter();
  const state = createRunState();
  /** @type {Task[]} */
  let tasks = [];
  /** @type {Evaluation | null} the evaluation being filled in */
  let measuring = null;
  /** @type {Evaluation[]} finished ones not yet reported */
  let finished = [];
  let evaluatedAt = 0;
  let mapLength = spec.map?.length ?? 0;
  /** The step and length of the last map reported, '' before the first. */
  let mapShown = '';

  const stepsOf = (/** @type {number} */ i) => trainings[i].steps;
  const level = () => Math.min(...trainings.map((_, i) => stepsOf(i)));
  const ahead = () => Math.max(...trainings.map((_, i) => stepsOf(i)));

  const fail = (/** @type {string} */ message) => {
    state.fail(message);
    tasks = [];
    measuring = null;
  };

  /** Brings every model to the same step, then measures them all. */
  const queueEvaluation = () => {
    const top = ahead();
    tasks = trainings.flatMap((_, model) =>
      stepsOf(model) < top ? [{ kind: 'level', model }] : [],
    );
    measuring = {
      step: top,
      lengths: [...spec.lengths],
      models: trainings.map(() => ({ sequence: [], symbol: [] })),
    };
    for (let model = 0; model < trainings.length; model++) {
      for (let index = 0; index < spec.lengths.length; index++) {
        tasks.push({ kind: 'evaluate', model, index });
      }
    }
  };

  /**
   * Steps model `i` by `k`, keeping its losses for the next report.
   * @param {number} i
   * @param {number} k
   * @param {() => number} clock
   * @returns {boolean} false when a loss is no longer finite (the run has failed)
   */
  const train = (i, k, clock) => {
    if (trainSlice(trainings[i], k, { slicer: slicers[i], batcher, model: i }, clock)) return true;
    fail(DIVERGED);
    return false;
  };

  /** @param {Task} task @param {() => number} clock */
  const runTask = (task, clock) => {
    if (task.kind === 'level') {
      const gap = ahead() - stepsOf(task.model);
      if (gap > 0) train(task.model, gap, clock);
      return;
    }
    const length = spec.lengths[task.index];
    const result = trainings[task.model].evaluate([length], spec.samples);
    const into = /** @type {Evaluation} */ (measuring).models[task.model];
    into.sequence[task.index] = result.sequenceAccuracy[0];
    into.symbol[task.index] = result.symbolAccuracy[0];
  };

  /** After the last task: the evaluation is ready, and a run at its planned end is done. */
  const closeEvaluation = () => {
    if (measuring) {
      finished.push(measuring);
      evaluatedAt = measuring.step;
    }
    measuring = null;
    if (level() >= spec.steps) state.finish();
  };

  return {
    /** @returns {RunStatus} */
    get status() {
      return state.status;
    },

    /** Steps every model has taken. */
    get steps() {
      return level();
    },

    start() {
      state.start();
    },

    /** Stops training; the steps since the last evaluation are evaluated (the models levelled). */
    pause() {
      if (!state.pause()) return;
      meter.clear();
      if (!measuring && ahead() > evaluatedAt) queueEvaluation();
    },

    /** @param {number} length the sample's length for the attention map */
    setMapLength(length) {
      if (!spec.map) return;
      mapLength = length;
      mapShown = '';
    },

    /** @returns {boolean} whether work() has something to do */
    busy() {
      return tasks.length > 0 || state.status === 'running';
    },

    /**
     * Trains or evaluates for about `budgetMs`; one unit of work may run past it.
     * @param {number} budgetMs
     * @param {() => number} clock milliseconds
     */
    work(budgetMs, clock) {
      const end = clock() + budgetMs;
      try {
        while (clock() < end) {
          if (tasks.length > 0) {
            runTask(/** @type {Task} */ (tasks.shift()), clock);
            if (tasks.length === 0 && state.status !== 'failed') closeEvaluation();
            continue;
          }
          if (state.status !== 'running') break;
          const now = level();
          if (now >= spec.steps) {
            // The end: measured there already (a pause just before it), or measure now.
            if (evaluatedAt >= now) {
              state.finish();
              break;
            }
            queueEvaluation();
            continue;
          }
          // The model that is behind takes the next chunk, up to the next evaluation or the end.
          const i = trainings.findIndex((_, j) => stepsOf(j) === now);
          const stop = nextStop(now, spec);
          if (!train(i, slicers[i].next(stop - now, end - clock()), clock)) break;
          meter.mark(clock(), level());
          if (level() === stop) queueEvaluation();
        }
      } catch (caught) {
        fail(messageOf(caught));
      }
    },

    /**
     * What happened since the last report, or null when nothing is due: at most one report per
     * batching interval, unless the status changed or `force` is set.
     * @param {() => number} clock
     * @param {boolean} [force]
     * @returns {Report | null}
     */
    report(clock, force = false) {
      const now = clock();
      const mapKey = `${level()}/${mapLength}`;
      const mapDue =
        spec.map !== undefined &&
        state.status !== 'failed' &&
        mapShown !== mapKey &&
        (spec.map.live === true || finished.length > 0 || mapShown === '');
      const pending = {
        changed: state.changed,
        batcher,
        evaluations: finished.length,
        map: mapDue,
      };
      if (!reportDue(pending, now, force)) return null;
      /** @type {Report['map']} */
      let map;
      if (mapDue && spec.map) {
        try {
          map = { ...trainings[spec.map.model].attentionMap(mapLength), step: level() };
          mapShown = mapKey;
        } catch (caught) {
          fail(messageOf(caught));
        }
      }
      const out = composeReport(
        {
          status: state.status,
          steps: level(),
          planned: spec.steps,
          evaluating: tasks.length > 0,
          batcher,
          meter,
          evaluations: finished,
          map,
          error: state.error,
        },
        now,
      );
      finished = [];
      state.reported();
      return out;
    },

    /** Frees the models. */
    dispose() {
      for (const training of trainings) training.dispose();
      tasks = [];
      measuring = null;
      state.dispose();
    },
  };
}

/** @typedef {ReturnType<typeof createRun>} Run */
