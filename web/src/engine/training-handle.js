// What every training facade does with the core's instance it wraps (wasm/bindings.cpp's
// Training, wasm/lm_training.cpp's LanguageModelTraining): each call goes through `live`, which
// refuses once the training is disposed; `step(n)` checks its count and trains; `steps()` counts
// the steps taken; `dispose()` frees the instance, once. The facades (training.js,
// lm-training.js) add what is their own.
import { requireIn, show } from './args.js';

/**
 * @typedef {object} TrainingHandle
 * @property {(what: string) => any} live the instance, for the call `what`; throws after dispose
 * @property {(n?: number) => Float32Array} step n steps (default 1) -> their losses
 * @property {() => number} steps the steps taken so far
 * @property {() => void} dispose frees the core's memory; any later call throws
 */

/**
 * @param {string} where the facade, for the messages ('training')
 * @param {any} instance the core's instance, with step(n), steps() and delete()
 * @param {readonly number[]} stepRange [low, high]: how many steps one call may take
 * @returns {TrainingHandle}
 */
export function trainingHandle(where, instance, stepRange) {
  /** @type {any} */
  let handle = instance;
  const live = (/** @type {string} */ what) => {
    if (!handle) throw new Error(`${where}: ${what} after dispose(); create a new training`);
    return handle;
  };
  return {
    live,
    step(n = 1) {
      requireIn(`${where}: step`, 'n', n, stepRange);
      return live('step').step(n);
    },
    steps: () => live('steps').steps(),
    dispose() {
      if (handle) handle.delete();
      handle = null;
    },
  };
}

/**
 * Throws unless `value` is a number for which `ok` holds.
 * @param {string} where
 * @param {string} name
 * @param {unknown} value
 * @param {(x: number) => boolean} ok
 * @param {string} range what it must be, in words ('a number > 0 and <= 1')
 */
export function requireNumberThat(where, name, value, ok, range) {
  if (typeof value !== 'number' || !ok(value)) {
    throw new Error(`${where}: ${name} must be ${range}, got ${show(value)}`);
  }
}

/**
 * Throws unless `seed` is a seed of the core's generator (attn::Rng): a whole number that fits
 * in 32 bits.
 * @param {string} where
 * @param {unknown} seed
 */
export function requireSeed(where, seed) {
  if (!Number.isInteger(seed) || Number(seed) < 0 || Number(seed) > 0xffffffff) {
    throw new Error(
      `${where}: seed must be a whole number from 0 to 4294967295, got ${show(seed)}`,
    );
  }
}
