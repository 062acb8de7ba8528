// Seeded initialisation is bit-for-bit the same in the wasm engine and the native build: the
// native tool build/native/attn_seeded prints each float32 as its 8-hex-digit IEEE-754 bit pattern,
// which is compared with the engine's Float32Array seen through a Uint32Array.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';

import { loadEngine } from 'attention-lab';

import { ROOT } from './helpers.js';

const engine = await loadEngine();

const SEEDED_TOOL = join(ROOT, 'build', 'native', 'attn_seeded');
if (!existsSync(SEEDED_TOOL)) {
  throw new Error(`${SEEDED_TOOL} is missing: run npm run build (npm test builds it first)`);
}

/**
 * The native build's numbers as bit patterns.
 * @param {'glorot' | 'normal'} kind
 * @param {number} rows
 * @param {number} cols
 * @param {number} seed
 * @returns {number[]}
 */
function nativeBits(kind, rows, cols, seed) {
  const text = execFileSync(SEEDED_TOOL, [kind, String(rows), String(cols), String(seed)], {
    encoding: 'utf8',
  });
  const lines = text.trim().split('\n');
  for (const line of lines) assert.match(line, /^[0-9a-f]{8}$/, `attn_seeded printed ${line}`);
  return lines.map((line) => Number.parseInt(line, 16));
}

/**
 * The bit patterns of a Float32Array, as unsigned integers.
 * @param {Float32Array} values
 * @returns {number[]}
 */
function bitsOf(values) {
  assert.ok(values instanceof Float32Array, 'the engine returns a Float32Array');
  return Array.from(new Uint32Array(values.buffer, values.byteOffset, values.length));
}

/**
 * Asserts two lists of bit patterns are identical, naming the first difference in hex.
 * @param {number[]} wasm
 * @param {number[]} native
 * @param {string} what
 */
function assertSameBits(wasm, native, what) {
  assert.equal(
    wasm.length,
    native.length,
    `${what}: ${wasm.length} values, native has ${native.length}`,
  );
  const hex = (/** @type {number} */ bits) => bits.toString(16).padStart(8, '0');
  const first = wasm.findIndex((bits, i) => bits !== native[i]);
  assert.equal(
    first,
    -1,
    first < 0
      ? ''
      : `${what}: value ${first} is ${hex(wasm[first])} in wasm, ${hex(native[first])} natively`,
  );
}

// Odd sizes, a 1x1, a long vector, and seeds including 0 and the largest 32-bit seed.
const SHAPES = [
  [1, 1, 0],
  [3, 5, 1],
  [8, 8, 42],
  [17, 3, 123456789],
  [64, 64, 7],
  [1, 1000, 4294967295],
];

describe('native and wasm agree bit for bit', () => {
  for (const [rows, cols, seed] of SHAPES) {
    test(`glorotUniform(${rows}, ${cols}, ${seed}) gives the same bits natively and in wasm`, () => {
      assertSameBits(
        bitsOf(engine.glorotUniform(rows, cols, seed)),
        nativeBits('glorot', rows, cols, seed),
        'glorot',
      );
    });
    test(`unitNormal(${rows}, ${cols}, ${seed}) gives the same bits natively and in wasm`, () => {
      assertSameBits(
        bitsOf(engine.unitNormal(rows, cols, seed)),
        nativeBits('normal', rows, cols, seed),
        'normal',
      );
    });
  }
});

describe('seeded numbers', () => {
  test('the same seed gives the same numbers twice', () => {
    assertSameBits(
      bitsOf(engine.glorotUniform(6, 7, 5)),
      bitsOf(engine.glorotUniform(6, 7, 5)),
      'glorot',
    );
    assertSameBits(
      bitsOf(engine.unitNormal(6, 7, 5)),
      bitsOf(engine.unitNormal(6, 7, 5)),
      'normal',
    );
  });

  test('different seeds give different numbers', () => {
    for (const make of [engine.glorotUniform, engine.unitNormal]) {
      const a = bitsOf(make(4, 4, 1));
      const b = bitsOf(make(4, 4, 2));
      const same = a.filter((bits, i) => bits === b[i]).length;
      assert.ok(same < 2, `${same} of 16 values agree between seeds 1 and 2`);
    }
  });

  test('unit normal samples have mean about 0 and variance about 1', () => {
    const n = 40000;
    const x = engine.unitNormal(200, 200, 2024);
    const mean = x.reduce((a, b) => a + b, 0) / n;
    const variance = x.reduce((a, b) => a + (b - mean) ** 2, 0) / n;
    // Standard errors: 1 / sqrt(n) = 0.005 for the mean, sqrt(2 / n) = 0.007 for the variance;
    // the bounds are 4 of them.
    assert.ok(Math.abs(mean) < 0.02, `mean ${mean}`);
    assert.ok(Math.abs(variance - 1) < 0.03, `variance ${variance}`);
    const within1 = x.filter((v) => Math.abs(v) < 1).length / n;
    assert.ok(Math.abs(within1 - 0.6827) < 0.01, `${within1} of the samples lie within 1 of 0`);
  });

  test('glorotUniform stays within +-sqrt(6 / (rows + cols)) and fills that range evenly', () => {
    const [rows, cols] = [30, 50];
    const limit = Math.sqrt(6 / (rows + cols));
    const w = engine.glorotUniform(rows, cols, 3);
    w.forEach((value, i) =>
      assert.ok(Math.abs(value) <= limit, `entry ${i} is ${value}, limit ${limit}`),
    );
    const mean = w.reduce((a, b) => a + b, 0) / w.length;
    const variance = w.reduce((a, b) => a + (b - mean) ** 2, 0) / w.length;
    // U(-a, a) has variance a^2 / 3; 1500 samples put the estimate within about 5%.
    assert.ok(Math.abs(variance / ((limit * limit) / 3) - 1) < 0.1, `variance ${variance}`);
    assert.ok(Math.abs(mean) < 0.1 * limit, `mean ${mean}`);
  });
});
