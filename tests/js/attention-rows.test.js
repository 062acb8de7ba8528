// The core computes attention four query rows at a time, then two, then one, and every row must
// come out as if it had been computed on its own, whatever band it fell in and however many rows
// the call has.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { loadEngine } from 'attention-lab';
import { assertClose, randomQkv } from './helpers.js';

const engine = await loadEngine();

// 3,000 queries of 96 keys: 3,000 x (4 x 96 + 6) = 1.17 million floats with the trace (4.7 MB).
const SIZES = { nq: 3000, nk: 96, dk: 8, dv: 6 };
const TRACE = ['scores', 'scaled', 'masked', 'weights', 'output'];

/**
 * Query row i of the inputs, alone: nq = 1.
 * @param {ReturnType<typeof randomQkv>} inputs
 * @param {number} i
 */
const oneQuery = (inputs, i) => ({
  ...inputs,
  q: inputs.q.subarray(i * inputs.dk, (i + 1) * inputs.dk),
  nq: 1,
});

/**
 * The rows of `name` that belong to query i.
 * @param {Record<string, Float32Array>} result
 * @param {string} name
 * @param {number} i
 */
const rowOf = (result, name, i) => {
  const width = name === 'output' ? SIZES.dv : SIZES.nk;
  return result[name].subarray(i * width, (i + 1) * width);
};

test('every query row of a long call is the same bits as that query alone', () => {
  const inputs = randomQkv(engine, SIZES, 11);
  const padding = Array.from({ length: SIZES.nk }, (_, j) => j % 5 === 3);
  for (const variant of [{}, { keyPadding: padding, temperature: 0.7 }, { scale: false }]) {
    const whole = engine.attention({ ...inputs, ...variant });
    const lean = engine.attention({ ...inputs, ...variant, trace: false });
    for (let i = 0; i < SIZES.nq; i++) {
      const alone = engine.attention({ ...oneQuery(inputs, i), ...variant });
      for (const name of TRACE) {
        assert.deepEqual(rowOf(whole, name, i), alone[name], `row ${i}: ${name}`);
      }
      assert.deepEqual(rowOf(lean, 'weights', i), alone.weights, `row ${i}: lean weights`);
      assert.deepEqual(rowOf(lean, 'output', i), alone.output, `row ${i}: lean output`);
    }
  }
});

test('a long causal call matches each query against its visible keys only', () => {
  const n = 601; // 601 x (4 x 601 + 6) floats (5.8 MB): bands of four, then one row
  const inputs = randomQkv(engine, { nq: n, nk: n, dk: 8, dv: 6 }, 5);
  const whole = engine.attention({ ...inputs, causal: true });
  for (const i of [0, 1, 47, 48, 49, 299, 300, 599, 600]) {
    // Query i with every later key padded sees what the causal mask lets it see.
    const padding = Array.from({ length: n }, (_, j) => j > i);
    const alone = engine.attention({ ...oneQuery(inputs, i), keyPadding: padding });
    for (const name of TRACE) {
      const width = name === 'output' ? 6 : n;
      const row = whole[name].subarray(i * width, (i + 1) * width);
      assertClose(row, alone[name], `causal row ${i}: ${name}`);
    }
  }
});
