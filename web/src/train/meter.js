// Steps per second while a run trains: the steps taken over the last second or so of wall-clock
// time (evaluations and the pauses between slices included, as the learner experiences them).
// A pause empties the window, so the rate after Resume starts fresh.

const WINDOW_MS = 1500;

/**
 * @typedef {object} Meter
 * @property {(now: number, steps: number) => void} mark the run's step count at time `now`
 * @property {() => number} perSecond the rate over the window, 0 until two marks span time
 * @property {() => void} clear forgets the window (on pause)
 */

/** @returns {Meter} */
export function createMeter() {
  /** @type {{ now: number, steps: number }[]} */
  let marks = [];
  return {
    mark(now, steps) {
      marks.push({ now, steps });
      // Keep one mark at or before the window's start, so the span covers the whole window.
      while (marks.length > 2 && marks[1].now <= now - WINDOW_MS) marks.shift();
    },
    perSecond() {
      if (marks.length < 2) return 0;
      const first = marks[0];
      const last = marks[marks.length - 1];
      const ms = last.now - first.now;
      return ms > 0 ? ((last.steps - first.steps) * 1000) / ms : 0;
    },
    clear() {
      marks = [];
    },
  };
}
