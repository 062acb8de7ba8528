// Long main-thread tasks, from a Chromium trace of the page: what the tests and benchmarks that
// train in the worker check while the worker runs.

/**
 * The page's main-thread tasks over 50 ms in a Chromium trace: their time on the thread and on
 * the clock. A long task is the page's own work only when its thread time is long: on a busy
 * machine the clock also counts the time the thread waited for a processor, which no page
 * controls.
 * @param {Buffer} buffer the trace
 * @returns {{ thread: number, clock: number }[]} in milliseconds
 */
export function longTasksOf(buffer) {
  const events = /** @type {any[]} */ (JSON.parse(buffer.toString('utf8')).traceEvents);
  // The page's main thread is the renderer main thread that ran its animation frames.
  const mains = events.filter((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain');
  const main = mains.find((m) =>
    events.some((e) => e.pid === m.pid && e.tid === m.tid && e.name === 'FireAnimationFrame'),
  );
  if (!main) throw new Error('the trace does not show the page\u2019s main thread');
  return events
    .filter((e) => e.pid === main.pid && e.tid === main.tid && e.name === 'RunTask' && e.ph === 'X')
    .filter((e) => e.dur > 50_000)
    .map((e) => ({
      thread: Math.round((e.tdur ?? e.dur) / 1000),
      clock: Math.round(e.dur / 1000),
    }));
}

/**
 * @param {{ browser: () => import('playwright-core').Browser }} site from useSite()
 */
export function taskWatch(site) {
  /** Whether a trace is being recorded: a test that fails before reading it leaves it on. */
  let tracing = false;

  return {
    /**
     * Starts recording what the page's threads do (a Chromium trace).
     * @param {import('playwright-core').Page} page
     */
    async watchTasks(page) {
      if (tracing) await site.browser().stopTracing();
      await site.browser().startTracing(page, { categories: ['devtools.timeline'] });
      tracing = true;
    },

    /** Stops the trace: the page's main-thread tasks over 50 ms since watchTasks. */
    async longTasks() {
      const trace = await site.browser().stopTracing();
      tracing = false;
      return longTasksOf(trace);
    },
  };
}
