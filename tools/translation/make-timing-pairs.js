// Writes the batch of sentence pairs on which the page times one training step of lesson 1's
// attention translator and of the Transformer (lesson 2's recurrence slide;
// docs/translation-corpus.md, "The timing batch"): TIMING_PAIRS pairs spread evenly over the
// validation split of the translation corpus (build/corpus/translation/validation.bin, npm run
// corpus:translation), pair floor(i P / TIMING_PAIRS) for i = 0, 1, ..., so that it holds the
// dictionary's sentences and the help's paragraphs in the split's proportion. The file is in the
// corpus's own pairs format (tools/translation/pairs-format.js) and committed as
// web/public/models/translation-timing.bin; this script rebuilds it byte for byte, and
// tests/js/timing-pairs.test.js checks that it does.
//
//   node tools/translation/make-timing-pairs.js [--corpus <folder>] [--out <file>]
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';

import { encodePairs, readPairs } from './pairs-format.js';

/** Pairs in the batch: the committed training's batch size. */
export const TIMING_PAIRS = 64;
/** Where the file is committed, from the repository's root. */
export const TIMING_FILE = 'web/public/models/translation-timing.bin';

const root = fileURLToPath(new URL('../..', import.meta.url));

/**
 * The timing batch from the validation split's bytes.
 * @param {Uint8Array} validationBytes build/corpus/translation/validation.bin
 * @returns {Uint8Array} a pairs file of TIMING_PAIRS pairs, split 'validation'
 */
export function timingPairs(validationBytes) {
  const file = readPairs(validationBytes);
  const { pairs } = file;
  if (file.split !== 'validation') throw new Error('expected the validation split');
  if (pairs.length < TIMING_PAIRS) throw new Error(`expected at least ${TIMING_PAIRS} pairs`);
  const picked = Array.from(
    { length: TIMING_PAIRS },
    (_, i) => pairs[Math.floor((i * pairs.length) / TIMING_PAIRS)],
  );
  return encodePairs({
    split: file.split,
    englishClasses: file.englishClasses,
    englishUnknownId: file.englishUnknownId,
    englishVocabularyHash: file.englishVocabularyHash,
    germanClasses: file.germanClasses,
    germanVocabularyHash: file.germanVocabularyHash,
    pairs: picked,
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const argv = process.argv.slice(2);
  const flag = (/** @type {string} */ name, /** @type {string} */ fallback) => {
    const i = argv.indexOf(name);
    return i >= 0 && argv[i + 1] ? argv[i + 1] : fallback;
  };
  const corpus = flag('--corpus', join(root, 'build/corpus/translation'));
  const out = flag('--out', join(root, TIMING_FILE));
  const bytes = timingPairs(readFileSync(join(corpus, 'validation.bin')));
  writeFileSync(out, bytes);
  const { pairs } = readPairs(bytes);
  const tokens = (/** @type {'english' | 'german'} */ side) =>
    pairs.reduce((sum, pair) => sum + pair[side].length, 0);
  console.log(
    `${out}: ${pairs.length} pairs, ${tokens('english')} English and ${tokens('german')} German tokens, ${bytes.length} bytes`,
  );
}
