// Token -> vector. PLACEHOLDER: these are not learned word vectors. Each token gets d numbers
// drawn from N(0, 1) with a seed made from the token itself (32-bit FNV-1a hash of its lower-case
// UTF-8 bytes), so the same word always gets the same vector, but similar words do not get
// similar vectors. A later lesson step replaces this with real word vectors.

/** Length of each placeholder vector. */
export const EMBED_DIM = 16;

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;
const encoder = new TextEncoder();

/**
 * 32-bit FNV-1a hash of the UTF-8 bytes of a string.
 * @param {string} text
 * @returns {number} an unsigned 32-bit integer
 */
export function fnv1a32(text) {
  let hash = FNV_OFFSET;
  for (const byte of encoder.encode(text)) {
    hash ^= byte;
    hash = Math.imul(hash, FNV_PRIME);
  }
  return hash >>> 0;
}

/**
 * Builds the embedding matrix X (n x d, row-major) for a list of tokens.
 * @param {string[]} tokens the tokens, one row each
 * @param {(rows: number, cols: number, seed: number) => Float32Array} unitNormal the engine's
 *   seeded N(0, 1) generator
 * @param {number} [d] the vector length
 * @returns {Float32Array} X, with row i the vector of tokens[i]
 */
export function embedTokens(tokens, unitNormal, d = EMBED_DIM) {
  const x = new Float32Array(tokens.length * d);
  const cache = new Map();
  tokens.forEach((token, i) => {
    const key = token.toLowerCase();
    let row = cache.get(key);
    if (!row) {
      row = unitNormal(1, d, fnv1a32(key));
      cache.set(key, row);
    }
    x.set(row, i * d);
  });
  return x;
}
