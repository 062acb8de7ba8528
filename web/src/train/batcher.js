// Progress batching: the losses each model produced since the last report are gathered here, and
// a report is due at most every INTERVAL_MS (about ten a second), so the page redraws at a calm
// pace however many slices the worker runs in between. Something the learner must see at once (a
// pause taking effect, the end of the run, an error) forces a report.

export const INTERVAL_MS = 100;

/**
 * @typedef {object} Batcher
 * @property {(model: number, losses: ArrayLike<number>) => void} add losses of one model's steps
 * @property {(now: number) => boolean} due whether a report may go out now
 * @property {(now: number) => Float32Array[]} take the gathered losses, one array per model
 *   (possibly empty), and starts a new batch
 * @property {() => boolean} empty whether no loss is waiting
 * @property {() => void} clear drops what is waiting
 */

/**
 * @param {number} models how many models report losses
 * @param {number} [intervalMs] the least time between two reports
 * @returns {Batcher}
 */
export function createBatcher(models, intervalMs = INTERVAL_MS) {
  /** @type {number[][]} */
  let pending = Array.from({ length: models }, () => []);
  let last = -Infinity;
  return {
    add(model, losses) {
      const into = pending[model];
      for (let i = 0; i < losses.length; i++) into.push(losses[i]);
    },
    due: (now) => now - last >= intervalMs,
    take(now) {
      last = now;
      const out = pending.map((values) => Float32Array.from(values));
      pending = pending.map(() => []);
      return out;
    },
    empty: () => pending.every((values) => values.length === 0),
    clear() {
      pending = pending.map(() => []);
    },
  };
}
