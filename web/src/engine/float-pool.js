// New Float32Arrays for results, small ones cut one after another out of a shared block of
// memory, the way Node's Buffer pool serves small buffers. Every new ArrayBuffer has a fixed cost,
// about as much as the whole arithmetic of a 16-query attention, and a view onto an existing one
// a small part of that (`npm run bench` splits a call at n = 16). A region is handed out once and never
// reused, so every array is as fresh and independent as a new one; what differs is that small
// arrays share their `buffer`, which therefore must not be transferred or detached.

/** Floats per block: 64 kB. A larger buffer costs more to make (the system maps and zeroes it). */
const BLOCK_FLOATS = 1 << 14;
/** Larger requests get an ArrayBuffer of their own; at most a quarter of a block is left unused. */
const LARGEST_POOLED = BLOCK_FLOATS >>> 2;

/**
 * @typedef {object} FloatPool
 * @property {(values: Float32Array) => Float32Array} copy a new array holding a copy of `values`:
 *   a large one is made by `slice()`, which does not fill it with zeros first
 */

/** @returns {FloatPool} */
export function createFloatPool() {
  /** @type {ArrayBuffer | null} */
  let block = null;
  let used = 0;
  /** @param {number} count at most LARGEST_POOLED */
  const fromBlock = (count) => {
    if (block === null || used + count > BLOCK_FLOATS) {
      block = new ArrayBuffer(BLOCK_FLOATS * 4);
      used = 0;
    }
    const array = new Float32Array(block, used * 4, count);
    used += count;
    return array;
  };
  return {
    copy(values) {
      if (values.length > LARGEST_POOLED) return values.slice();
      const array = fromBlock(values.length);
      array.set(values);
      return array;
    },
  };
}
