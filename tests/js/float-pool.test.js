// Small results are cut out of shared blocks (web/src/engine/float-pool.js); each must still be as
// fresh and independent as an array of its own.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { loadEngine } from 'attention-lab';
import { createFloatPool } from '../../web/src/engine/float-pool.js';
import { randomQkv } from './helpers.js';

test('the pool hands out copies that never overlap, small ones from shared blocks', () => {
  const pool = createFloatPool();
  const arrays = Array.from({ length: 40 }, (_, i) =>
    pool.copy(new Float32Array(1000 + i).fill(-1 - i)),
  );
  arrays.forEach((array, i) => {
    assert.equal(array.length, 1000 + i);
    const expected = -1 - i;
    assert.ok(
      array.every((x) => x === expected),
      `array ${i} holds what it was made with`,
    );
    array.fill(i + 1);
  });
  arrays.forEach((array, i) =>
    assert.ok(
      array.every((x) => x === i + 1),
      `array ${i} kept`,
    ),
  );
  assert.equal(arrays[0].buffer, arrays[1].buffer, 'two small arrays share a block');
  assert.notEqual(arrays[0].buffer, arrays[39].buffer, 'a full block is followed by a new one');
  const source = Float32Array.from({ length: 1 << 16 }, (_, i) => i);
  const copied = pool.copy(source);
  assert.notEqual(copied.buffer, source.buffer);
  assert.equal(copied.buffer.byteLength, source.byteLength, 'a large copy has a buffer of its own');
  assert.deepEqual(copied, source);
});

test('attention results cut from one block stay intact through later calls', async () => {
  const engine = await loadEngine();
  const results = [];
  const expected = [];
  // 12 x 12 with the trace, d = 8: 672 floats a result, so 60 of them fill more than two blocks,
  // with calls of other sizes between them.
  for (let seed = 1; seed <= 60; seed++) {
    const inputs = randomQkv(engine, { nq: 12, nk: 12, dk: 8, dv: 8 }, seed);
    const result = engine.attention(inputs);
    results.push(result);
    expected.push(Object.fromEntries(Object.entries(result).map(([k, a]) => [k, a.slice()])));
    if (seed % 7 === 0) engine.attention(randomQkv(engine, { nq: 5, nk: 9, dk: 3, dv: 2 }, seed));
  }
  assert.equal(results[0].weights.buffer, results[1].weights.buffer, 'small results share blocks');
  results.forEach((result, i) => {
    for (const name of Object.keys(expected[i])) {
      assert.deepEqual(result[name], expected[i][name], `result ${i}: ${name}`);
    }
  });
});
