// Times the engine's attention kernel in the page: for each sequence length n, random unit-normal
// Q, K and V of width d = 64, one untimed run (so memory and compiled code are in place), then
// several timed runs whose median is kept. Each run repeats the call until a few milliseconds have
// passed (a single small call is shorter than the browser's clock step) and divides. The work is
// cut into tasks, one run per task, so the page keeps answering while it measures.

/** The sequence lengths timed, in order. */
export const SIZES = [32, 64, 128, 256, 512, 1024];
/** The width of every query, key and value. */
export const WIDTH = 64;
/** Timed runs per length; the median is kept. */
export const REPEATS = 5;
/** The slope is fitted over the lengths from this one up, where the n^2 work dominates. */
export const FIT_FROM = 128;
/** A run repeats the call until at least this long has passed, in milliseconds. */
export const RUN_MS = 5;

/** @typedef {import('../../engine/index.js').Engine} Engine */
/** @typedef {import('../../engine/index.js').AttentionInput & { trace: false }} KernelInput */

/**
 * The arguments of one attention call at length n: Q, K, V (n, WIDTH) each, seeded unit normals,
 * and no trace (only weights and output are copied out).
 * @param {Pick<Engine, 'unitNormal'>} engine
 * @param {number} n
 * @returns {KernelInput}
 */
export function kernelInput(engine, n) {
  const [q, k, v] = [1, 2, 3].map((seed) => engine.unitNormal(n, WIDTH, seed));
  return { q, k, v, nq: n, nk: n, dk: WIDTH, dv: WIDTH, trace: false };
}

/**
 * One timed run: calls the kernel until RUN_MS have passed.
 * @param {Pick<Engine, 'attention'>} engine
 * @param {KernelInput} input
 * @param {() => number} clock milliseconds
 * @returns {number} milliseconds per call, > 0
 */
export function timeRun(engine, input, clock) {
  const start = clock();
  let calls = 0;
  let elapsed;
  do {
    engine.attention(input);
    calls++;
    elapsed = clock() - start;
  } while (elapsed < RUN_MS);
  return elapsed / calls;
}

/**
 * @typedef {object} MeasureHandlers
 * @property {(n: number, runs: number[]) => void} onLength after each length: its timed runs
 * @property {() => void} done after the last length
 * @property {(error: Error) => void} fail when the engine throws; nothing more is measured
 * @property {() => number} [clock] milliseconds; performance.now by default
 * @property {(task: () => void) => unknown} [defer] runs a task later; a 0 ms timeout by default
 * @property {(handle: unknown) => void} [cancel] cancels a deferred task
 */

/**
 * Measures every length in SIZES, one run per task.
 * @param {Pick<Engine, 'attention' | 'unitNormal'>} engine
 * @param {MeasureHandlers} handlers
 * @returns {() => void} stops the measurement; no handler is called after it
 */
export function measureLater(engine, handlers) {
  const clock = handlers.clock ?? (() => performance.now());
  const defer = handlers.defer ?? ((task) => setTimeout(task, 0));
  const cancel = handlers.cancel ?? ((handle) => clearTimeout(/** @type {any} */ (handle)));
  let index = 0;
  /** @type {KernelInput | null} */
  let input = null;
  /** @type {number[]} */
  let runs = [];
  let handle = null;
  let stopped = false;

  const step = () => {
    handle = null;
    if (stopped) return;
    const n = SIZES[index];
    try {
      if (!input) {
        input = kernelInput(engine, n);
        timeRun(engine, input, clock);
      } else {
        runs.push(timeRun(engine, input, clock));
      }
    } catch (error) {
      stopped = true;
      handlers.fail(error);
      return;
    }
    if (runs.length === REPEATS) {
      handlers.onLength(n, runs);
      index++;
      input = null;
      runs = [];
      if (index === SIZES.length) {
        stopped = true;
        handlers.done();
        return;
      }
    }
    handle = defer(step);
  };
  handle = defer(step);
  return () => {
    stopped = true;
    if (handle !== null) cancel(handle);
    handle = null;
  };
}
