// How many training steps fit in what is left of a slice of time: the first call takes one step
// (nothing is known yet), then the time per step measured so far decides. A slice that ran long
// (the machine was busy, the engine warmed up) pulls the estimate up at once; a fast one lowers it
// gradually, so one lucky slice does not make the next one overrun.

/** The most steps one call may take, however fast the model is. */
const MAX_STEPS = 500;
/** How much of a new, faster measurement the estimate takes in. */
const EASE = 0.3;

/**
 * @typedef {object} Slicer
 * @property {(limit: number, budgetMs: number) => number} next steps to take now: at least 1 and
 *   at most `limit` (the steps still wanted), sized to fit `budgetMs`
 * @property {(steps: number, ms: number) => void} record what a call of `steps` steps took
 * @property {() => number} msPerStep the estimate, 0 until something is recorded
 */

/** @returns {Slicer} */
export function createSlicer() {
  let msPerStep = 0;
  return {
    next(limit, budgetMs) {
      if (limit < 1) return 0;
      if (msPerStep <= 0) return 1;
      const fit = Math.floor(budgetMs / msPerStep);
      return Math.max(1, Math.min(limit, MAX_STEPS, fit));
    },
    record(steps, ms) {
      if (!(steps > 0) || !(ms >= 0)) return;
      const measured = ms / steps;
      msPerStep =
        msPerStep <= 0 || measured > msPerStep
          ? measured
          : msPerStep + EASE * (measured - msPerStep);
    },
    msPerStep: () => msPerStep,
  };
}
