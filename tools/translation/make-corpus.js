// Builds the English-German corpus two small translation models train on: human translations from
// Debian packages (example sentences of the Ding dictionary, paragraphs of the LibreOffice help in
// both languages), the English side as the page's tokenizer reads it and as ids over the page's
// vocabulary (web/public/embeddings/en-20k-100d.bin), the German side by
// tools/translation/german-tokens.js and as ids over a German vocabulary made from the train
// split; split by English sentence into train, validation and test. Also a word list from the
// FreeDict dictionary, for scoring attention as word alignment. The packages are downloaded into a
// temporary folder, read, and removed. The output goes to build/corpus/translation/ (not
// committed); the same packages and vocabulary give the same bytes. Sources, rules and the file
// formats: docs/translation-corpus.md.
//
//   node tools/translation/make-corpus.js                   # download, convert, write
//   node tools/translation/make-corpus.js --from <dir>      # packages already unpacked in <dir>
//   node tools/translation/make-corpus.js --out <dir>       # write somewhere else
//   node tools/translation/make-corpus.js --german-vocab N  # N German words (default 8000)
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
import { gunzipSync } from 'node:zlib';

import { fnv1a32 } from '../../web/src/text/corpus.js';
import { makeEncoder, readVocabulary } from '../brown.js';
import { downloadPinned } from './debian-packages.js';
import { dingPairs, emptyDingCounts } from './ding.js';
import { compareCodePoints, dictionaryLines } from './freedict.js';
import { germanTokens } from './german-tokens.js';
import { pairHelpPages } from './libreoffice-help.js';
import { PAIR_SOURCES, PAIR_SPLITS, encodePairs, readPairs } from './pairs-format.js';
import {
  GERMAN_SPECIAL_TOKENS,
  germanVocabulary,
  makeGermanEncoder,
  splitOfEnglish,
  trainableLength,
  uniquePairs,
} from './pairs.js';

/**
 * The packages, pinned to the versions of Debian 12 (bookworm) and the SHA-256 of their files.
 * @type {import('./debian-packages.js').PinnedDeb[]}
 */
export const PACKAGES = [
  {
    name: 'trans-de-en',
    version: '1.9-6',
    sha256: '45f6b4cf1c434776fba6811d7bc522efabb5425c43ba8afd0e289bf9e2e53df4',
  },
  {
    name: 'libreoffice-help-en-us',
    version: '4:7.4.7-1+deb12u14',
    sha256: '8faa840285734d6cfe1ed25537b48f07e74bd6412e3917bf8e5f8a653f7b3712',
  },
  {
    name: 'libreoffice-help-de',
    version: '4:7.4.7-1+deb12u14',
    sha256: '00490b63c509ac96f7f212d6a6e40452d3e0d1f97ccf4b824dd5ec4c01e8277f',
  },
  {
    name: 'dict-freedict-eng-deu',
    version: '2022.04.21-1',
    sha256: 'e85da1519a4d5efdbd7a5a169e828b97920f91e899f45d56fd5b2266a05b5906',
  },
];

const DING_FILE = 'usr/share/trans/de-en';
const HELP_FOLDER = 'usr/share/libreoffice/help';
const FREEDICT = 'usr/share/dictd/freedict-eng-deu';
const DEFAULT_GERMAN_WORDS = 8000;
// A LibreOffice paragraph is kept when its English reads as a sentence or a phrase: it ends like
// a sentence, or has at least this many words (a one- or two-word label says too little).
const HELP_MIN_WORDS = 3;

const root = fileURLToPath(new URL('../..', import.meta.url));
const VECTORS = join(root, 'web/public/embeddings/en-20k-100d.bin');

if (process.argv[1] === fileURLToPath(import.meta.url)) main();

function main() {
  const started = performance.now();
  const args = parseArgs(process.argv.slice(2));
  const out = args.out ?? join(root, 'build/corpus/translation');
  let folder = args.from;
  let temporary = null;
  if (!folder) {
    temporary = mkdtempSync(join(tmpdir(), 'attn-translation-'));
    folder = downloadPinned(temporary, PACKAGES);
  }
  try {
    const lines = PACKAGES.map(({ name, version }) => `${name} ${version}`);
    const vocabulary = readVocabulary(readFileSync(VECTORS));
    const encoder = makeEncoder(vocabulary.words);

    const dingCounts = emptyDingCounts();
    const ding = readFileSync(join(folder, DING_FILE), 'utf8')
      .split('\n')
      .flatMap((line) => dingPairs(line, dingCounts));
    lines.push(
      `ding: ${dingCounts.lines} lines, ${dingCounts.alternatives} aligned alternatives, ` +
        `${ding.length} sentence pairs (${dingCounts.unaligned} lines with unequal sides skipped)`,
    );
    const help = helpPairs(join(folder, HELP_FOLDER));
    lines.push(
      `libreoffice: ${help.pages} pages, ${help.paired} paragraphs in both languages, ` +
        `${help.untranslated} untranslated, ${help.pairs.length} sentence-like pairs`,
    );

    /** @type {import('./pairs.js').TokenizedPair[]} */
    const tokenized = [];
    for (const [source, pairs] of [ding, help.pairs].entries()) {
      for (const { english, german } of pairs) {
        const { tokens, ids } = encoder.encode(english);
        tokenized.push({
          source,
          english,
          german,
          englishTokens: tokens,
          englishIds: ids,
          germanTokens: germanTokens(german),
        });
      }
    }
    const fitting = tokenized.filter(trainableLength);
    const kept = uniquePairs(fitting);
    lines.push(
      `${tokenized.length} pairs, ${fitting.length} with 2 ... 40 tokens a side, ` +
        `${kept.length} after removing repeated pairs`,
    );

    /** @type {Record<string, import('./pairs.js').TokenizedPair[]>} */
    const splits = { train: [], validation: [], test: [] };
    for (const pair of kept) splits[splitOfEnglish(pair.englishTokens)].push(pair);
    const german = germanVocabulary(splits.train, args.germanWords);
    const germanIds = makeGermanEncoder(german);
    const vocabBytes = new TextEncoder().encode(german.map((token) => `${token}\n`).join(''));
    lines.push(
      `german vocabulary: ${german.length - GERMAN_SPECIAL_TOKENS.length} words of the train ` +
        `split + ${GERMAN_SPECIAL_TOKENS.length} special ids = ${german.length} ids, fnv1a32 ${hex(fnv1a32(vocabBytes))}`,
    );

    mkdirSync(out, { recursive: true });
    /** @type {Array<[string, Uint8Array]>} */
    const files = [];
    for (const split of PAIR_SPLITS) {
      const pairs = splits[split];
      const withIds = pairs.map((pair) => ({
        source: pair.source,
        english: pair.englishIds,
        german: germanIds(pair.germanTokens),
      }));
      const bytes = encodePairs({
        split,
        englishClasses: encoder.classes,
        englishUnknownId: encoder.unknownId,
        englishVocabularyHash: vocabulary.hash,
        germanClasses: german.length,
        germanVocabularyHash: fnv1a32(vocabBytes),
        pairs: withIds,
      });
      readPairs(bytes); // the file must pass its own reader's checks
      files.push([`${split}.bin`, bytes], [`${split}.tsv`, tsvBytes(pairs)]);
      lines.push(splitLine(split, pairs, withIds, encoder.unknownId));
    }
    files.push(['german-vocab.txt', vocabBytes]);

    const dictionary = dictionaryLines(
      readFileSync(`${join(folder, FREEDICT)}.index`, 'utf8'),
      gunzipSync(readFileSync(`${join(folder, FREEDICT)}.dict.dz`)),
    );
    files.push(['dictionary.tsv', new TextEncoder().encode(dictionary.join('\n') + '\n')]);
    lines.push(`dictionary: ${dictionary.length} single-word english-german pairs`);

    for (const [name, bytes] of files) {
      const file = join(out, name);
      writeFileSync(file, bytes);
      lines.push(
        `wrote ${relative(process.cwd(), file) || file}: ${bytes.length} bytes`,
        `  sha256 ${createHash('sha256').update(bytes).digest('hex')}`,
      );
    }
    lines.push(`${((performance.now() - started) / 1000).toFixed(1)} s`);
    console.log(lines.join('\n'));
  } finally {
    if (temporary) rmSync(temporary, { recursive: true, force: true });
  }
}

/**
 * The LibreOffice help's pairs, page by page in code-point order of the page paths: each English
 * paragraph with the German one of the same id, when the English reads as a sentence or phrase
 * and the German differs from it.
 * @param {string} folder the help folder, holding en-US/text/ and de/text/
 */
export function helpPairs(folder) {
  const english = join(folder, 'en-US/text');
  const german = join(folder, 'de/text');
  if (!existsSync(english) || !existsSync(german)) {
    throw new Error(`${folder} does not hold en-US/text and de/text`);
  }
  const pages = readdirSync(english, { recursive: true, encoding: 'utf8' })
    .filter((path) => path.endsWith('.html'))
    .sort(compareCodePoints);
  const pairs = [];
  let paired = 0;
  let untranslated = 0;
  for (const page of pages) {
    if (!existsSync(join(german, page))) continue;
    for (const pair of pairHelpPages(
      readFileSync(join(english, page), 'utf8'),
      readFileSync(join(german, page), 'utf8'),
    )) {
      paired++;
      if (pair.german === pair.english) untranslated++;
      else if (helpSentenceLike(pair.english)) pairs.push(pair);
    }
  }
  return { pages: pages.length, paired, untranslated, pairs };
}

/**
 * Whether a help paragraph's English reads as a sentence or a phrase: it ends with `.`, `?` or `!`,
 * or has at least HELP_MIN_WORDS words.
 * @param {string} text
 */
export function helpSentenceLike(text) {
  return /[.?!]$/.test(text) || text.split(' ').length >= HELP_MIN_WORDS;
}

/**
 * A split's lines for reading and for BLEU references: `source, English text, German text,
 * English tokens, German tokens`, tab-separated, tokens joined by single spaces.
 * @param {import('./pairs.js').TokenizedPair[]} pairs
 * @returns {Uint8Array}
 */
export function tsvBytes(pairs) {
  const field = (/** @type {string} */ text) => text.replace(/[\t\n\r]+/g, ' ');
  const lines = pairs.map((pair) =>
    [
      PAIR_SOURCES[pair.source],
      field(pair.english),
      field(pair.german),
      pair.englishTokens.join(' '),
      pair.germanTokens.join(' '),
    ].join('\t'),
  );
  return new TextEncoder().encode(lines.map((line) => `${line}\n`).join(''));
}

/**
 * @param {string} split
 * @param {import('./pairs.js').TokenizedPair[]} pairs
 * @param {Array<{ english: number[], german: number[] }>} withIds
 * @param {number} englishUnknown
 */
function splitLine(split, pairs, withIds, englishUnknown) {
  const bySource = PAIR_SOURCES.map(
    (name, source) => `${pairs.filter((pair) => pair.source === source).length} ${name}`,
  );
  const count = (/** @type {number[][]} */ lists, /** @type {number} */ unknown) => {
    const all = lists.flat();
    return { tokens: all.length, unknown: all.filter((id) => id === unknown).length };
  };
  const en = count(
    withIds.map((pair) => pair.english),
    englishUnknown,
  );
  const de = count(
    withIds.map((pair) => pair.german),
    3,
  );
  const share = (/** @type {{ tokens: number, unknown: number }} */ side) =>
    `${((100 * side.unknown) / side.tokens).toFixed(2)}% unknown`;
  return (
    `${split}: ${pairs.length} pairs (${bySource.join(', ')}); english ${en.tokens} tokens, ` +
    `${share(en)}; german ${de.tokens} tokens, ${share(de)}`
  );
}

/** @param {number} value */
function hex(value) {
  return value.toString(16).padStart(8, '0');
}

/** @param {string[]} argv */
function parseArgs(argv) {
  /** @type {{ from?: string, out?: string, germanWords: number }} */
  const args = { germanWords: DEFAULT_GERMAN_WORDS };
  const usage =
    'usage: node tools/translation/make-corpus.js [--from <dir>] [--out <dir>] [--german-vocab N]';
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    const value = argv[i + 1];
    if ((flag === '--from' || flag === '--out') && value !== undefined) {
      args[flag.slice(2)] = value;
      i++;
    } else if (flag === '--german-vocab' && /^[1-9]\d*$/.test(value ?? '')) {
      args.germanWords = Number(value);
      if (args.germanWords + GERMAN_SPECIAL_TOKENS.length > 65_536) throw new Error(usage);
      i++;
    } else {
      throw new Error(usage);
    }
  }
  return args;
}
