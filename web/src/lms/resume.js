// What the deck keeps in an LMS between launches, so a learner comes back to the slide and the
// figures they left: the slide in `cmi.core.lesson_location`, and every figure they changed in
// `cmi.suspend_data` (SCORM 1.2 keeps at most 4,096 characters there). A figure is kept as a link
// keeps it (share/figure-link.js): the view shown, unless it is the first, and the settings its
// widget declares. What comes back from the LMS is untrusted input, read as a link is: only slides
// the lesson has, views they offer and settings their widgets accept survive it.
//
// When the figures do not all fit, the shown slide's figure goes first, then the others in the
// lesson's order, each whole or not at all; one left out opens with its defaults next time.

import { linkSettings } from '../share/figure-link.js';

/** The most characters SCORM 1.2 keeps in cmi.suspend_data (a CMIString4096). */
export const SUSPEND_MAX = 4096;
/** The most characters SCORM 1.2 keeps in cmi.core.lesson_location (a CMIString255). */
export const LOCATION_MAX = 255;
/** The shape of the saved text; text of another shape is ignored, never misread. */
const FORMAT = 1;

/**
 * One figure as it is kept: its view (absent for the figure's first) and its settings.
 * @typedef {{ view?: string, settings: Record<string, unknown> }} KeptFigure
 */

/**
 * The text for cmi.suspend_data: the figures that fit in SUSPEND_MAX characters, the shown
 * slide's first. A figure with neither settings nor a view of its own is left out: it opens as
 * it would anyway.
 * @param {[string, KeptFigure][]} figures by slide id, in the lesson's order
 * @param {string} [shown] the slide shown
 * @returns {string} JSON, at most SUSPEND_MAX characters
 */
export function encodeFigures(figures, shown) {
  const order = [
    ...figures.filter(([id]) => id === shown),
    ...figures.filter(([id]) => id !== shown),
  ];
  /** @type {Record<string, { show?: string, set: Record<string, unknown> }>} */
  const kept = {};
  let text = JSON.stringify({ format: FORMAT, figures: kept });
  for (const [id, { view, settings }] of order) {
    if (!view && Object.keys(settings).length === 0) continue;
    kept[id] = view ? { show: view, set: settings } : { set: settings };
    const next = JSON.stringify({ format: FORMAT, figures: kept });
    if (next.length <= SUSPEND_MAX) text = next;
    else delete kept[id];
  }
  return text;
}

/**
 * The figures cmi.suspend_data names, each checked against the lesson: a slide it has, one of
 * that slide's views, the settings that view's widget accepts. Anything else is dropped.
 * @param {string} text what the LMS returned
 * @param {Map<string, string[]>} views per slide with a figure, the widget types of its views,
 *   the first being the figure's default
 * @returns {Map<string, { view: string, settings: Record<string, unknown> }>}
 */
export function decodeFigures(text, views) {
  /** @type {Map<string, { view: string, settings: Record<string, unknown> }>} */
  const figures = new Map();
  let saved;
  try {
    saved = typeof text === 'string' && text.length <= SUSPEND_MAX ? JSON.parse(text) : null;
  } catch {
    return figures;
  }
  if (!isRecord(saved) || saved.format !== FORMAT || !isRecord(saved.figures)) return figures;
  for (const [id, entry] of Object.entries(saved.figures)) {
    const types = views.get(id);
    if (!types || !isRecord(entry)) continue;
    const view = entry.show === undefined ? types[0] : entry.show;
    if (typeof view !== 'string' || !types.includes(view)) continue;
    const settings = isRecord(entry.set) ? linkSettings(view, entry.set) : {};
    figures.set(id, { view, settings });
  }
  return figures;
}

/**
 * The slide cmi.core.lesson_location names, if the lesson has it.
 * @param {string} text what the LMS returned
 * @param {string[]} slides the lesson's slide ids
 * @returns {string | undefined}
 */
export function decodeLocation(text, slides) {
  return typeof text === 'string' && slides.includes(text) ? text : undefined;
}

/**
 * @param {unknown} value
 * @returns {value is Record<string, unknown>}
 */
function isRecord(value) {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
