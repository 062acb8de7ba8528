// Names the steps of a multi-head redraw as performance measures ("multi-head engine", ...), so the
// browser's performance tools and `npm run bench:ui` can tell the engine's time from the drawing's.
// Only the latest measure of each name stays in the buffer, however long the learner types.

/**
 * Runs one step and records how long it took as the measure `multi-head <name>`.
 * @template T
 * @param {string} name
 * @param {() => T} step
 * @returns {T} what the step returned
 */
export function timed(name, step) {
  const start = performance.now();
  try {
    return step();
  } finally {
    const label = `multi-head ${name}`;
    performance.clearMeasures(label);
    performance.measure(label, { start });
  }
}
