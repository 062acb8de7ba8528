// The weights file's layout as docs/weights-file.md gives it, walked in JavaScript: the tests read
// what a shipped model file holds, and edit its bytes, without the core's reader.

const ENCODINGS = ['float32', 'float16', 'int8-rows'];

/**
 * @typedef {{ name: string, encoding: string, rows: number, cols: number, at: number,
 *   bytes: number }} TensorEntry  at: the offset of its first value's bytes
 * @typedef {{ kind: string, numbers: Map<string, number>, texts: Map<string, string>,
 *   tensors: TensorEntry[], end: number }} WeightsLayout
 */

/**
 * @param {Uint8Array} bytes a whole file
 * @returns {WeightsLayout}
 */
export function weightsLayout(bytes) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const magic = new TextDecoder('latin1').decode(bytes.subarray(0, 8));
  if (magic !== 'ATTNWTFL') throw new Error(`not a weights file: ${magic}`);
  if (view.getUint32(8, true) !== 1) throw new Error('not version 1');
  let at = 12;
  const u32 = () => {
    const value = view.getUint32(at, true);
    at += 4;
    return value;
  };
  const text = () => {
    const length = u32();
    const value = new TextDecoder().decode(bytes.subarray(at, at + length));
    at += length;
    return value;
  };
  const kind = text();
  const numbers = new Map();
  for (let n = u32(); n > 0; n--) {
    const name = text();
    numbers.set(name, u32());
  }
  const texts = new Map();
  for (let n = u32(); n > 0; n--) {
    const name = text();
    texts.set(name, text());
  }
  const tensors = [];
  for (let n = u32(); n > 0; n--) {
    const name = text();
    const encoding = ENCODINGS[u32()];
    const rows = u32();
    const cols = u32();
    const perRow = { float32: 4 * cols, float16: 2 * cols, 'int8-rows': 4 + cols }[encoding];
    if (perRow === undefined) throw new Error(`${name}: unknown encoding`);
    tensors.push({ name, encoding, rows, cols, at, bytes: rows * perRow });
    at += rows * perRow;
  }
  return { kind, numbers, texts, tensors, end: at };
}
