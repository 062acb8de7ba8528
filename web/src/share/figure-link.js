// Links that reproduce a figure: the settings of the figure on the shown slide travel in the
// query string, e.g. index.html?figure=multi-head&heads=2&sentence=The+dog+barked#/multi-head.
// Text stays as it is; numbers, true/false and lists are written as JSON. A figure takes from a
// link only the settings its widget declares, each checked against its declaration
// (widgets/shared/link-settings.js): a value it does not accept is left out, and the figure
// starts from its default there. A figure with more than one view names the one shown, unless it
// is the first: &show=training.
import { acceptSettings } from '../widgets/shared/link-settings.js';
import { settingsOf } from '../widgets/shared/registry.js';

/** The query parameter naming the slide whose figure the other parameters set. */
export const FIGURE_PARAM = 'figure';
/** The query parameter naming the figure's view, when it is not the first. */
export const VIEW_PARAM = 'show';
/**
 * Parameters the pages use for themselves, never a figure's setting: the figure and its view,
 * the deck's print view and speaker previews (deck/address.js), the single-file lesson's page
 * (offline/links.js), the lesson (lesson-address.js).
 */
export const RESERVED = Object.freeze([
  'figure',
  'show',
  'print-pdf',
  'receiver',
  'page',
  'lesson',
]);
/** Parameters a figure's address keeps whatever the figure: the print view and the lesson. */
const KEPT = Object.freeze(['print-pdf', 'lesson']);
/** Settings longer than this are left out of links (a sentence of a few hundred characters fits). */
const MAX_VALUE = 2000;

/**
 * The settings of a widget, out of `values`, that a link may carry and the widget accepts; none
 * for a widget that declares none.
 * @param {string} type the widget (the figure's view)
 * @param {Record<string, unknown>} values e.g. the state the widget keeps
 * @returns {Record<string, unknown>}
 */
export function linkSettings(type, values) {
  return acceptSettings(settingsOf(type) ?? {}, values);
}

/**
 * The settings a link gives the figure on slide `slideId` shown as widget `type`, or {} when it
 * names another slide. Only what the widget declares and accepts comes back.
 * @param {string | URL} url
 * @param {string} slideId
 * @param {string} type the widget of the view shown
 * @returns {Record<string, unknown>}
 */
export function settingsFromUrl(url, slideId, type) {
  const params = new URL(url).searchParams;
  if (params.get(FIGURE_PARAM) !== slideId) return {};
  /** @type {Record<string, string>} */
  const values = {};
  for (const name of Object.keys(settingsOf(type) ?? {})) {
    const text = params.get(name);
    if (text !== null && !RESERVED.includes(name)) values[name] = text;
  }
  return linkSettings(type, values);
}

/**
 * The view a link asks for on slide `slideId`: the value of `show`, or null when the link names
 * another slide or no view (the figure's first view). Any text comes back; the page picks a view
 * only if one has that name.
 * @param {string | URL} url
 * @param {string} slideId
 * @returns {string | null}
 */
export function viewFromUrl(url, slideId) {
  const params = new URL(url).searchParams;
  if (params.get(FIGURE_PARAM) !== slideId) return null;
  return params.get(VIEW_PARAM);
}

/**
 * The same address with the query describing the figure on `slideId` with `settings` (or no
 * figure when `settings` holds nothing a link can carry and no view is named); the hash, the
 * print view and the lesson stay.
 * @param {string | URL} url
 * @param {string} slideId
 * @param {Record<string, unknown>} settings
 * @param {string} [view] the view shown, when it is not the figure's first
 * @returns {string}
 */
export function urlWithSettings(url, slideId, settings, view) {
  const next = new URL(url);
  for (const key of [...next.searchParams.keys()]) {
    if (!KEPT.includes(key)) next.searchParams.delete(key);
  }
  const entries = Object.entries(settings)
    .filter(([key]) => !RESERVED.includes(key))
    .map(([key, value]) => [key, typeof value === 'string' ? value : JSON.stringify(value)])
    .filter(([, text]) => typeof text === 'string' && text.length <= MAX_VALUE);
  if (entries.length > 0 || view) {
    next.searchParams.set(FIGURE_PARAM, slideId);
    if (view) next.searchParams.set(VIEW_PARAM, view);
    for (const [key, text] of entries) next.searchParams.set(key, /** @type {string} */ (text));
  }
  return next.href;
}
