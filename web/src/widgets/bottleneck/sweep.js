// The engine's bottleneck experiment at every count the chart shows (N = 1, 2, 4, … 256), for one
// memory width and seed. Each count is computed in a task of its own, so the page stays
// responsive, and kept: for a seed the engine always gives the same numbers, and a count's numbers
// do not depend on the other counts asked for, so counts computed one at a time draw the same
// curve as one call for all of them.

/** N, the numbers of facts stored: the powers of two from 1 to 256. */
export const COUNTS = Array.from({ length: 9 }, (_, i) => 2 ** i);
/** The memory widths on offer. */
export const WIDTHS = [32, 64, 128, 256];
/** M: every fact's value is one of this many random vectors. */
export const CODEBOOK = 16;
/** Fresh facts per count; N × TRIALS reads make each accuracy. */
export const TRIALS = 4;

/**
 * @typedef {object} Run the experiment at every count, for one width and seed
 * @property {number[]} counts N
 * @property {number[]} fixedVector (counts) share of facts read back exactly from one vector
 * @property {number[]} attention (counts) share read back exactly by attention
 */

/** @type {WeakMap<object, Map<string, { fixed: number, attention: number }>>} */
const caches = new WeakMap();

/**
 * @param {object} engine
 * @returns {Map<string, { fixed: number, attention: number }>}
 */
function cacheOf(engine) {
  let cache = caches.get(engine);
  if (!cache) caches.set(engine, (cache = new Map()));
  return cache;
}

/** @type {(width: number, seed: number, n: number) => string} */
const keyOf = (width, seed, n) => `${width}/${seed}/${n}`;

/**
 * One count, computed now unless it already was.
 * @param {{ bottleneckExperiment: Function }} engine
 * @param {number} width
 * @param {number} seed
 * @param {number} n
 */
function countAt(engine, width, seed, n) {
  const cache = cacheOf(engine);
  const key = keyOf(width, seed, n);
  if (!cache.has(key)) {
    const result = engine.bottleneckExperiment({
      counts: [n],
      width,
      codebook: CODEBOOK,
      trials: TRIALS,
      seed,
    });
    cache.set(key, { fixed: result.fixedVector[0], attention: result.attention[0] });
  }
  return cache.get(key);
}

/**
 * The run for a width and seed if every count is computed, else null.
 * @param {object} engine
 * @param {number} width
 * @param {number} seed
 * @returns {Run | null}
 */
export function finishedRun(engine, width, seed) {
  const cache = cacheOf(engine);
  const found = COUNTS.map((n) => cache.get(keyOf(width, seed, n)));
  if (found.some((entry) => entry === undefined)) return null;
  return {
    counts: COUNTS,
    fixedVector: found.map((entry) => entry.fixed),
    attention: found.map((entry) => entry.attention),
  };
}

/**
 * Computes the missing counts one per task, then calls done with the whole run.
 * @param {{ bottleneckExperiment: Function }} engine
 * @param {number} width
 * @param {number} seed
 * @param {(run: Run) => void} done
 * @param {(error: Error) => void} fail
 * @returns {() => void} stops the run (done is then never called)
 */
export function runLater(engine, width, seed, done, fail) {
  let timer = 0;
  const step = () => {
    const missing = COUNTS.find((n) => !cacheOf(engine).has(keyOf(width, seed, n)));
    if (missing === undefined) {
      done(finishedRun(engine, width, seed));
      return;
    }
    try {
      countAt(engine, width, seed, missing);
    } catch (error) {
      fail(error);
      return;
    }
    timer = setTimeout(step, 0);
  };
  timer = setTimeout(step, 0);
  return () => clearTimeout(timer);
}
