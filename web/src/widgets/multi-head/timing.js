// The multi-head widget's step timing: each step of its redraw becomes a performance measure
// "multi-head <name>" (shared/redraw-timing.js), which `npm run bench:ui` reads.
import { timedStep } from '../shared/redraw-timing.js';

/**
 * Runs one step and records how long it took as the measure `multi-head <name>`.
 * @template T
 * @param {string} name
 * @param {() => T} step
 * @returns {T} what the step returned
 */
export const timed = (name, step) => timedStep('multi-head', name, step);
