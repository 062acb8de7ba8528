// What every kind of run (run.js, lm-run.js, speed-run.js) does the same way: its status and
// whether the page has heard of its last change, the step it trains up to next, one slice of
// training, timed for the slicer and its losses kept for the next report, and the word vectors
// the worker's engine holds for the runs that read them.

/**
 * @typedef {object} RunState
 * @property {import('./run.js').RunStatus} status
 * @property {boolean} changed the status changed since the last report
 * @property {string} error why the run failed, for the learner ('' when it has not)
 * @property {() => void} start a run that is ready or paused runs
 * @property {() => boolean} pause a running run pauses; false when it was not running
 * @property {(message: string) => void} fail the run fails, saying why
 * @property {() => void} finish a running run is done (at its planned end)
 * @property {() => void} reported the page has heard of the status
 * @property {() => void} dispose the run's models are freed: paused, with nothing to report
 */

/** @returns {RunState} a run's state, ready until started */
export function createRunState() {
  /** @type {import('./run.js').RunStatus} */
  let status = 'ready';
  let changed = true;
  let error = '';
  /** @param {import('./run.js').RunStatus} next */
  const become = (next) => {
    status = next;
    changed = true;
  };
  return {
    get status() {
      return status;
    },
    get changed() {
      return changed;
    },
    get error() {
      return error;
    },
    start() {
      if (status === 'ready' || status === 'paused') become('running');
    },
    pause() {
      if (status !== 'running') return false;
      become('paused');
      return true;
    },
    fail(message) {
      become('failed');
      error = message;
    },
    finish() {
      if (status === 'running') become('done');
    },
    reported() {
      changed = false;
    },
    dispose() {
      status = 'paused';
    },
  };
}

/**
 * The step a run trains up to next: its next evaluation, or its planned end.
 * @param {number} now the steps taken
 * @param {{ steps: number, evalEvery: number }} spec
 */
export function nextStop(now, spec) {
  return Math.min(spec.steps, (Math.floor(now / spec.evalEvery) + 1) * spec.evalEvery);
}

/**
 * Trains `training` by `k` steps, timing the call for its slicer and keeping the losses in the
 * batcher as model `model`'s.
 * @param {{ step(n: number): Float32Array }} training
 * @param {number} k
 * @param {{ slicer: import('./slicer.js').Slicer, batcher: import('./batcher.js').Batcher,
 *   model: number }} into
 * @param {() => number} clock milliseconds
 * @returns {boolean} whether every loss is still a finite number
 */
export function trainSlice(training, k, { slicer, batcher, model }, clock) {
  const start = clock();
  const losses = training.step(k);
  slicer.record(k, clock() - start);
  batcher.add(model, losses);
  return losses.every(Number.isFinite);
}

/** The engines holding word vectors an earlier run loaded: a later run may leave them out. */
const withVectors = new WeakSet();

/**
 * Loads the page's word vectors into the worker's engine for a run that needs them, or, when
 * the run sends none (null: the page sent them with an earlier run), checks that an earlier run
 * did.
 * @param {import('../engine/index.js').Engine} engine
 * @param {Uint8Array | null} vectors
 * @param {string} run the kind of run, for the message ('a language-model run')
 */
export function loadVectorsOnce(engine, vectors, run) {
  if (vectors !== null) {
    engine.loadEmbeddings(vectors);
    withVectors.add(engine);
  } else if (!withVectors.has(engine)) {
    throw new Error(`${run} needs the word vectors: no earlier run gave them`);
  }
}

/**
 * @param {unknown} caught what a run's work threw
 * @returns {string} its message, for the learner
 */
export function messageOf(caught) {
  return caught instanceof Error ? caught.message : String(caught);
}
