// attention({ into }) refills the arrays of an earlier result instead of making new ones: the
// same numbers as a fresh call, in the same arrays, for every variant the facade takes.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { loadEngine } from 'attention-lab';
import { randomQkv } from './helpers.js';

const engine = await loadEngine();

const TRACE = ['scores', 'scaled', 'masked', 'weights', 'output'];

/**
 * @param {number} nq
 * @param {number} nk
 * @param {number} dk
 * @param {number} dv
 * @param {number} seed
 */
const inputs = (nq, nk, dk, dv, seed) => randomQkv(engine, { nq, nk, dk, dv }, seed);

test('a call into an earlier result gives the numbers of a fresh call, in the same arrays', () => {
  const variants = [
    {},
    { causal: true },
    { temperature: 0.5, scale: false },
    { keyPadding: [false, true, false, false, true, false, false] },
  ];
  for (const variant of variants) {
    const earlier = engine.attention({ ...inputs(7, 7, 5, 3, 1), ...variant });
    const arrays = TRACE.map((name) => earlier[name]);
    const next = { ...inputs(7, 7, 5, 3, 40), ...variant };
    const fresh = engine.attention(next);
    const refilled = engine.attention({ ...next, into: earlier });
    assert.equal(refilled, earlier, 'the result handed in is the one returned');
    TRACE.forEach((name, i) => {
      assert.equal(refilled[name], arrays[i], `${name} is still the same array`);
      assert.deepEqual(refilled[name], fresh[name], `${name} (${JSON.stringify(variant)})`);
    });
  }
});

test('without the trace, into takes and refills only the weights and the output', () => {
  const earlier = engine.attention({ ...inputs(4, 6, 8, 2, 7), trace: false });
  const next = { ...inputs(4, 6, 8, 2, 70), trace: false };
  const fresh = engine.attention(next);
  const refilled = engine.attention({ ...next, into: earlier });
  assert.equal(refilled, earlier);
  assert.deepEqual(Object.keys(refilled).sort(), ['output', 'weights']);
  assert.deepEqual(refilled.weights, fresh.weights);
  assert.deepEqual(refilled.output, fresh.output);
});

test('refilling one result leaves an earlier, separate result untouched', () => {
  const first = engine.attention(inputs(5, 5, 4, 4, 3));
  const kept = TRACE.map((name) => first[name].slice());
  const second = engine.attention(inputs(5, 5, 4, 4, 30));
  engine.attention({ ...inputs(5, 5, 4, 4, 300), into: second });
  TRACE.forEach((name, i) => assert.deepEqual(first[name], kept[i], name));
});

test('into may be arrays of the caller’s own, each in a buffer of its own', () => {
  const input = inputs(3, 6, 4, 5, 11);
  const fresh = engine.attention(input);
  const own = Object.fromEntries(TRACE.map((name) => [name, new Float32Array(fresh[name].length)]));
  const refilled = engine.attention({ ...input, into: own });
  assert.equal(refilled, own);
  for (const name of TRACE) assert.deepEqual(own[name], fresh[name], name);
  // Views of one larger buffer, not starting at its beginning: copied one by one all the same.
  const big = new Float32Array(1 + 3 * 6 * 4 + 3 * 5);
  let at = 1;
  const views = Object.fromEntries(
    TRACE.map((name) => {
      const view = big.subarray(at, at + fresh[name].length);
      at += fresh[name].length;
      return [name, view];
    }),
  );
  engine.attention({ ...input, into: views });
  for (const name of TRACE) assert.deepEqual(views[name], fresh[name], name);
  assert.equal(big[0], 0, 'nothing is written before the first view');
});
