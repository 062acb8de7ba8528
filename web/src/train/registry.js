// The worker's runs by id, and the loop that trains them: each turn gives one run with work a
// slice of about SLICE_MS (runs take turns), sends the reports that are due, and yields, so that a
// message from the page (pause, reset) is read within one slice. Nothing here touches postMessage
// or timers itself: the worker passes them in, and the tests drive it with the real engine.
import { createLanguageModelRun } from './lm-run.js';
import { createRun } from './run.js';
import { createSpeedRun } from './speed-run.js';

export const SLICE_MS = 25;

/**
 * @typedef {import('./run.js').Run | ReturnType<typeof createLanguageModelRun>
 *   | ReturnType<typeof createSpeedRun>} Run what every kind of run offers the loop
 */

/**
 * @typedef {import('./run.js').RunSpec | import('./lm-run.js').LanguageModelRunSpec
 *   | import('./speed-run.js').SpeedRunSpec} AnySpec what a run trains: a reversal task, the small
 *   language model, or the two translators timed step by step
 */

/**
 * @typedef {{ type: 'create', id: number, generation: number, spec: AnySpec }
 *   | { type: 'start' | 'pause' | 'dispose', id: number }
 *   | { type: 'map', id: number, length: number }} Command a message from the page
 */

/**
 * @typedef {{ type: 'progress', id: number, generation: number }
 *   & import('./run.js').Report} Progress a message to the page
 */

/**
 * @typedef {object} RegistryHooks
 * @property {import('../engine/index.js').Engine} engine
 * @property {(message: Progress) => void} post sends a message to the page
 * @property {() => number} clock milliseconds
 * @property {(next: () => void) => void} defer runs `next` soon, after pending messages
 * @property {() => void} [idle] called when the loop stops: no run has work left (each is ready,
 *   paused with its models measured, done or failed), every report is sent, and no run takes a
 *   step until the next command. The worker tells the page (`{ type: 'idle' }`), so that a test
 *   can wait for a pause to be final instead of watching the clock.
 * @property {number} [sliceMs]
 */

/**
 * @param {RegistryHooks} hooks
 */
export function createRegistry({ engine, post, clock, defer, idle, sliceMs = SLICE_MS }) {
  /** @type {Map<number, { run: Run, generation: number }>} */
  const runs = new Map();
  let scheduled = false;
  /** Where the next turn starts looking, so every busy run gets its turn. */
  let turn = 0;

  /**
   * Sends the run's report if one is due.
   * @param {number} id
   * @param {boolean} [force]
   */
  const flush = (id, force = false) => {
    const entry = runs.get(id);
    const report = entry?.run.report(clock, force);
    if (entry && report) post({ type: 'progress', id, generation: entry.generation, ...report });
  };

  const tick = () => {
    scheduled = false;
    const busy = [...runs.keys()].filter((id) => runs.get(id)?.run.busy());
    if (busy.length > 0) {
      const id = busy[turn++ % busy.length];
      runs.get(id)?.run.work(sliceMs, clock);
    }
    for (const id of runs.keys()) flush(id);
    if ([...runs.values()].some((entry) => entry.run.busy())) {
      wake();
      return;
    }
    for (const id of runs.keys()) flush(id, true);
    idle?.();
  };

  const wake = () => {
    if (scheduled) return;
    scheduled = true;
    defer(tick);
  };

  /**
   * Creates a run, replacing one with the same id.
   * @param {number} id
   * @param {number} generation
   * @param {AnySpec} spec
   */
  const create = (id, generation, spec) => {
    runs.get(id)?.run.dispose();
    runs.delete(id);
    try {
      const kind = 'kind' in spec ? spec.kind : 'reversal';
      const run =
        kind === 'language-model'
          ? createLanguageModelRun(
              engine,
              /** @type {import('./lm-run.js').LanguageModelRunSpec} */ (spec),
            )
          : kind === 'translator-speed'
            ? createSpeedRun(engine, /** @type {import('./speed-run.js').SpeedRunSpec} */ (spec))
            : createRun(engine, /** @type {import('./run.js').RunSpec} */ (spec));
      runs.set(id, { run, generation });
      flush(id, true);
      // A run with work before its start (a language model measures its heads at step 0).
      if (run.busy()) wake();
    } catch (caught) {
      const error = caught instanceof Error ? caught.message : String(caught);
      post({ ...failedReport(spec, error), type: 'progress', id, generation });
    }
  };

  return {
    /** @param {Command} command */
    handle(command) {
      const entry = runs.get(command.id);
      switch (command.type) {
        case 'create':
          create(command.id, command.generation, command.spec);
          return;
        case 'start':
          entry?.run.start();
          break;
        case 'pause':
          entry?.run.pause();
          break;
        case 'map':
          entry?.run.setMapLength(command.length);
          break;
        case 'dispose':
          entry?.run.dispose();
          runs.delete(command.id);
          return;
        default:
          return;
      }
      if (entry) flush(command.id, true);
      wake();
    },

    /** @returns {number} how many runs exist */
    size: () => runs.size,
  };
}

/**
 * The report of a run that could not even be created.
 * @param {AnySpec} spec
 * @param {string} error
 * @returns {import('./run.js').Report}
 */
function failedReport(spec, error) {
  return {
    status: 'failed',
    steps: 0,
    planned: spec.steps,
    evaluating: false,
    losses: (spec.models ?? []).map(() => new Float32Array(0)),
    stepsPerSecond: 0,
    evaluations: [],
    error,
  };
}
