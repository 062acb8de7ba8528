// New Float32Arrays for small results, cut one after another out of a shared block of memory, the
// way Node's Buffer pool serves small buffers. Every new ArrayBuffer measured about 1 µs of fixed
// cost here (a 9 kB one about 2 µs, the whole of a 16-query attention's arithmetic), a view onto
// an existing one about 0.04 µs. A region is handed out once and never reused, so every array is
// as fresh and independent as a new one; what differs is that small arrays share their `buffer`,
// which therefore must not be transferred or detached.

/** Floats per block: 64 kB, below the size at which the system maps fresh pages for each block. */
const BLOCK_FLOATS = 1 << 14;
/** Larger requests get an ArrayBuffer of their own; at most a quarter of a block is left unused. */
const LARGEST_POOLED = BLOCK_FLOATS >>> 2;

/**
 * A function that returns a new, zero-filled Float32Array of `count` values.
 * @returns {(count: number) => Float32Array}
 */
export function createFloatPool() {
  /** @type {ArrayBuffer | null} */
  let block = null;
  let used = 0;
  return function freshFloats(count) {
    if (count > LARGEST_POOLED) return new Float32Array(count);
    if (block === null || used + count > BLOCK_FLOATS) {
      block = new ArrayBuffer(BLOCK_FLOATS * 4);
      used = 0;
    }
    const array = new Float32Array(block, used * 4, count);
    used += count;
    return array;
  };
}
