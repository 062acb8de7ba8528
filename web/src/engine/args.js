// Checks and conversions of the facade's arguments, before anything reaches the wasm core.

/**
 * Throws unless `value` is a whole number of at least `min`.
 * @param {string} where the function, for the message
 * @param {string} name the argument, for the message
 * @param {unknown} value
 * @param {number} [min]
 * @returns {number}
 */
export function requireCount(where, name, value, min = 1) {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min) {
    throw new Error(`${where}: ${name} must be a whole number >= ${min}, got ${describe(value)}`);
  }
  if (value > 2 ** 30) throw new Error(`${where}: ${name} = ${value} is too large`);
  return value;
}

/**
 * Throws unless `values` is an array (or typed array) of whole numbers, each at least `min`.
 * @param {string} where
 * @param {string} name
 * @param {unknown} values
 * @param {number} [min]
 * @returns {ArrayLike<number>}
 */
export function requireCounts(where, name, values, min = 1) {
  if (!isArrayLike(values)) {
    throw new Error(
      `${where}: ${name} must be an array of whole numbers >= ${min}, got ${describe(values)}`,
    );
  }
  for (let i = 0; i < values.length; i++) requireCount(where, `${name}[${i}]`, values[i], min);
  return values;
}

/**
 * Throws unless `value` is a finite number.
 * @param {string} where
 * @param {string} name
 * @param {unknown} value
 * @returns {number}
 */
export function requireNumber(where, name, value) {
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    throw new Error(`${where}: ${name} must be a finite number, got ${describe(value)}`);
  }
  return value;
}

/**
 * Checks that `values` is an array or typed array of exactly rows x cols numbers.
 * @param {string} where
 * @param {string} name
 * @param {unknown} values
 * @param {number} rows
 * @param {number} cols
 * @param {string} shape the names of rows and cols, for the message, e.g. "nq x dk"
 * @returns {ArrayLike<number>}
 */
export function requireMatrix(where, name, values, rows, cols, shape) {
  const count = rows * cols;
  if (values === undefined || values === null) {
    throw new Error(
      `${where}: ${name} is missing; expected ${count} values (${shape} = ${rows}x${cols})`,
    );
  }
  if (!isArrayLike(values)) {
    throw new Error(`${where}: ${name} must be a Float32Array or an array of numbers`);
  }
  if (values.length !== count) {
    throw new Error(
      `${where}: ${name} has ${values.length} values but must have ${count} ` +
        `(${shape} = ${rows}x${cols})`,
    );
  }
  return values;
}

/**
 * Key padding flags as bytes (1 = padded), or null for none.
 * @param {string} where
 * @param {ArrayLike<boolean | number> | null | undefined} flags
 * @param {number} nk
 * @returns {Uint8Array | null}
 */
export function paddingBytes(where, flags, nk) {
  if (flags === undefined || flags === null) return null;
  if (!isArrayLike(flags)) {
    throw new Error(`${where}: keyPadding must be a Uint8Array or an array of booleans`);
  }
  if (flags.length !== nk) {
    throw new Error(`${where}: keyPadding has ${flags.length} flags but there are ${nk} keys`);
  }
  return Uint8Array.from(Array.prototype.map.call(flags, (flag) => (flag ? 1 : 0)));
}

/**
 * Bytes as a Uint8Array: a Uint8Array itself (a Node Buffer is one) or an ArrayBuffer.
 * @param {string} where
 * @param {string} name
 * @param {unknown} bytes
 * @returns {Uint8Array}
 */
export function requireBytes(where, name, bytes) {
  if (bytes instanceof Uint8Array) return bytes;
  if (bytes instanceof ArrayBuffer) return new Uint8Array(bytes);
  throw new Error(
    `${where}: ${name} must be a Uint8Array or an ArrayBuffer, got ${describe(bytes)}`,
  );
}

/**
 * Checks that `values` is an array of strings.
 * @param {string} where
 * @param {string} name
 * @param {unknown} values
 * @returns {string[]}
 */
export function requireStrings(where, name, values) {
  if (!Array.isArray(values)) {
    throw new Error(`${where}: ${name} must be an array of strings, got ${describe(values)}`);
  }
  values.forEach((value, i) => {
    if (typeof value !== 'string') {
      throw new Error(`${where}: ${name}[${i}] must be a string, got ${describe(value)}`);
    }
  });
  return values;
}

/**
 * @param {unknown} value
 * @returns {value is ArrayLike<any>}
 */
function isArrayLike(value) {
  return Array.isArray(value) || (ArrayBuffer.isView(value) && !(value instanceof DataView));
}

/** @param {unknown} value */
function describe(value) {
  if (typeof value === 'string') return JSON.stringify(value);
  if (value === null || value === undefined || typeof value !== 'object') return String(value);
  if (ArrayBuffer.isView(value)) return `a ${value.constructor.name}`;
  return Array.isArray(value) ? 'an array' : 'an object';
}

/**
 * Throws unless `value` is a whole number in [low, high].
 * @param {string} where the call, for the message
 * @param {string} name
 * @param {unknown} value
 * @param {readonly number[]} range [low, high]
 */
export function requireIn(where, name, value, [low, high]) {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < low || value > high) {
    throw new Error(
      `${where}: ${name} must be a whole number from ${low} to ${high}, got ${show(value)}`,
    );
  }
}

/**
 * A value as a message shows it: strings quoted.
 * @param {unknown} value
 */
export function show(value) {
  return typeof value === 'string' ? JSON.stringify(value) : String(value);
}

/**
 * Options over their defaults: `options` must be an object whose keys are all defaults' keys; a
 * key given as undefined keeps its default. Throws an Error naming what is wrong.
 * @template {Record<string, unknown>} T
 * @param {string} where
 * @param {unknown} options
 * @param {T} defaults
 * @returns {T} a new object
 */
export function withDefaults(where, options, defaults) {
  if (options === null || typeof options !== 'object' || Array.isArray(options)) {
    throw new Error(`${where}: options must be an object, got ${String(options)}`);
  }
  const unknown = Object.keys(options).filter((key) => !(key in defaults));
  if (unknown.length > 0) {
    throw new Error(
      `${where}: unknown option ${unknown.map((key) => `'${key}'`).join(', ')}; the options are ` +
        Object.keys(defaults).join(', '),
    );
  }
  /** @type {Record<string, unknown>} */
  const merged = { ...defaults };
  for (const [key, value] of Object.entries(options)) {
    if (value !== undefined) merged[key] = value;
  }
  return /** @type {T} */ (merged);
}
