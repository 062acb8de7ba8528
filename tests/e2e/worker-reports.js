// What the page's training worker tells the page, recorded inside the worker for a test to read:
// each progress report (status, steps, whether a measurement is under way), and each time its
// loop stops with no work left (the `idle` message of web/src/train/worker.js). A test waits for
// these messages, the worker's own account of what it did, instead of for a stretch of time.
import assert from 'node:assert/strict';

const TIMEOUT = 30_000;

/**
 * @typedef {{ status: string, steps: number, evaluating: boolean }} Recorded a progress report
 */

/**
 * Has the worker keep a list of the progress reports it sends the page, and, for each idle
 * message, how many reports had gone out before it.
 * @param {import('playwright-core').Worker} worker
 */
export function recordReports(worker) {
  return worker.evaluate(() => {
    const scope = /** @type {any} */ (self);
    /** @type {{ status: string, steps: number, evaluating: boolean }[]} */
    const reports = [];
    /** @type {number[]} */
    const idle = [];
    scope.progressReports = reports;
    scope.idleAfter = idle;
    const send = scope.postMessage.bind(scope);
    scope.postMessage = (/** @type {any} */ message, /** @type {any[]} */ ...rest) => {
      if (message?.type === 'progress') {
        reports.push({
          status: message.status,
          steps: message.steps,
          evaluating: message.evaluating,
        });
      } else if (message?.type === 'idle') {
        idle.push(reports.length);
      }
      send(message, ...rest);
    };
  });
}

/**
 * Asks the worker `read(arg)` until it returns something other than null.
 * @template T, A
 * @param {import('playwright-core').Worker} worker
 * @param {(arg: A) => T | null} read runs in the worker
 * @param {A} arg
 * @param {string} what for the failure message
 * @returns {Promise<T>}
 */
async function waitInWorker(worker, read, arg, what) {
  const deadline = Date.now() + TIMEOUT;
  for (;;) {
    const found = await worker.evaluate(read, arg);
    if (found !== null) return found;
    assert.ok(Date.now() < deadline, what);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * Waits for the worker's report that a pause has taken effect: paused, nothing left to measure.
 * @param {import('playwright-core').Worker} worker
 * @returns {Promise<{ index: number, steps: number }>} its place in the list, and the steps
 */
export function waitForPausedReport(worker) {
  return waitInWorker(
    worker,
    () => {
      const reports = /** @type {any} */ (self).progressReports;
      for (let k = reports.length - 1; k >= 0; k--) {
        const report = reports[k];
        if (report.status === 'running') return null;
        if (report.status === 'paused' && !report.evaluating)
          return { index: k, steps: report.steps };
      }
      return null;
    },
    null,
    'the worker reports the pause',
  );
}

/**
 * Waits until the worker's loop has stopped after the report at `index`, and returns the reports
 * sent after that one. Once the loop has stopped, the worker takes no step until the page sends
 * it a command, so these are all the reports there are until then: a run that went on training
 * would have kept the loop going, and its steps would be here.
 * @param {import('playwright-core').Worker} worker
 * @param {number} index
 * @returns {Promise<Recorded[]>}
 */
export function reportsUntilIdle(worker, index) {
  return waitInWorker(
    worker,
    (k) => {
      const scope = /** @type {any} */ (self);
      const stopped = scope.idleAfter.some((/** @type {number} */ count) => count > k);
      return stopped ? scope.progressReports.slice(k + 1) : null;
    },
    index,
    'the worker stops once the pause has taken effect',
  );
}
