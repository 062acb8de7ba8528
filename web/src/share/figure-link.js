// Links that reproduce a figure: the settings of the figure on the shown slide travel in the
// query string, e.g. index.html?figure=multi-head&heads=2&sentence=The+dog+barked#/multi-head.
// Text stays as it is; numbers, true/false and lists are written as JSON. Reading a link only
// seeds a widget's state: each widget checks its inputs as it does for typed ones. A figure with
// more than one view names the one shown, unless it is the first: &show=training.

/** The query parameter naming the slide whose figure the other parameters set. */
export const FIGURE_PARAM = 'figure';
/** The query parameter naming the figure's view, when it is not the first. */
export const VIEW_PARAM = 'show';
/** Parameters the pages use for themselves, never read as settings. */
const RESERVED = new Set([FIGURE_PARAM, VIEW_PARAM, 'print-pdf']);
/** Settings longer than this are left out of links (a sentence of a few hundred characters fits). */
const MAX_VALUE = 2000;
const JSON_LIKE = /^(?:true|false|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|\[.*\])$/;

/**
 * The settings a link gives the figure on slide `slideId`, or {} when it names another slide.
 * @param {string | URL} url
 * @param {string} slideId
 * @param {Record<string, unknown>} [defaults] the slide's widget props: a setting whose default is
 *   text stays text, even when it reads like a number
 * @returns {Record<string, unknown>}
 */
export function settingsFromUrl(url, slideId, defaults = {}) {
  const params = new URL(url).searchParams;
  if (params.get(FIGURE_PARAM) !== slideId) return {};
  /** @type {Record<string, unknown>} */
  const settings = {};
  for (const [key, text] of params) {
    if (RESERVED.has(key) || text.length > MAX_VALUE || key === '__proto__') continue;
    const textual = typeof defaults[key] === 'string';
    settings[key] = !textual && JSON_LIKE.test(text) ? parseOr(text) : text;
  }
  return settings;
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
 * figure when `settings` holds nothing a link can carry and no view is named); the hash and
 * reserved parameters stay.
 * @param {string | URL} url
 * @param {string} slideId
 * @param {Record<string, unknown>} settings
 * @param {string} [view] the view shown, when it is not the figure's first
 * @returns {string}
 */
export function urlWithSettings(url, slideId, settings, view) {
  const next = new URL(url);
  for (const key of [...next.searchParams.keys()]) {
    if (key !== 'print-pdf') next.searchParams.delete(key);
  }
  const entries = Object.entries(settings)
    .filter(([key]) => !RESERVED.has(key))
    .map(([key, value]) => [key, typeof value === 'string' ? value : JSON.stringify(value)])
    .filter(([, text]) => typeof text === 'string' && text.length <= MAX_VALUE);
  if (entries.length > 0 || view) {
    next.searchParams.set(FIGURE_PARAM, slideId);
    if (view) next.searchParams.set(VIEW_PARAM, view);
    for (const [key, text] of entries) next.searchParams.set(key, /** @type {string} */ (text));
  }
  return next.href;
}

/**
 * @param {string} text
 * @returns {unknown} the parsed value, or the text when it is not JSON after all
 */
function parseOr(text) {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
