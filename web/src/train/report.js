// The report a run sends the page, one shape for every kind of run (run.js, lm-run.js): whether
// one is due now, and what it holds. The runs keep their own state; this only reads it.

/**
 * @typedef {object} Pending what a run has that the page has not seen
 * @property {boolean} changed the status changed
 * @property {import('./batcher.js').Batcher} batcher losses waiting
 * @property {number} evaluations finished evaluations waiting
 * @property {boolean} map an attention map is waiting (or due to be made)
 */

/**
 * Whether a report goes out now: only with news, and at most once per batching interval unless
 * the status changed or `force` is set.
 * @param {Pending} pending
 * @param {number} now milliseconds
 * @param {boolean} force
 */
export function reportDue(pending, now, force) {
  const { changed, batcher, evaluations, map } = pending;
  const news = changed || !batcher.empty() || evaluations > 0 || map;
  return news && (force || changed || batcher.due(now));
}

/**
 * The report, taking the waiting losses out of the batcher.
 * @param {object} run
 * @param {import('./run.js').RunStatus} run.status
 * @param {number} run.steps
 * @param {number} run.planned
 * @param {boolean} run.evaluating
 * @param {import('./batcher.js').Batcher} run.batcher
 * @param {import('./meter.js').Meter} run.meter
 * @param {import('./run.js').Report['evaluations']} run.evaluations
 * @param {import('./run.js').Report['map']} [run.map]
 * @param {string} run.error '' when there is none
 * @param {number} now milliseconds
 * @returns {import('./run.js').Report}
 */
export function composeReport(run, now) {
  /** @type {import('./run.js').Report} */
  const out = {
    status: run.status,
    steps: run.steps,
    planned: run.planned,
    evaluating: run.evaluating,
    losses: run.batcher.take(now),
    stepsPerSecond: run.status === 'running' ? run.meter.perSecond() : 0,
    evaluations: run.evaluations,
  };
  if (run.map) out.map = run.map;
  if (run.error) out.error = run.error;
  return out;
}
