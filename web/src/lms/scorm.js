// SCORM 1.2 reporting for the deck when an LMS launches it: finds the LMS's API object in the
// windows around the page, then tells it the lesson's status, the knowledge check's score and
// one interaction per answer. Without an API (the lesson opened on its own) nothing here runs,
// so nothing is stored or sent. The LMS is never trusted to behave: every call is guarded, and a
// failing or throwing LMS only makes reporting stop quietly, never the lesson. docs/lms.md says
// what is reported and when.

/**
 * The SCORM 1.2 run-time API (the LMS's `window.API`): every call takes and returns strings.
 * @typedef {{ LMSInitialize(arg: string): string, LMSFinish(arg: string): string,
 *   LMSGetValue(element: string): string, LMSSetValue(element: string, value: string): string,
 *   LMSCommit(arg: string): string, LMSGetLastError(): string }} ScormApi
 */

/**
 * One answer given in the knowledge check.
 * @typedef {import('../quiz/answer.js').AnswerDetail} Answer
 */

/**
 * How many parent windows are searched, then as many of the opener's: LMS players nest the
 * content a few frames deep; the bound keeps a strange window chain from looping.
 */
export const MAX_DEPTH = 10;

/** Statuses a learner has finished with: reporting never turns them back into 'incomplete'. */
const FINISHED = new Set(['completed', 'passed', 'failed']);

/**
 * Reads a property of a window that may belong to another origin, whose properties throw a
 * SecurityError: such a window counts as having nothing.
 * @param {any} win
 * @param {string} name
 * @returns {any}
 */
function read(win, name) {
  try {
    return win?.[name] ?? null;
  } catch {
    return null;
  }
}

/**
 * @param {any} candidate
 * @returns {candidate is ScormApi}
 */
function isApi(candidate) {
  return (
    candidate !== null &&
    typeof candidate === 'object' &&
    ['LMSInitialize', 'LMSFinish', 'LMSGetValue', 'LMSSetValue', 'LMSCommit'].every(
      (name) => typeof read(candidate, name) === 'function',
    )
  );
}

/**
 * The API in `start` or one of its parents, at most MAX_DEPTH steps up.
 * @param {any} start
 * @returns {ScormApi | null}
 */
function searchUp(start) {
  let win = start;
  for (let depth = 0; win && depth <= MAX_DEPTH; depth += 1) {
    const api = read(win, 'API');
    if (isApi(api)) return api;
    const parent = read(win, 'parent');
    if (!parent || parent === win) return null;
    win = parent;
  }
  return null;
}

/**
 * Finds the SCORM 1.2 API the standard way: in this window and its parents (an LMS that frames
 * the lesson), then in the window that opened this one and its parents (an LMS that opens it in
 * a new window).
 * @param {Window | object} win
 * @returns {ScormApi | null}
 */
export function findApi(win) {
  return searchUp(win) ?? searchUp(read(win, 'opener'));
}

/**
 * A duration as SCORM 1.2's CMITimespan, HHHH:MM:SS.SS.
 * @param {number} ms
 * @returns {string}
 */
export function timespan(ms) {
  const centis = Math.max(0, Math.round(ms / 10));
  const hours = Math.min(9999, Math.floor(centis / 360_000));
  const minutes = Math.floor(centis / 6000) % 60;
  const seconds = (centis % 6000) / 100;
  const two = (n) => String(n).padStart(2, '0');
  return `${String(hours).padStart(4, '0')}:${two(minutes)}:${seconds.toFixed(2).padStart(5, '0')}`;
}

/**
 * A time of day as SCORM 1.2's CMITime, HH:MM:SS (the learner's clock, as the LMS shows it).
 * @param {Date} date
 * @returns {string}
 */
export function clockTime(date) {
  const two = (n) => String(n).padStart(2, '0');
  return `${two(date.getHours())}:${two(date.getMinutes())}:${two(date.getSeconds())}`;
}

/**
 * A choice index as a SCORM 1.2 choice response: a, b, c, ... (one of 0-9 and a-z).
 * @param {number} index
 * @returns {string | null} null past z
 */
export function choiceLetter(index) {
  return Number.isInteger(index) && index >= 0 && index < 26
    ? String.fromCharCode(97 + index)
    : null;
}

/**
 * The score of an attempt: the share of the check's questions answered right, as a whole
 * percentage (min 0, max 100). Unanswered questions count as not right.
 * @param {number} right
 * @param {number} total
 * @returns {number}
 */
export function percentScore(right, total) {
  return total > 0 ? Math.round((100 * Math.min(right, total)) / total) : 0;
}

/**
 * An item id as a CMIIdentifier: no spaces or other punctuation than - and _.
 * @param {string} id
 * @returns {string}
 */
function identifier(id) {
  return (
    String(id)
      .replace(/[^A-Za-z0-9_-]/g, '_')
      .slice(0, 255) || 'question'
  );
}

/**
 * Which lesson an LMS launched: the `lesson=<key>` that cmi.launch_data holds (the item's
 * adlcp:datafromlms in the package's manifest), else the `?lesson=` of the launch address.
 * @param {string} launchData cmi.launch_data ('' when the LMS has none)
 * @param {string} search the page's address's query, e.g. location.search
 * @returns {string | null} the key named, or null when neither names one (the first lesson)
 */
export function launchedLesson(launchData, search) {
  const named = (query) => new URLSearchParams(query).get('lesson');
  return named(launchData.trim().replace(/^\?/, '')) ?? named(search);
}

/**
 * @typedef {object} Reporter
 * @property {() => boolean} start LMSInitialize and the status 'incomplete'; false when the LMS
 *   refused to start, after which every other call does nothing
 * @property {(answer: Answer) => void} answer one interaction, the score if it is the best yet,
 *   a commit
 * @property {() => { location: string, data: string }} saved what the LMS kept from the last
 *   launch of this attempt (cmi.core.lesson_location and cmi.suspend_data, read at start; '' for
 *   each it has not)
 * @property {(location: string, data: string) => void} keep the slide and the figures to come
 *   back to (resume.js), each set when it changed, then a commit
 * @property {() => void} complete the status 'completed', a commit (once)
 * @property {() => void} finish the session's time, a commit and LMSFinish (once)
 * @property {() => boolean} active started and not yet finished
 * @property {() => string} lastError the LMS's last error code after a call it refused ('' if none)
 */

/**
 * Reports to one LMS API.
 * @param {ScormApi} api
 * @param {{ now?: () => number, clock?: () => Date, ours?: (launchData: string) => boolean }}
 *   [options] now: milliseconds, for the session's time; clock: the time of day an answer is
 *   stamped with; ours: whether the SCO the LMS launched (its cmi.launch_data) is the lesson
 *   shown: when not, nothing is read from the LMS or written to it (another lesson's SCO keeps
 *   its own record)
 * @returns {Reporter}
 */
export function createReporter(api, options = {}) {
  const now = options.now ?? (() => Date.now());
  const clock = options.clock ?? (() => new Date());
  const ours = options.ours ?? (() => true);
  let started = false;
  let finished = false;
  let readOnly = false;
  let completed = false;
  let startedAt = 0;
  let nextInteraction = 0;
  let scaled = false;
  /** The best score the LMS has: from an earlier visit, or this one's best attempt; -1: none. */
  let best = -1;
  let lastError = '';
  /** What the LMS holds now: read at start, then as kept. */
  const held = { location: '', data: '' };

  /**
   * Calls the LMS; a throw or a refusal is noted and returns false.
   * @param {keyof ScormApi} name
   * @param {string[]} args
   * @returns {string | false}
   */
  const call = (name, ...args) => {
    try {
      const result = /** @type {Function} */ (api[name]).apply(api, args);
      return result === undefined || result === null ? '' : String(result);
    } catch {
      lastError = 'exception';
      return false;
    }
  };
  /** @returns {string} */
  const errorCode = () => {
    const code = call('LMSGetLastError');
    return code === false ? 'exception' : code;
  };
  /** @param {'LMSInitialize' | 'LMSFinish' | 'LMSCommit'} name */
  const ok = (name) => {
    const result = call(name, '');
    if (result === 'true') return true;
    if (result !== false) lastError = errorCode();
    return false;
  };
  /** @param {string} element @returns {string} '' when the LMS has no value or refuses */
  const get = (element) => {
    const value = call('LMSGetValue', element);
    if (value === false) return '';
    const code = errorCode();
    if (code !== '' && code !== '0') {
      lastError = code;
      return '';
    }
    return value;
  };
  /** @param {string} element @param {string | number} value */
  const set = (element, value) => {
    const result = call('LMSSetValue', element, String(value));
    if (result === 'true') return true;
    if (result !== false) lastError = errorCode();
    return false;
  };
  const commit = () => ok('LMSCommit');
  const writable = () => started && !finished && !readOnly;

  return {
    start() {
      if (started) return true;
      if (!ok('LMSInitialize')) return false;
      started = true;
      startedAt = now();
      // In review mode the learner looks back at a finished attempt: nothing is written. Nor is
      // anything in another lesson's SCO, whose record is not this lesson's to change.
      if (!ours(get('cmi.launch_data'))) {
        readOnly = true;
        return true;
      }
      readOnly = get('cmi.core.lesson_mode') === 'review';
      const status = get('cmi.core.lesson_status');
      completed = FINISHED.has(status);
      const count = Number.parseInt(get('cmi.interactions._count'), 10);
      nextInteraction = Number.isInteger(count) && count > 0 ? count : 0;
      const previous = Number.parseFloat(get('cmi.core.score.raw'));
      if (previous >= 0 && previous <= 100) best = previous;
      held.location = get('cmi.core.lesson_location');
      held.data = get('cmi.suspend_data');
      if (writable() && !completed) {
        set('cmi.core.lesson_status', 'incomplete');
        commit();
      }
      return true;
    },
    answer(answer) {
      if (!writable()) return;
      const n = `cmi.interactions.${nextInteraction}`;
      if (set(`${n}.id`, identifier(answer.id))) {
        nextInteraction += 1;
        set(`${n}.type`, 'choice');
        set(`${n}.time`, clockTime(clock()));
        const response = choiceLetter(answer.choice);
        if (response) set(`${n}.student_response`, response);
        const pattern = choiceLetter(answer.correctChoice);
        // Optional in SCORM 1.2: an LMS that does not keep correct responses refuses it.
        if (pattern) set(`${n}.correct_responses.0.pattern`, pattern);
        set(`${n}.result`, answer.correct ? 'correct' : 'wrong');
      }
      // The score never goes down: trying the check again, or coming back another day, can only
      // raise what the LMS has (the interactions keep every answer).
      const score = percentScore(answer.right, answer.total);
      if (score > best) {
        if (!scaled) scaled = set('cmi.core.score.min', 0) && set('cmi.core.score.max', 100);
        if (set('cmi.core.score.raw', score)) best = score;
      }
      commit();
    },
    saved: () => ({ ...held }),
    keep(location, data) {
      if (!writable()) return;
      let changed = false;
      if (location !== held.location && set('cmi.core.lesson_location', location)) {
        held.location = location;
        changed = true;
      }
      if (data !== held.data && set('cmi.suspend_data', data)) {
        held.data = data;
        changed = true;
      }
      if (changed) commit();
    },
    complete() {
      if (!writable() || completed) return;
      completed = set('cmi.core.lesson_status', 'completed');
      commit();
    },
    finish() {
      if (!started || finished) return;
      if (!readOnly) {
        set('cmi.core.session_time', timespan(now() - startedAt));
        // Unfinished: the LMS keeps the attempt open for the learner to come back to.
        set('cmi.core.exit', completed ? '' : 'suspend');
        commit();
      }
      finished = true;
      ok('LMSFinish');
    },
    active: () => started && !finished,
    lastError: () => lastError,
  };
}
