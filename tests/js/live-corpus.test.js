// The corpus sample the page trains its small language model on live (web/public/models/
// brown-live-*.bin) is what tools/make-live-corpus.js makes from the corpus splits: rebuilt here
// from build/corpus/ (npm test builds it first), byte for byte, and read back to check its shape.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';

import {
  HELD_OUT_TOKENS,
  LIVE_FILES,
  TRAIN_STRIDE,
  liveCorpus,
} from '../../tools/make-live-corpus.js';
import { readCorpus } from '../../web/src/text/corpus.js';

const read = (/** @type {string} */ path) =>
  readFileSync(new URL(`../../${path}`, import.meta.url));

test('the committed sample is what the script makes from the corpus splits', () => {
  const made = liveCorpus(
    read('build/corpus/brown-train.bin'),
    read('build/corpus/brown-validation.bin'),
  );
  assert.deepEqual(made.train, new Uint8Array(read(`web/public/models/${LIVE_FILES.train}`)));
  assert.deepEqual(made.heldOut, new Uint8Array(read(`web/public/models/${LIVE_FILES.heldOut}`)));
});

test('every eighth train sample whole, and the start of every validation sample', () => {
  const full = readCorpus(read('build/corpus/brown-train.bin'));
  const train = readCorpus(read(`web/public/models/${LIVE_FILES.train}`));
  const heldOut = readCorpus(read(`web/public/models/${LIVE_FILES.heldOut}`));
  const validation = readCorpus(read('build/corpus/brown-validation.bin'));
  assert.equal(train.split, 'train');
  assert.equal(heldOut.split, 'validation');
  assert.equal(train.sampleCount, Math.ceil(full.sampleCount / TRAIN_STRIDE));
  assert.deepEqual(
    Array.from(train.sources),
    Array.from(full.sources).filter((_, i) => i % TRAIN_STRIDE === 0),
  );
  assert.equal(heldOut.sampleCount, validation.sampleCount);
  for (let i = 0; i < heldOut.sampleCount; i++) {
    assert.equal(heldOut.offsets[i + 1] - heldOut.offsets[i], HELD_OUT_TOKENS);
  }
  assert.equal(train.vocabularyHash, full.vocabularyHash);
});
