// One run that times training (lesson 2's recurrence slide): lesson 1's attention translator and
// the Transformer, at their committed sizes, from a seed, each trained one step at a time on the
// same batch of sentence pairs (engine.createTranslatorTiming). The two take turns, a step each,
// so both see the same load; each step's wall time is measured here, around the engine's call,
// and the report carries each model's median over its steps so far. The same shape as the other
// runs (run.js, lm-run.js), so the registry, the client and the history treat it alike.
import { createBatcher } from './batcher.js';
import { createMeter } from './meter.js';
import { composeReport, reportDue } from './report.js';
import { createRunState, loadVectorsOnce, messageOf } from './run-parts.js';

const DIVERGED =
  'A loss is no longer a finite number, so timing stopped. Reload the page to start again.';

/** The models, in the order of the report's arrays. */
export const TIMED = /** @type {const} */ (['attention', 'transformer']);

/**
 * @typedef {object} SpeedRunSpec
 * @property {'translator-speed'} kind
 * @property {{ model: 'attention' | 'transformer' }[]} models exactly TIMED, in its order
 * @property {number} steps the planned steps of each model: timing stops there
 * @property {number} seed both models' initial weights
 * @property {{ vectors: Uint8Array | null, pairs: Uint8Array }} data the page's word vectors (null:
 *   the ones an earlier run gave this engine) and the batch (web/public/models/translation-timing.bin)
 */

/**
 * @typedef {object} ModelTiming one model's steps so far
 * @property {number} steps
 * @property {number} medianMs the median wall time of its steps, 0 before the first
 * @property {number} parameters
 */

/**
 * @typedef {object} Timing what a speed run reports besides the losses
 * @property {number} pairs in the batch
 * @property {number} englishTokens of the batch
 * @property {number} germanTokens of the batch
 * @property {ModelTiming[]} models in the order of TIMED
 * @property {{ dModel: number, heads: number, encoderLayers: number, decoderLayers: number,
 *   dMlp: number }} transformer its sizes
 */

/**
 * The median of the values (the mean of the middle two for an even count), 0 for none.
 * @param {number[]} values
 */
export function median(values) {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/**
 * Creates the two models of a run (not yet training).
 * @param {import('../engine/index.js').Engine} engine
 * @param {SpeedRunSpec} spec
 */
export function createSpeedRun(engine, spec) {
  const names = (spec.models ?? []).map((entry) => entry.model);
  if (names.join() !== TIMED.join()) {
    throw new Error(`a translator-speed run times ${TIMED.join(' and ')}, in that order`);
  }
  if (!spec.data) throw new Error('a translator-speed run needs its word vectors and pairs');
  loadVectorsOnce(engine, spec.data.vectors, 'a translator-speed run');
  const timing = engine.createTranslatorTiming(spec.data.pairs, { seed: spec.seed });
  const { info } = timing;
  const batcher = createBatcher(TIMED.length);
  const meter = createMeter();
  const state = createRunState();
  /** @type {number[][]} each model's step times, in ms */
  const times = TIMED.map(() => []);
  let timed = false;

  const stepsOf = (/** @type {number} */ i) => times[i].length;
  const level = () => Math.min(...TIMED.map((_, i) => stepsOf(i)));

  /** @returns {Timing} */
  const timingNow = () => ({
    pairs: info.pairs,
    englishTokens: info.englishTokens,
    germanTokens: info.germanTokens,
    models: TIMED.map((name, i) => ({
      steps: stepsOf(i),
      medianMs: median(times[i]),
      parameters: info[name].parameters,
    })),
    transformer: {
      dModel: info.transformer.dModel,
      heads: info.transformer.heads,
      encoderLayers: info.transformer.encoderLayers,
      decoderLayers: info.transformer.decoderLayers,
      dMlp: info.transformer.dMlp,
    },
  });

  return {
    get status() {
      return state.status;
    },

    get steps() {
      return level();
    },

    start() {
      state.start();
    },

    pause() {
      if (state.pause()) meter.clear();
    },

    setMapLength() {},

    busy() {
      return state.status === 'running';
    },

    /**
     * Times steps for about `budgetMs`: one step of the model that is behind at a time (a step
     * takes longer than a slice, so each call takes one, and the two models alternate).
     * @param {number} budgetMs
     * @param {() => number} clock milliseconds
     */
    work(budgetMs, clock) {
      const end = clock() + budgetMs;
      try {
        while (clock() < end && state.status === 'running') {
          if (level() >= spec.steps) {
            state.finish();
            break;
          }
          const i = stepsOf(0) <= stepsOf(1) ? 0 : 1;
          const start = clock();
          const loss = timing.step(TIMED[i]);
          times[i].push(clock() - start);
          timed = true;
          batcher.add(i, [loss]);
          meter.mark(clock(), level());
          if (!Number.isFinite(loss)) {
            state.fail(DIVERGED);
            break;
          }
        }
      } catch (caught) {
        state.fail(messageOf(caught));
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
      const pending = { changed: state.changed, batcher, evaluations: 0, map: timed };
      if (!reportDue(pending, now, force)) return null;
      const out = composeReport(
        {
          status: state.status,
          steps: level(),
          planned: spec.steps,
          evaluating: false,
          batcher,
          meter,
          evaluations: [],
          error: state.error,
        },
        now,
      );
      out.timing = timingNow();
      timed = false;
      state.reported();
      return out;
    },

    dispose() {
      timing.dispose();
      state.dispose();
    },
  };
}
