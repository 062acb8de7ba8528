// Long main-thread tasks, from a Chromium trace of the page: what the tests that train in the
// worker check while the worker runs.
import assert from 'node:assert/strict';

/**
 * @param {{ browser: () => import('playwright-core').Browser }} site from useSite()
 */
export function taskWatch(site) {
  /** Whether a trace is being recorded: a test that fails before reading it leaves it on. */
  let tracing = false;

  /**
   * Starts recording what the page's threads do (a Chromium trace).
   * @param {import('playwright-core').Page} page
   */
  async function watchTasks(page) {
    if (tracing) await site.browser().stopTracing();
    await site.browser().startTracing(page, { categories: ['devtools.timeline'] });
    tracing = true;
  }

  /**
   * Stops the trace and returns the page's main-thread tasks that ran over 50 ms: their time on
   * the thread, and their time on the clock. A long task is the page's own work only when its
   * thread time is long: on a busy machine the clock also counts the time the thread waited for a
   * processor, which no page controls.
   * @returns {Promise<{ thread: number, clock: number }[]>} in milliseconds
   */
  async function longTasks() {
    const trace = JSON.parse((await site.browser().stopTracing()).toString('utf8'));
    tracing = false;
    const events = /** @type {any[]} */ (trace.traceEvents);
    // The page's main thread is the renderer main thread that ran its animation frames.
    const mains = events.filter(
      (e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain',
    );
    const main = mains.find((m) =>
      events.some((e) => e.pid === m.pid && e.tid === m.tid && e.name === 'FireAnimationFrame'),
    );
    assert.ok(main, 'the trace shows the page\u2019s main thread');
    return events
      .filter(
        (e) => e.pid === main.pid && e.tid === main.tid && e.name === 'RunTask' && e.ph === 'X',
      )
      .filter((e) => e.dur > 50_000)
      .map((e) => ({
        thread: Math.round((e.tdur ?? e.dur) / 1000),
        clock: Math.round(e.dur / 1000),
      }));
  }

  return { watchTasks, longTasks };
}
