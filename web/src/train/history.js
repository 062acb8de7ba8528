// What the page knows of one run, rebuilt from the worker's reports: every loss of every model,
// the evaluations, the latest attention map, the status. It outlives the figure that shows it, so
// a learner who leaves a slide and comes back finds the curves where they were.

/**
 * @typedef {object} History
 * @property {import('./run.js').RunStatus | 'starting'} status 'starting' until the worker has
 *   answered
 * @property {number} steps
 * @property {number} planned
 * @property {boolean} evaluating
 * @property {number} stepsPerSecond
 * @property {number[][]} losses per model, one loss per step
 * @property {import('./run.js').Report['evaluations']} evaluations in the order they were made
 * @property {NonNullable<import('./run.js').Report['map']> | null} map
 * @property {string} error
 * @property {import('./speed-run.js').Timing | null} timing a speed run's step times, as last
 *   reported
 */

/**
 * An empty history for a run of `models` models planned for `planned` steps.
 * @param {number} models
 * @param {number} planned
 * @returns {History}
 */
export function emptyHistory(models, planned) {
  return {
    status: 'starting',
    steps: 0,
    planned,
    evaluating: false,
    stepsPerSecond: 0,
    losses: Array.from({ length: models }, () => []),
    evaluations: [],
    map: null,
    error: '',
    timing: null,
  };
}

/**
 * Adds one report to the history.
 * @param {History} history changed in place
 * @param {import('./run.js').Report} report
 * @returns {{ losses: boolean, evaluation: boolean, map: boolean }} which figures have news
 */
export function applyReport(history, report) {
  history.status = report.status;
  history.steps = report.steps;
  history.planned = report.planned;
  history.evaluating = report.evaluating;
  history.stepsPerSecond = report.stepsPerSecond;
  history.error = report.error ?? '';
  let losses = false;
  report.losses.forEach((values, model) => {
    const into = history.losses[model];
    if (!into) return;
    for (let i = 0; i < values.length; i++) into.push(values[i]);
    losses ||= values.length > 0;
  });
  history.evaluations.push(...report.evaluations);
  if (report.map) history.map = report.map;
  if (report.timing) history.timing = report.timing;
  return { losses, evaluation: report.evaluations.length > 0, map: Boolean(report.map) };
}

/**
 * The loss curves for a chart: the mean loss of each model over consecutive buckets of `bucket`
 * steps, over the steps every model has taken (the last bucket may be partial).
 * losses: (models)(steps) -> x: (buckets), series: (models)(buckets)
 * @param {number[][]} losses per model, one loss per step
 * @param {number} bucket steps per point
 * @returns {{ x: number[], series: number[][] }} x: the last step of each bucket
 */
export function lossCurves(losses, bucket) {
  const steps = Math.min(...losses.map((values) => values.length));
  const x = [];
  for (let end = bucket; end < steps + bucket; end += bucket) x.push(Math.min(end, steps));
  const series = losses.map((values) =>
    x.map((end, b) => {
      const start = b * bucket;
      let sum = 0;
      for (let i = start; i < end; i++) sum += values[i];
      return sum / (end - start);
    }),
  );
  return { x: steps > 0 ? x : [], series: steps > 0 ? series : losses.map(() => []) };
}
