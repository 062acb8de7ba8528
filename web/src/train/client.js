// The page's side of training: one worker for the whole page (worker.js), started when the first
// run is opened, and one session per run that figures hold on to. A session sends the learner's
// commands to the worker and keeps the run's history (history.js) from its reports, so the curves
// survive the figure being taken down and put up again. If the worker cannot start, every session
// says so in words meant for the learner; nothing is logged.
import { applyReport, emptyHistory } from './history.js';
import { startTrainingWorker } from './start-worker.js';

export const UNAVAILABLE =
  'Training could not start in this browser, so this figure cannot train. The other figures ' +
  'still work; reload the page to try again.';

/** @type {Worker | null} */
let worker = null;
/** Why training cannot run on this page, once that is known. */
let broken = '';
/**
 * @typedef {Session & { receive(message: any): void, fail(message: string): void }} Live a
 *   session as this module sees it
 */

/** The word vectors the worker holds (a language-model run sent them), or null. */
let vectorsInWorker = /** @type {Uint8Array | null} */ (null);
/** @type {Map<number, Live>} */
const sessions = new Map();
let nextId = 1;

/**
 * @typedef {object} Changes what a report brought
 * @property {boolean} losses
 * @property {boolean} evaluation
 * @property {boolean} map
 */

/**
 * @typedef {object} Session
 * @property {import('./history.js').History} history
 * @property {(spec: import('./registry.js').AnySpec) => void} configure replaces the run with a new
 *   one (its history starts empty)
 * @property {() => void} start starts or resumes training
 * @property {() => void} pause
 * @property {() => void} reset back to step 0 with the same models and settings
 * @property {(length: number) => void} setMapLength the sample's length for the attention map
 * @property {(listener: (changes: Changes) => void) => () => void} subscribe called after each
 *   report; returns what unsubscribes
 * @property {boolean} resumeOnReturn set by a figure that paused the run as it was taken down
 * @property {() => void} dispose ends the run
 */

/**
 * Opens a session for a run of `spec` (the run is created in the worker at once).
 * @param {import('./registry.js').AnySpec} initial
 * @returns {Session}
 */
export function openSession(initial) {
  const id = nextId++;
  let spec = initial;
  let generation = 0;
  /** What the learner last asked for: a report sent before the command arrived says otherwise. */
  let intent = 'pause';
  /** @type {Set<(changes: Changes) => void>} */
  const listeners = new Set();
  const notify = (/** @type {Changes} */ changes) => {
    for (const listener of listeners) listener(changes);
  };
  const send = (/** @type {import('./registry.js').Command} */ command) =>
    workerOrNull()?.postMessage(command);

  /** @type {Live} */
  const session = {
    history: emptyHistory(spec.models.length, spec.steps),
    resumeOnReturn: false,

    configure(next) {
      spec = next;
      generation += 1;
      intent = 'pause';
      session.history = emptyHistory(spec.models.length, spec.steps);
      if (broken) session.fail(broken);
      else send({ type: 'create', id, generation, spec: forWorker(spec) });
      notify({ losses: true, evaluation: true, map: true });
    },
    start() {
      if (!['ready', 'paused'].includes(session.history.status)) return;
      intent = 'run';
      session.history.status = 'running';
      send({ type: 'start', id });
      notify({ losses: false, evaluation: false, map: false });
    },
    pause() {
      if (session.history.status !== 'running') return;
      intent = 'pause';
      session.history.status = 'paused';
      send({ type: 'pause', id });
      notify({ losses: false, evaluation: false, map: false });
    },
    reset() {
      session.resumeOnReturn = false;
      session.configure(spec);
    },
    setMapLength(length) {
      if (!spec.map) return;
      spec = { ...spec, map: { ...spec.map, length } };
      send({ type: 'map', id, length });
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    dispose() {
      send({ type: 'dispose', id });
      sessions.delete(id);
      listeners.clear();
    },

    receive(message) {
      if (message.generation !== generation) return;
      const report = { ...message };
      // The learner's last command wins over a report that crossed it on the way.
      if (intent === 'pause' && report.status === 'running') report.status = 'paused';
      if (intent === 'run' && (report.status === 'ready' || report.status === 'paused')) {
        report.status = 'running';
      }
      notify(applyReport(session.history, report));
    },
    fail(message) {
      session.history.status = 'failed';
      session.history.error = message;
      notify({ losses: false, evaluation: false, map: false });
    },
  };
  sessions.set(id, session);
  session.configure(spec);
  return session;
}

/**
 * The spec as the worker gets it: the word vectors of a language-model or speed run (2.2 MB,
 * copied into the message and read by the engine) go once; later runs with the same bytes send
 * null, and the worker keeps what it has (run-parts.js, loadVectorsOnce).
 * @param {import('./registry.js').AnySpec} spec
 * @returns {import('./registry.js').AnySpec}
 */
function forWorker(spec) {
  if (!('kind' in spec)) return spec;
  if (spec.data.vectors !== vectorsInWorker) {
    vectorsInWorker = spec.data.vectors;
    return spec;
  }
  return { ...spec, data: { ...spec.data, vectors: null } };
}

/** @returns {Worker | null} the page's worker, started on first use; null if it cannot run */
function workerOrNull() {
  if (worker || broken) return worker;
  try {
    worker = startTrainingWorker();
  } catch {
    stop(UNAVAILABLE);
    return null;
  }
  worker.addEventListener('message', (event) => {
    const data = event.data;
    if (data?.type === 'progress') sessions.get(data.id)?.receive(data);
    else if (data?.type === 'failed') stop(UNAVAILABLE);
  });
  worker.addEventListener('error', (event) => {
    event.preventDefault();
    stop(UNAVAILABLE);
  });
  return worker;
}

/**
 * Gives up on training for this page: every session shows the message.
 * @param {string} message
 */
function stop(message) {
  broken = message;
  worker?.terminate();
  worker = null;
  vectorsInWorker = null;
  for (const session of sessions.values()) session.fail(message);
}
