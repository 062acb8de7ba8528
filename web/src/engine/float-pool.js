// New Float32Arrays for results, small ones cut one after another out of a shared block of
// memory, the way Node's Buffer pool serves small buffers. Every new ArrayBuffer measured about
// 1 µs of fixed cost here (a 9 kB one about 2 µs, the whole of a 16-query attention's
// arithmetic), a view onto an existing one about 0.04 µs. A region is handed out once and never
// reused, so every array is as fresh and independent as a new one; what differs is that small
// arrays share their `buffer`, which therefore must not be transferred or detached.

/** Floats per block: 64 kB (a 64 kB buffer measured 4 µs to make, a 256 kB one 16 to 25 µs). */
const BLOCK_FLOATS = 1 << 14;
/** Larger requests get an ArrayBuffer of their own; at most a quarter of a block is left unused. */
const LARGEST_POOLED = BLOCK_FLOATS >>> 2;

/**
 * @typedef {object} FloatPool
 * @property {(count: number) => Float32Array} zeros a new array of `count` zeros
 * @property {(values: Float32Array) => Float32Array} copy a new array holding a copy of `values`:
 *   a large one is made by `slice()`, which does not fill it with zeros first (at 1 MB that
 *   filling measured a tenth of an n = 256 attention call's copying out)
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
    zeros: (count) => (count > LARGEST_POOLED ? new Float32Array(count) : fromBlock(count)),
    copy(values) {
      if (values.length > LARGEST_POOLED) return values.slice();
      const array = fromBlock(values.length);
      array.set(values);
      return array;
    },
  };
}
