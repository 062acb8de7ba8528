// The "why scale" experiment at every key width the widget offers (dₖ = 1, 2, 4, … 1024), kept
// once computed: for a seed the engine always gives the same numbers, so no width is computed
// twice. The whole sweep runs a width at a time between other work, widest last.

/** The widths the slider steps through: the powers of two from 1 to 1024. */
export const WIDTHS = Array.from({ length: 11 }, (_, i) => 2 ** i);
/** Dot products drawn per width for the histogram. */
export const SAMPLES = 2000;
/** Softmaxes averaged per width, each of one query over KEYS keys (the engine's defaults). */
export const TRIALS = 200;
export const KEYS = 16;

/** @type {WeakMap<object, Map<number, import('../../engine/index.js').ScalingResult>>} */
const caches = new WeakMap();

/**
 * @param {object} engine
 * @returns {Map<number, import('../../engine/index.js').ScalingResult>}
 */
function cacheOf(engine) {
  let cache = caches.get(engine);
  if (!cache) caches.set(engine, (cache = new Map()));
  return cache;
}

/**
 * The experiment at one width, computed now unless it already was.
 * @param {{ scalingExperiment: Function }} engine
 * @param {number} dk
 * @returns {import('../../engine/index.js').ScalingResult}
 */
export function experimentAt(engine, dk) {
  const cache = cacheOf(engine);
  if (!cache.has(dk))
    cache.set(dk, engine.scalingExperiment({ dk, samples: SAMPLES, keys: KEYS, trials: TRIALS }));
  return cache.get(dk);
}

/**
 * The experiment at every width if all are computed, else null.
 * @param {object} engine
 * @returns {import('../../engine/index.js').ScalingResult[] | null}
 */
export function finishedSweep(engine) {
  const cache = cacheOf(engine);
  return WIDTHS.every((dk) => cache.has(dk)) ? WIDTHS.map((dk) => cache.get(dk)) : null;
}

/**
 * Computes the missing widths one per task, so the page stays responsive, then calls done.
 * @param {{ scalingExperiment: Function }} engine
 * @param {(results: import('../../engine/index.js').ScalingResult[]) => void} done
 * @param {(error: Error) => void} fail
 * @returns {() => void} stops the sweep
 */
export function sweepLater(engine, done, fail) {
  let timer = 0;
  const step = () => {
    const missing = WIDTHS.find((dk) => !cacheOf(engine).has(dk));
    if (missing === undefined) {
      done(finishedSweep(engine));
      return;
    }
    try {
      experimentAt(engine, missing);
    } catch (error) {
      fail(error);
      return;
    }
    timer = setTimeout(step, 0);
  };
  timer = setTimeout(step, 0);
  return () => clearTimeout(timer);
}
