// Writes the corpus sample the page trains its small language model on, live, in the learner's
// browser (docs/language-model.md, "Training it live"): from the splits tools/make-corpus.js
// writes (build/corpus/), every TRAIN_STRIDE-th train sample whole, and the first HELD_OUT_TOKENS
// tokens of every validation sample, which the heads are measured on. Both files are in the
// corpus format (docs/corpus.md) and committed under web/public/models/; this script rebuilds
// them byte for byte, and tests/js/live-corpus.test.js checks that it does.
//
//   node tools/make-live-corpus.js [--dir <folder with the corpus files>] [--out <folder>]
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';

import { encodeCorpus, readCorpus, sampleIds } from '../web/src/text/corpus.js';

/** Every how many train samples one is kept (ca01, ca09, ...: each genre in proportion). */
export const TRAIN_STRIDE = 8;
/** How much of each validation sample is kept: the measurement reads the first context tokens. */
export const HELD_OUT_TOKENS = 64;
export const LIVE_FILES = Object.freeze({
  train: 'brown-live-train.bin',
  heldOut: 'brown-live-heldout.bin',
});

const root = fileURLToPath(new URL('..', import.meta.url));

/**
 * The two files from the full splits' bytes.
 * @param {Uint8Array} trainBytes build/corpus/brown-train.bin
 * @param {Uint8Array} validationBytes build/corpus/brown-validation.bin
 * @returns {{ train: Uint8Array, heldOut: Uint8Array }}
 */
export function liveCorpus(trainBytes, validationBytes) {
  const train = readCorpus(trainBytes);
  const validation = readCorpus(validationBytes);
  if (train.split !== 'train' || validation.split !== 'validation') {
    throw new Error('expected the train and the validation split');
  }
  const pick = (
    /** @type {import('../web/src/text/corpus.js').Corpus} */ corpus,
    /** @type {(i: number) => boolean} */ keep,
    /** @type {number} */ tokens,
  ) =>
    Array.from({ length: corpus.sampleCount }, (_, i) => i)
      .filter(keep)
      .map((i) => ({ source: corpus.sources[i], ids: sampleIds(corpus, i).subarray(0, tokens) }));
  const header = (/** @type {import('../web/src/text/corpus.js').Corpus} */ corpus) => ({
    split: corpus.split,
    classes: corpus.classes,
    unknownId: corpus.unknownId,
    vocabularyHash: corpus.vocabularyHash,
  });
  return {
    train: encodeCorpus({
      ...header(train),
      samples: pick(train, (i) => i % TRAIN_STRIDE === 0, Infinity),
    }),
    heldOut: encodeCorpus({
      ...header(validation),
      samples: pick(validation, () => true, HELD_OUT_TOKENS),
    }),
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const argv = process.argv.slice(2);
  const flag = (/** @type {string} */ name, /** @type {string} */ fallback) => {
    const i = argv.indexOf(name);
    return i >= 0 && argv[i + 1] ? argv[i + 1] : fallback;
  };
  const dir = flag('--dir', join(root, 'build/corpus'));
  const out = flag('--out', join(root, 'web/public/models'));
  const files = liveCorpus(
    readFileSync(join(dir, 'brown-train.bin')),
    readFileSync(join(dir, 'brown-validation.bin')),
  );
  mkdirSync(out, { recursive: true });
  for (const [name, bytes] of Object.entries(files)) {
    const file = join(out, LIVE_FILES[/** @type {'train' | 'heldOut'} */ (name)]);
    writeFileSync(file, bytes);
    const corpus = readCorpus(bytes);
    console.log(
      `${file}: ${corpus.sampleCount} samples, ${corpus.tokenCount} tokens, ${bytes.length} bytes`,
    );
  }
}
