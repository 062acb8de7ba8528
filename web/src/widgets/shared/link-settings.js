// What a figure accepts from outside the page: the settings a link carries in its query (deck,
// article, embed page, single-file lesson) and the state an LMS hands back. Each widget declares
// them once, in its folder's `link-settings.js`, with the kinds below (a type, a range, a list of
// choices), and registers the declaration with itself (registry.js). Every value from outside
// goes through `acceptSettings`: a value its setting does not accept is left out, and the widget
// then starts from the slide's props or its own default, as with no value at all. Nothing here
// logs or throws, whatever it is given.
//
// A link writes text as it is, and numbers, true/false and lists as JSON (share/figure-link.js);
// each kind reads both that text and the value itself (state kept by an LMS is JSON).

/**
 * One setting: what it is (for the tests that make values of it) and what it accepts.
 * @typedef {object} SettingKind
 * @property {'text' | 'integer' | 'number' | 'flag' | 'choice' | 'list' | 'record'} kind
 * @property {(value: unknown) => unknown} accept the value as the widget takes it, or undefined
 *   when it is not one the setting accepts
 * @property {Record<string, unknown>} rules its range, length or choices, as declared
 */

/** @typedef {Record<string, SettingKind>} SettingsDeclaration */

/** The longest text a setting takes unless it says otherwise (a sentence of a few hundred fits). */
export const MAX_TEXT = 2000;
/** The most characters of JSON a list or record setting reads. */
const MAX_JSON = 8000;
const INTEGER = /^-?\d{1,16}$/;
const DECIMAL = /^-?(?:\d{1,20}(?:\.\d{0,20})?|\.\d{1,20})(?:[eE][+-]?\d{1,3})?$/;
// Control characters (C0, DEL, C1): an input box never holds them, and a line of the figure
// would show them as nothing.
const CONTROL = /\p{Cc}/u;

/**
 * Text: well-formed Unicode (no lone surrogates), no control characters, at most `max`
 * characters, and matching `pattern` when there is one.
 * @param {{ max?: number, pattern?: RegExp }} [rules]
 * @returns {SettingKind}
 */
export function text({ max = MAX_TEXT, pattern } = {}) {
  return {
    kind: 'text',
    rules: { max, ...(pattern ? { pattern } : {}) },
    accept(value) {
      if (typeof value !== 'string' || value.length > max) return undefined;
      if (!value.isWellFormed() || CONTROL.test(value)) return undefined;
      if (pattern && !pattern.test(value)) return undefined;
      return value;
    },
  };
}

/**
 * A whole number from `min` to `max`, written in decimal digits.
 * @param {{ min: number, max: number }} rules
 * @returns {SettingKind}
 */
export function integer({ min, max }) {
  return {
    kind: 'integer',
    rules: { min, max },
    accept(value) {
      const n = typeof value === 'string' && INTEGER.test(value) ? Number(value) : value;
      return typeof n === 'number' && Number.isSafeInteger(n) && n >= min && n <= max
        ? n
        : undefined;
    },
  };
}

/**
 * A finite number from `min` to `max`, written as a decimal.
 * @param {{ min: number, max: number }} rules
 * @returns {SettingKind}
 */
export function number({ min, max }) {
  return {
    kind: 'number',
    rules: { min, max },
    accept(value) {
      const n = typeof value === 'string' && DECIMAL.test(value) ? Number(value) : value;
      return typeof n === 'number' && Number.isFinite(n) && n >= min && n <= max ? n : undefined;
    },
  };
}

/**
 * True or false.
 * @returns {SettingKind}
 */
export function flag() {
  return {
    kind: 'flag',
    rules: {},
    accept(value) {
      if (value === true || value === 'true') return true;
      if (value === false || value === 'false') return false;
      return undefined;
    },
  };
}

/**
 * One of a list of choices (strings or numbers), written as itself.
 * @param {readonly (string | number)[]} choices
 * @returns {SettingKind}
 */
export function choice(choices) {
  const list = [...choices];
  return {
    kind: 'choice',
    rules: { choices: list },
    accept(value) {
      if (typeof value !== 'string' && typeof value !== 'number') return undefined;
      return list.find((item) => item === value || String(item) === value);
    },
  };
}

/**
 * A list of `min` to `max` items, each accepted by `item`; written as JSON.
 * @param {SettingKind} item
 * @param {{ min?: number, max: number }} rules
 * @returns {SettingKind}
 */
export function list(item, { min = 0, max }) {
  return {
    kind: 'list',
    rules: { min, max, item },
    accept(value) {
      const found = typeof value === 'string' ? parseJson(value) : value;
      if (!Array.isArray(found) || found.length < min || found.length > max) return undefined;
      const items = found.map((one) => item.accept(one));
      return items.includes(undefined) ? undefined : items;
    },
  };
}

/**
 * An object of named fields, each accepted by its own kind; a field it does not accept (or does
 * not name) is left out. Written as JSON.
 * @param {SettingsDeclaration} fields
 * @returns {SettingKind}
 */
export function record(fields) {
  return {
    kind: 'record',
    rules: { fields },
    accept(value) {
      const found = typeof value === 'string' ? parseJson(value) : value;
      if (found === null || typeof found !== 'object' || Array.isArray(found)) return undefined;
      return acceptSettings(fields, /** @type {Record<string, unknown>} */ (found));
    },
  };
}

/**
 * The settings a figure accepts out of `values`: only the names it declares, each value as its
 * kind reads it; anything else is left out.
 * @param {SettingsDeclaration} declaration
 * @param {Record<string, unknown>} values from a link (text) or an LMS (JSON)
 * @returns {Record<string, unknown>}
 */
export function acceptSettings(declaration, values) {
  /** @type {Record<string, unknown>} */
  const accepted = {};
  for (const [name, kind] of Object.entries(declaration)) {
    if (!Object.hasOwn(values, name)) continue;
    const value = kind.accept(values[name]);
    if (value !== undefined) accepted[name] = value;
  }
  return accepted;
}

/**
 * @param {string} text
 * @returns {unknown} the parsed JSON, or undefined when it is none (or too long to read)
 */
function parseJson(text) {
  if (text.length > MAX_JSON) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
