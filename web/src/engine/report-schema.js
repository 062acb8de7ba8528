// What the engine reads of a trained model's report (the JSON a training tool writes beside the
// weights): each loader declares the fields it exposes once, with the kinds below, and the report
// goes through `readReport`. It returns a frozen copy that holds only the declared fields, or
// throws an Error naming the first field that is missing or not of its kind, by its path in the
// report (`models.attention.bleu.buckets[2].from`). A report is untrusted input: the reader
// follows no inherited property and keeps no reference into it.
//
// The messages, after the `where` the loader gives (`loadTranslator: the translation report`):
//   `<where> has no <path>`                        the field is absent (or null, unless nullable)
//   `<where>'s <path> is <value>, not <expected>`  the field holds something of another kind
//   `<where> is not <expected>`                    the report itself is not of its declared kind
//   `<where>'s <path> <says>`                      the fields of a shape do not hold together
// A shape's literal fields (a report's `format`) say what the shape is, so a value whose literal
// differs is not that shape at all: the message names the shape, not its literal field.

/**
 * One kind of value: what it accepts, and the copy of it that the report's reader returns.
 * @template T
 * @typedef {object} ReportKind
 * @property {string} kind its name: 'count', 'shape', ...
 * @property {string} expects what it accepts, as a message says it: 'a whole number >= 0'
 * @property {(value: unknown, path: string) => T} read the value's copy; throws a
 *   ReportProblem for a value it does not accept (undefined for an absent field)
 */

/**
 * What a kind reads: a loader's type of its report as read.
 * @template Kind
 * @typedef {Kind extends ReportKind<infer T> ? T : never} ReadOf
 */

/**
 * What a shape of these fields reads: each field as its kind reads it.
 * @template {Record<string, ReportKind<unknown>>} Fields
 * @typedef {{ [Name in keyof Fields]: ReadOf<Fields[Name]> }} ShapeOf
 */

/**
 * The first thing wrong with a report: at `path` (empty for the report itself), a field that is
 * absent, or a value that is not `expects`, or a shape that `says` something of its own.
 */
class ReportProblem extends Error {
  /**
   * @param {string} path
   * @param {{ absent?: boolean, value?: unknown, expects?: string, says?: string }} problem
   */
  constructor(path, { absent = false, value, expects = '', says = '' }) {
    super('a report field that does not fit');
    this.path = path;
    this.absent = absent;
    this.value = value;
    this.expects = expects;
    this.says = says;
  }
}

/** The most characters of a text value that a message quotes. */
const QUOTED_TEXT = 40;

/**
 * Reads `value` as `schema` declares it.
 * @template T
 * @param {unknown} value the report, as JSON.parse gives it
 * @param {ReportKind<T>} schema
 * @param {string} where what a message starts with: the function and the report
 * @returns {T} a copy of the declared fields only, frozen
 */
export function readReport(value, schema, where) {
  try {
    return schema.read(value, '');
  } catch (error) {
    if (!(error instanceof ReportProblem)) throw error;
    throw new Error(messageOf(error, schema, where), { cause: error });
  }
}

/**
 * @param {ReportProblem} problem
 * @param {ReportKind<unknown>} schema the report's
 * @param {string} where
 */
function messageOf({ path, absent, value, expects, says }, schema, where) {
  if (path === '') return says ? `${where} ${says}` : `${where} is not ${schema.expects}`;
  if (absent) return `${where} has no ${path}`;
  if (says) return `${where}'s ${path} ${says}`;
  return `${where}'s ${path} is ${shown(value)}, not ${expects}`;
}

/**
 * A value as a message shows it: numbers, true and false as written, text quoted (the first
 * QUOTED_TEXT characters), anything else by what it is.
 * @param {unknown} value
 */
function shown(value) {
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (typeof value === 'string') {
    const quoted = JSON.stringify(value.slice(0, QUOTED_TEXT));
    return value.length > QUOTED_TEXT ? `${quoted.slice(0, -1)}..."` : quoted;
  }
  if (Array.isArray(value)) return 'a list';
  return value && typeof value === 'object' ? 'an object' : typeof value;
}

/**
 * A kind of single value (a number, a text), taken as it is once `accepts` says yes.
 * @template T
 * @param {string} kind
 * @param {string} expects
 * @param {(value: unknown) => boolean} accepts
 * @returns {ReportKind<T>}
 */
function single(kind, expects, accepts) {
  return {
    kind,
    expects,
    read(value, path) {
      if (value === undefined || value === null) throw new ReportProblem(path, { absent: true });
      if (!accepts(value)) throw new ReportProblem(path, { value, expects });
      return /** @type {T} */ (value);
    },
  };
}

/**
 * A whole number >= 0 (a count of sentences, of parameters, a layer's index).
 * @type {ReportKind<number>}
 */
export const count = single(
  'count',
  'a whole number >= 0',
  (value) => typeof value === 'number' && Number.isSafeInteger(value) && value >= 0,
);

/**
 * A finite number >= 0: every measurement the reports hold (perplexities, BLEU, chrF, shares,
 * attention weights) is one.
 * @type {ReportKind<number>}
 */
export const score = single(
  'score',
  'a finite number >= 0',
  (value) => typeof value === 'number' && Number.isFinite(value) && value >= 0,
);

/**
 * A cosine: a finite number from -1 to 1.
 * @type {ReportKind<number>}
 */
export const cosine = single(
  'cosine',
  'a number from -1 to 1',
  (value) => typeof value === 'number' && value >= -1 && value <= 1,
);

/**
 * Any string.
 * @type {ReportKind<string>}
 */
export const text = single('text', 'a text', (value) => typeof value === 'string');

/**
 * Exactly `expected` (a report's `format`). Among a shape's fields, it says what the shape is.
 * @template {string | number | boolean} T
 * @param {T} expected
 * @returns {ReportKind<T>}
 */
export function literal(expected) {
  return single('literal', JSON.stringify(expected), (value) => value === expected);
}

/**
 * Any object of plain data (settings the report passes on whole), copied deep and frozen.
 * @type {ReportKind<Readonly<Record<string, unknown>>>}
 */
export const anyObject = {
  kind: 'anyObject',
  expects: 'an object',
  read(value, path) {
    if (value === undefined || value === null) throw new ReportProblem(path, { absent: true });
    if (typeof value !== 'object' || Array.isArray(value)) {
      throw new ReportProblem(path, { value, expects: 'an object' });
    }
    /** @type {Record<string, unknown>} */
    let copy;
    try {
      copy = structuredClone(/** @type {Record<string, unknown>} */ (value));
    } catch {
      throw new ReportProblem(path, { value, expects: 'an object of plain data' });
    }
    return deepFreeze(copy);
  },
};

/**
 * `kind`, or null: the field must be there, and null says it has no value.
 * @template T
 * @param {ReportKind<T>} kind
 * @returns {ReportKind<T | null>}
 */
export function nullable(kind) {
  return {
    kind: 'nullable',
    expects: `${kind.expects} or null`,
    read: (value, path) => (value === null ? null : kind.read(value, path)),
  };
}

/**
 * `kind`, or nothing: an absent or null field reads as null.
 * @template T
 * @param {ReportKind<T>} kind
 * @returns {ReportKind<T | null>}
 */
export function optional(kind) {
  return {
    kind: 'optional',
    expects: kind.expects,
    read: (value, path) => (value === undefined || value === null ? null : kind.read(value, path)),
  };
}

/**
 * A list whose every item is `item`; read as a frozen array of the items' copies.
 * @template T
 * @param {ReportKind<T>} item
 * @returns {ReportKind<readonly T[]>}
 */
export function list(item) {
  const expects = 'a list';
  return {
    kind: 'list',
    expects,
    read(value, path) {
      if (value === undefined || value === null) throw new ReportProblem(path, { absent: true });
      if (!Array.isArray(value)) throw new ReportProblem(path, { value, expects });
      const length = value.length;
      /** @type {T[]} */
      const items = [];
      for (let i = 0; i < length; i++) items.push(item.read(value[i], `${path}[${i}]`));
      return Object.freeze(items);
    },
  };
}

/**
 * An object with these named fields, each of its own kind; read as a frozen object of the
 * declared fields only, in their declared order. Its literal fields are checked first: a value
 * whose literal differs is not `name`. `check` states what the fields must hold together, as the
 * phrase a message ends with (`'ends before it starts'`), or null when they hold it.
 * @template {Record<string, ReportKind<unknown>>} Fields
 * @param {Fields} fields
 * @param {{ name?: string, check?: (value: ShapeOf<Fields>) => string | null }} [options]
 * @returns {ReportKind<Readonly<ShapeOf<Fields>>>}
 */
export function shape(fields, { name = 'an object', check } = {}) {
  const declared = Object.entries(fields);
  const tags = declared.filter(([, kind]) => kind.kind === 'literal');
  return {
    kind: 'shape',
    expects: name,
    read(value, path) {
      if (value === undefined || value === null) throw new ReportProblem(path, { absent: true });
      if (typeof value !== 'object' || Array.isArray(value)) {
        throw new ReportProblem(path, { value, expects: name });
      }
      const at = (/** @type {string} */ field) =>
        Object.hasOwn(value, field) ? /** @type {any} */ (value)[field] : undefined;
      for (const [field, kind] of tags) {
        try {
          kind.read(at(field), field);
        } catch (error) {
          if (!(error instanceof ReportProblem)) throw error;
          throw new ReportProblem(path, { says: `is not ${name}` });
        }
      }
      const read = /** @type {ShapeOf<Fields>} */ (
        Object.fromEntries(
          declared.map(([field, kind]) => [
            field,
            kind.read(at(field), path ? `${path}.${field}` : field),
          ]),
        )
      );
      const says = check?.(read);
      if (says) throw new ReportProblem(path, { says });
      return Object.freeze(read);
    },
  };
}

/**
 * Freezes an object and everything in it (plain data, as JSON gives).
 * @template T
 * @param {T} value
 * @returns {T}
 */
function deepFreeze(value) {
  if (value && typeof value === 'object') {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}
