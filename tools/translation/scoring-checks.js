// Checks of the scoring functions' inputs, and how their error messages name a value.

/**
 * A short description of a value: its type and, for small things, the value itself.
 * @param {unknown} value
 * @returns {string}
 */
export function describe(value) {
  if (value === null) return 'null';
  if (Array.isArray(value)) return `an array of length ${value.length}`;
  if (typeof value === 'string') return `the string ${JSON.stringify(value.slice(0, 40))}`;
  if (typeof value === 'object') return `an object (${value.constructor?.name ?? 'no prototype'})`;
  return `${typeof value} ${String(value)}`;
}

/**
 * Throws unless `tokens` is an array of non-empty strings.
 * @param {string} fn  the function the message names
 * @param {string} where  how the message names the array, e.g. "pairs[3].hypothesis"
 * @param {unknown} tokens
 */
export function checkTokens(fn, where, tokens) {
  if (!Array.isArray(tokens)) {
    throw new TypeError(`${fn}: ${where} must be an array of strings, got ${describe(tokens)}`);
  }
  for (let k = 0; k < tokens.length; k++) {
    const token = tokens[k];
    if (typeof token !== 'string') {
      throw new TypeError(`${fn}: ${where}[${k}] must be a string, got ${describe(token)}`);
    }
    // An empty token is what splitting on single spaces makes of a double space: no word, and
    // counted, it would score as one.
    if (token === '') {
      throw new RangeError(`${fn}: ${where}[${k}] is an empty string; a token is never empty`);
    }
  }
}
