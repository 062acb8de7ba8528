// The batch on which lesson 2's recurrence slide times a training step
// (web/public/models/translation-timing.bin) is what tools/translation/make-timing-pairs.js makes
// from the translation corpus's validation split: rebuilt here from build/corpus/translation/ (npm
// test builds it first), byte for byte, and read back to check what it holds.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';

import {
  TIMING_FILE,
  TIMING_PAIRS,
  timingPairs,
} from '../../tools/translation/make-timing-pairs.js';
import { readPairs } from '../../tools/translation/pairs-format.js';
import { TIMING_PAIRS_PATH } from '../../web/src/data-files.js';

const read = (/** @type {string} */ path) =>
  new Uint8Array(readFileSync(new URL(`../../${path}`, import.meta.url)));
const VALIDATION = 'build/corpus/translation/validation.bin';

test('the committed batch is what the script makes from the validation split', () => {
  assert.equal(TIMING_FILE, `web/public/${TIMING_PAIRS_PATH}`);
  assert.deepEqual(timingPairs(read(VALIDATION)), read(TIMING_FILE));
});

test('it holds pairs spread evenly over the validation split, with its header', () => {
  const validation = readPairs(read(VALIDATION));
  const batch = readPairs(read(TIMING_FILE));
  assert.equal(batch.pairs.length, TIMING_PAIRS);
  assert.deepEqual({ ...batch, pairs: [] }, { ...validation, pairs: [] });
  const { pairs } = batch;
  pairs.forEach((pair, i) => {
    const from = validation.pairs[Math.floor((i * validation.pairs.length) / TIMING_PAIRS)];
    assert.deepEqual(pair, from, `pair ${i}`);
  });
  // Both sources of the split are in it.
  assert.deepEqual([...new Set(pairs.map((pair) => pair.source))].sort(), [0, 1]);
});
