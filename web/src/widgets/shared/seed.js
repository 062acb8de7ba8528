// The seed box that several figures share (their random projections, a training run, a sweep): its
// range, how its text is read, and what the learner is told when it holds no seed.

/** The largest seed the engine accepts: 2^32 - 1. */
export const MAX_SEED = 4294967295;

/** What a figure says while its seed box holds no seed. */
export const SEED_PROBLEM = `The seed must be a whole number from 0 to ${MAX_SEED}.`;

/**
 * @param {string} text what the seed box holds
 * @returns {number | null} the seed, or null when it is not a whole number in the engine's range
 */
export function parseSeed(text) {
  const value = Number(text);
  const ok = text.trim() !== '' && Number.isInteger(value) && value >= 0 && value <= MAX_SEED;
  return ok ? value : null;
}

/**
 * The seed box as markup: its "Seed" label and a whole-number input of the engine's range, named
 * `seed`, drawn as a number box (`widget-number`, widgets.css) with the further classes the widget
 * styles and finds them by.
 * @param {string} id the widget instance's id; the input's is `${id}-seed`
 * @param {{ input: string, label: string, describedBy?: string }} names the input's further
 *   classes and the label's classes, and the id of the help the input is described by, if any
 * @returns {string}
 */
export function seedFieldHtml(id, { input, label, describedBy }) {
  const described = describedBy ? ` aria-describedby="${describedBy}"` : '';
  return `<label class="${label}" for="${id}-seed">Seed</label>
<input id="${id}-seed" class="widget-number ${input}" name="seed" type="number" inputmode="numeric"
  min="0" max="${MAX_SEED}" step="1"${described} />`;
}
