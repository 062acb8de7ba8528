// Names the steps of a widget's redraw as performance measures ("<widget> engine", "<widget>
// redraw", ...), so the browser's performance tools and `npm run bench:ui` can tell the engine's
// time from the drawing's. Only the latest measure of each name stays in the buffer, however long
// the learner types.

/**
 * Runs one step and records how long it took as the measure `<widget> <name>`.
 * @template T
 * @param {string} widget
 * @param {string} name
 * @param {() => T} step
 * @returns {T} what the step returned
 */
export function timedStep(widget, name, step) {
  const start = performance.now();
  try {
    return step();
  } finally {
    const label = `${widget} ${name}`;
    performance.clearMeasures(label);
    performance.measure(label, { start });
  }
}
