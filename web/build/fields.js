// Small checks for parsed YAML: field kinds, required and unknown fields. Each failure throws a
// ContentError naming the file and the field path (`widget.type`, `items[2].answer`).
import { ContentError } from './content-error.js';

/** Lower-case words joined by single hyphens, starting with a letter: usable in a URL hash. */
export const KEBAB_CASE = /^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$/;

/**
 * A short description of a value, for messages.
 * @param {unknown} value
 * @returns {string}
 */
export function describe(value) {
  if (value === null) return 'null (an empty value)';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'a mapping';
  return `${typeof value} ${JSON.stringify(value)}`;
}

/**
 * @param {unknown} value
 * @returns {value is Record<string, unknown>}
 */
export function isMapping(value) {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/**
 * The kinds a field can be: each returns '' when the value fits, else what is wrong.
 * @type {Record<string, (value: unknown) => string>}
 */
export const KINDS = {
  string: (v) => (typeof v !== 'string' ? 'must be a string' : v.trim() ? '' : 'must not be empty'),
  kebab: (v) =>
    typeof v === 'string' && KEBAB_CASE.test(v)
      ? ''
      : 'must be a kebab-case string (a-z and 0-9 in words joined by single hyphens, starting ' +
        'with a letter)',
  positive: (v) => (Number.isInteger(v) && Number(v) >= 1 ? '' : 'must be a whole number >= 1'),
  index: (v) => (Number.isInteger(v) && Number(v) >= 0 ? '' : 'must be a whole number >= 0'),
  boolean: (v) => (typeof v === 'boolean' ? '' : 'must be true or false'),
  mapping: (v) => (isMapping(v) ? '' : 'must be a mapping of fields'),
  list: (v) => (Array.isArray(v) ? '' : 'must be a list'),
};

/**
 * Joins a field path: ('', 'id') -> 'id'; ('widget', 'type') -> 'widget.type'.
 * @param {string} prefix
 * @param {string} name
 */
export function fieldPath(prefix, name) {
  return prefix ? `${prefix}.${name}` : name;
}

/**
 * Checks one value against a kind.
 * @param {unknown} value
 * @param {keyof KINDS} kind
 * @param {string} file
 * @param {string} field
 */
export function expectKind(value, kind, file, field) {
  const problem = KINDS[kind](value);
  if (problem) throw new ContentError(file, field, `${problem}, got ${describe(value)}`);
}

/**
 * Checks that a value is a mapping (a YAML object, not a list or a scalar).
 * @param {unknown} value
 * @param {string} file
 * @param {string} field
 * @returns {asserts value is Record<string, unknown>}
 */
export function expectMapping(value, file, field) {
  if (!isMapping(value)) {
    throw new ContentError(file, field, `must be a mapping of fields, got ${describe(value)}`);
  }
}

/**
 * Checks a mapping against a table of fields: unknown fields, required fields, kinds.
 * @param {unknown} value
 * @param {Record<string, { kind: keyof KINDS, required?: boolean }>} fields
 * @param {string} file
 * @param {string} prefix the mapping's own field path ('' for the top level)
 * @returns {Record<string, unknown>} the value, now known to be a mapping
 */
export function expectFields(value, fields, file, prefix) {
  expectMapping(value, file, prefix);
  const known = Object.keys(fields);
  for (const name of Object.keys(value)) {
    if (!known.includes(name)) {
      const list = known.join(', ');
      throw new ContentError(file, fieldPath(prefix, name), `is not a known field (${list})`);
    }
  }
  for (const [name, { kind, required = false }] of Object.entries(fields)) {
    if (!(name in value)) {
      if (required) throw new ContentError(file, fieldPath(prefix, name), 'is required');
      continue;
    }
    expectKind(value[name], kind, file, fieldPath(prefix, name));
  }
  return value;
}
