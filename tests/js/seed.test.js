// The seed box every seeded figure shares (web/src/widgets/shared/seed.js): what it accepts is what
// the engine accepts, and every figure that has one reads it through this module.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { loadEngine } from 'attention-lab';
import { MAX_SEED, SEED_PROBLEM, parseSeed } from '../../web/src/widgets/shared/seed.js';
import { widgetFilesMatching } from './helpers.js';

describe('the seed box', () => {
  test('a seed is a whole number from 0 to 2^32 - 1, spaces around it allowed', () => {
    assert.equal(MAX_SEED, 2 ** 32 - 1);
    for (const ok of ['0', '1', ' 42 ', String(MAX_SEED)]) assert.equal(parseSeed(ok), Number(ok));
    for (const bad of ['', '  ', '-1', '1.5', 'seven', String(MAX_SEED + 1), '1e100']) {
      assert.equal(parseSeed(bad), null, JSON.stringify(bad));
    }
    assert.match(SEED_PROBLEM, /whole number from 0 to 4294967295/);
  });

  test('the largest seed is one the engine accepts, and one more is refused', async () => {
    const engine = await loadEngine();
    assert.doesNotThrow(() => engine.glorotUniform(2, 2, MAX_SEED));
    assert.throws(() => engine.glorotUniform(2, 2, MAX_SEED + 1), /seed/);
  });

  test('no widget defines a seed parser or range of its own', () => {
    const own = widgetFilesMatching(
      /function parseSeed\(text\)\s*\{\s*const value = Number|4294967295/,
    );
    assert.deepEqual(own, []);
  });
});
