// Builds the English-German corpus two small translation models train on: human translations from
// Debian packages (example sentences of the Ding dictionary, paragraphs of the LibreOffice help in
// both languages), the English side as the page's tokenizer reads it and as ids over the page's
// vocabulary (web/public/embeddings/en-20k-100d.bin), the German side by
// tools/translation/german-tokens.js and as ids over a German vocabulary made from the train
// split (SentencePiece pieces, or with --german-vocab its most frequent whole words); split by
// English sentence into train, validation and test, with the sentences of three games' German
// catalogues added to train (left out with --no-games), and with --ding-entries Ding's word entries
// added to train. Also a word list from the FreeDict dictionary, for scoring attention as word
// alignment. The packages are downloaded into a
// temporary folder, read, and removed. The output goes to build/corpus/translation/ (not
// committed); the same packages and vocabulary give the same bytes. Sources, rules and the file
// formats: docs/translation-corpus.md.
//
//   node tools/translation/make-corpus.js                   # download, convert, write
//   node tools/translation/make-corpus.js --from <dir>      # packages already unpacked in <dir>
//   node tools/translation/make-corpus.js --out <dir>       # write somewhere else
//   node tools/translation/make-corpus.js --german-pieces N # N SentencePiece pieces (default 8000)
//   node tools/translation/make-corpus.js --german-vocab N  # N whole German words instead
//   node tools/translation/make-corpus.js --ding-entries    # Ding's word entries join train
//   node tools/translation/make-corpus.js --no-games        # without the games' sentences
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
import { cataloguePairs, emptyCatalogueCounts, readCatalogue } from './gettext.js';
import { encodeGermanPieces, groupByWord, trainGermanPieces } from './sentencepiece.js';
import { pairHelpPages } from './libreoffice-help.js';
import {
  GERMAN_SPECIALS,
  PAIR_SOURCES,
  PAIR_SPLITS,
  encodePairs,
  readPairs,
} from './pairs-format.js';
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
  // SentencePiece's programs and their library, for the German pieces (amd64 builds).
  {
    name: 'sentencepiece',
    version: '0.1.97-3+b1',
    sha256: '096b7cb943f4678a6b87ff1fd89e9fdbe22050f850882483c324cf59221c48fd',
  },
  {
    name: 'libsentencepiece0',
    version: '0.1.97-3+b1',
    sha256: '162a7d9ac26991b079c6e7e57a7ca39ed80b03726eef19159a2b163175611597',
  },
];

/**
 * The games whose German catalogues --games reads: FreedroidRPG, The Battle for Wesnoth with its
 * sixteen campaigns, and Widelands (Debian 12, all GPL-2+). Dialogue and descriptions, the
 * nearest to everyday English that Debian ships in both languages
 * (bench/reports/translation.md, "English-German text in Debian 12's packages").
 * @type {import('./debian-packages.js').PinnedDeb[]}
 */
export const GAME_PACKAGES = [
  [
    'freedroidrpg-data',
    '1.0-1',
    '16c3cfeb82b1ec20c98493bbe1de2e356bd1aec832845630a5a7f12e303baa2b',
  ],
  [
    'wesnoth-1.16-data',
    '1:1.16.9-1',
    '1012b964bd412a6770685e3324ae3b61e176caff7846192d1ee63d55cd621e26',
  ],
  [
    'wesnoth-1.16-did',
    '1:1.16.9-1',
    '774619f5aaeb7eb4c848e1cc1758795a8c58e96bd270cceecc9d847dbcc769b3',
  ],
  [
    'wesnoth-1.16-dm',
    '1:1.16.9-1',
    '1997ad4d91e8de36415db2a3445904288f588a76d75111222d2aace409ace5c6',
  ],
  [
    'wesnoth-1.16-dw',
    '1:1.16.9-1',
    '47982e08b2a5d5fd79f400a5453f32c6d7dd56f2ccc10412a9e47dec8a9b3ca4',
  ],
  [
    'wesnoth-1.16-ei',
    '1:1.16.9-1',
    '687abe111ee662b7324336ddadc209758f68d2eeb1ccbf630238f27a0e3c6404',
  ],
  [
    'wesnoth-1.16-httt',
    '1:1.16.9-1',
    '05b16a3f8f8204278794aae14d8e6a7c95d2b2faef7337c4997c827a146d1bbd',
  ],
  [
    'wesnoth-1.16-l',
    '1:1.16.9-1',
    '5383c79046df6121929bc36a8ec3f970ab4cf9c1239ed9b31868201c27f4266d',
  ],
  [
    'wesnoth-1.16-low',
    '1:1.16.9-1',
    '2f304551b97b7fb76a2adb5ad8ffcac3e78476bc8ade17532c90714065c9bf9f',
  ],
  [
    'wesnoth-1.16-nr',
    '1:1.16.9-1',
    '13edcf1bdd23708f531ba81c67100c5800363a119f10155c7f9e146fe7dced34',
  ],
  [
    'wesnoth-1.16-sof',
    '1:1.16.9-1',
    'b6f1ddffdbd1a977f3965dae944e4fb11c147627471f1cfc71c92d1e69efb555',
  ],
  [
    'wesnoth-1.16-sota',
    '1:1.16.9-1',
    'fa44304ff53d259f3c5fe13c03cb8166e55e9c307807d1a5663048c396645ba6',
  ],
  [
    'wesnoth-1.16-sotbe',
    '1:1.16.9-1',
    '877a2f4a7fd8df54fd3b4561ffbd5fa95d0390d7c7372f3cb66367c8007918cb',
  ],
  [
    'wesnoth-1.16-thot',
    '1:1.16.9-1',
    '79d9ec6e43300ea9f41295ccf3fb451e8eeaefc17007123f65d77eb05cb88695',
  ],
  [
    'wesnoth-1.16-trow',
    '1:1.16.9-1',
    'b5009e964ac7157a46d50de911e4f56f5bb4389d60b82a513b5f382671d180d7',
  ],
  [
    'wesnoth-1.16-tsg',
    '1:1.16.9-1',
    '38b5f564253b8e0d9c093b2b7c58aabfef24f688968d9cbaf42abfc1e76d8288',
  ],
  [
    'wesnoth-1.16-ttb',
    '1:1.16.9-1',
    'd0d45693665305191488553ade8dc1d0aa26ab17d4bffae3bf6969db4a766329',
  ],
  [
    'wesnoth-1.16-utbs',
    '1:1.16.9-1',
    '81e05717bebbfb6348c0bed2cd6ce2560c4fd9205ed419c2e7bc039b4a70e228',
  ],
  ['widelands-data', '2:1.1-3', '0e23d645b15bcfb9e3bcae0de9bc1bdfa75a6ecb36b2e449759d6eb0b4bbd8fb'],
].map(([name, version, sha256]) => ({ name, version, sha256 }));

// Where the games keep their German catalogues (`*.mo`), under the unpacked packages.
const GAME_CATALOGUES = [
  'usr/share/locale/de/LC_MESSAGES',
  'usr/share/games/wesnoth/1.16/locale/de/LC_MESSAGES',
  'usr/share/games/widelands/data/locale/de/LC_MESSAGES',
];

const DING_FILE = 'usr/share/trans/de-en';
const HELP_FOLDER = 'usr/share/libreoffice/help';
const FREEDICT = 'usr/share/dictd/freedict-eng-deu';
const DEFAULT_GERMAN_PIECES = 8000;
// Ding's word and phrase entries join the train split when their English is one or two words
// among the ENTRY_RANK most frequent of the page's vocabulary (which lists words by frequency),
// one entry per English text (the first in the file): the words everyday text uses, without
// letting the dictionary's 326,000 entries outnumber the sentences. --entry-rank and
// --entry-words set both limits.
const ENTRY_RANK = 10_000;
const ENTRY_MAX_ENGLISH = 2;
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
    folder = downloadPinned(temporary, args.games ? [...PACKAGES, ...GAME_PACKAGES] : PACKAGES);
  }
  try {
    const lines = (args.games ? [...PACKAGES, ...GAME_PACKAGES] : PACKAGES).map(
      ({ name, version }) => `${name} ${version}`,
    );
    const vocabulary = readVocabulary(readFileSync(VECTORS));
    const encoder = makeEncoder(vocabulary.words);

    const dingCounts = emptyDingCounts();
    const dingAll = readFileSync(join(folder, DING_FILE), 'utf8')
      .split('\n')
      .flatMap((line) => dingPairs(line, dingCounts, { entries: true }));
    const ding = dingAll.filter((pair) => !pair.entry);
    lines.push(
      `ding: ${dingCounts.lines} lines, ${dingCounts.alternatives} aligned alternatives, ` +
        `${ding.length} sentence pairs, ${dingCounts.entries} word and phrase entries ` +
        `(${dingCounts.unaligned} lines with unequal sides skipped)`,
    );
    const help = helpPairs(join(folder, HELP_FOLDER));
    lines.push(
      `libreoffice: ${help.pages} pages, ${help.paired} paragraphs in both languages, ` +
        `${help.untranslated} untranslated, ${help.pairs.length} sentence-like pairs`,
    );

    /** @type {import('./pairs.js').TokenizedPair[]} */
    const tokenized = [];
    for (const [source, pairs] of [ding, help.pairs].entries()) {
      for (const { english, german } of pairs)
        tokenized.push(tokenizePair(source, english, german, encoder));
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
    if (args.dingEntries) {
      const entries = everydayEntries(
        dingAll.filter((pair) => pair.entry),
        encoder,
        { rank: args.entryRank, words: args.entryWords },
      );
      const before = splits.train.length;
      splits.train = uniquePairs([...splits.train, ...entries]);
      lines.push(
        `ding entries: ${entries.length} with 1 to ${args.entryWords} English words among the ` +
          `${args.entryRank} most frequent, ${splits.train.length - before} added to the train ` +
          'split',
      );
    }

    if (args.games) {
      const games = gamePairs(folder);
      const inTrain = games.pairs
        .map(({ english, german }) =>
          tokenizePair(PAIR_SOURCES.indexOf('game'), english, german, encoder),
        )
        .filter((pair) => trainableLength(pair) && splitOfEnglish(pair.englishTokens) === 'train');
      const before = splits.train.length;
      splits.train = uniquePairs([...splits.train, ...inTrain]);
      lines.push(
        `games: ${games.catalogues} catalogues, ${games.counts.messages} messages, ` +
          `${games.counts.notProse} with placeholders or markup, ${games.pairs.length} sentence ` +
          `pairs, ${inTrain.length} of 2 ... 40 tokens a side with English of the train split, ` +
          `${splits.train.length - before} added to the train split`,
      );
    }

    const {
      vocabulary: german,
      ids: germanIds,
      line: germanLine,
    } = args.germanPieces > 0
      ? germanPieceIds(folder, splits, args.germanPieces, encoder)
      : germanWordIds(splits, args.germanWords);
    const vocabBytes = new TextEncoder().encode(german.map((token) => `${token}\n`).join(''));
    lines.push(`${germanLine}, fnv1a32 ${hex(fnv1a32(vocabBytes))}`);

    mkdirSync(out, { recursive: true });
    /** @type {Array<[string, Uint8Array]>} */
    const files = [];
    for (const split of PAIR_SPLITS) {
      const pairs = splits[split];
      const withIds = pairs.map((pair, i) => ({
        source: pair.source,
        english: pair.englishIds,
        german: germanIds[split][i],
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
 * @typedef {{ vocabulary: string[], ids: Record<string, number[][]>, line: string }} GermanSide
 *   the German vocabulary in id order, every split's German ids, and the script's line on it
 */

/**
 * The German side in whole words: the four special ids, then the `size` most frequent tokens of
 * the train split; any other token is <unk>.
 * @param {Record<string, import('./pairs.js').TokenizedPair[]>} splits
 * @param {number} size
 * @returns {GermanSide}
 */
function germanWordIds(splits, size) {
  const vocabulary = germanVocabulary(splits.train, size);
  const encode = makeGermanEncoder(vocabulary);
  /** @type {Record<string, number[][]>} */
  const ids = {};
  for (const split of PAIR_SPLITS) ids[split] = splits[split].map((p) => encode(p.germanTokens));
  const words = vocabulary.length - GERMAN_SPECIAL_TOKENS.length;
  return {
    vocabulary,
    ids,
    line:
      `german vocabulary: ${words} words of the train split + ` +
      `${GERMAN_SPECIAL_TOKENS.length} special ids = ${vocabulary.length} ids`,
  };
}

/**
 * The German side in subword pieces (sentencepiece.js): `size` ids, the special ones included,
 * learned from the train split's German; each word that copies an English word outside the
 * page's vocabulary written as <unk> (markCopies).
 * @param {string} packages the folder the packages are unpacked into
 * @param {Record<string, import('./pairs.js').TokenizedPair[]>} splits
 * @param {number} size
 * @param {ReturnType<typeof makeEncoder>} encoder
 * @returns {GermanSide}
 */
function germanPieceIds(packages, splits, size, encoder) {
  const folder = mkdtempSync(join(tmpdir(), 'attn-pieces-'));
  try {
    const lineOf = (/** @type {import('./pairs.js').TokenizedPair} */ pair) =>
      pair.germanTokens.join(' ');
    const vocabulary = trainGermanPieces(packages, folder, splits.train.map(lineOf), size);
    /** @type {Record<string, number[][]>} */
    const ids = {};
    for (const split of PAIR_SPLITS) {
      const encoded = encodeGermanPieces(packages, folder, splits[split].map(lineOf));
      ids[split] = splits[split].map((pair, i) =>
        markCopies(pair, encoded[i], vocabulary, encoder),
      );
    }
    return {
      vocabulary,
      ids,
      line:
        `german pieces: ${size - GERMAN_SPECIAL_TOKENS.length} of the train split's German ` +
        `(SentencePiece, unigram) + ${GERMAN_SPECIAL_TOKENS.length} special ids = ${size} ids`,
    };
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

/**
 * A pair with both sides tokenized: the English by the page's tokenizer and vocabulary, the German
 * by germanTokens.
 * @param {number} source index into PAIR_SOURCES
 * @param {string} english
 * @param {string} german
 * @param {ReturnType<typeof makeEncoder>} encoder
 * @returns {import('./pairs.js').TokenizedPair}
 */
function tokenizePair(source, english, german, encoder) {
  const { tokens, ids } = encoder.encode(english);
  return {
    source,
    english,
    german,
    englishTokens: tokens,
    englishIds: ids,
    germanTokens: germanTokens(german),
  };
}

/**
 * Ding's word and phrase entries for the words everyday text uses: those whose English is one to
 * `words` tokens (ENTRY_MAX_ENGLISH), each among the `rank` (ENTRY_RANK) most frequent words of the
 * page's vocabulary (its ids are frequency ranks), with a German side of one to four tokens; the
 * first entry of each English text, in file order.
 * @param {Array<{ english: string, german: string }>} entries
 * @param {ReturnType<typeof makeEncoder>} encoder
 * @param {{ rank?: number, words?: number }} [limits]
 * @returns {import('./pairs.js').TokenizedPair[]}
 */
export function everydayEntries(
  entries,
  encoder,
  { rank = ENTRY_RANK, words = ENTRY_MAX_ENGLISH } = {},
) {
  const seen = new Set();
  const out = [];
  for (const { english, german } of entries) {
    const pair = tokenizePair(PAIR_SOURCES.indexOf('ding-entry'), english, german, encoder);
    const n = pair.englishTokens.length;
    if (n < 1 || n > words) continue;
    if (!pair.englishIds.every((id) => id < rank)) continue;
    if (pair.germanTokens.length < 1 || pair.germanTokens.length > 4) continue;
    const key = pair.englishTokens.join(' ');
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(pair);
  }
  return out;
}

/**
 * A pair's German piece ids with each word that copies an English word outside the page's
 * vocabulary (a name, a number: "1992" for "1992") written as the one id <unk>: the model learns
 * to write <unk> where the English word it attends to should stand, and the core puts that word
 * there (docs/translation.md, "Words it does not know").
 * @param {import('./pairs.js').TokenizedPair} pair
 * @param {number[]} ids the German side's pieces
 * @param {string[]} pieces the vocabulary
 * @param {ReturnType<typeof makeEncoder>} encoder
 * @returns {number[]}
 */
export function markCopies(pair, ids, pieces, encoder) {
  const unknownEnglish = new Set(
    pair.englishTokens.filter((_, j) => pair.englishIds[j] === encoder.unknownId),
  );
  const words = groupByWord(ids, pieces);
  if (unknownEnglish.size === 0 || words.length !== pair.germanTokens.length) return ids;
  return words.flatMap((word, i) =>
    unknownEnglish.has(pair.germanTokens[i]) ? [GERMAN_SPECIALS.unknown] : word,
  );
}

/**
 * The sentence pairs of the games' German catalogues (gettext.js), catalogue by catalogue in
 * code-point order of their paths.
 * @param {string} folder the folder the packages are unpacked into
 */
export function gamePairs(folder) {
  const files = GAME_CATALOGUES.flatMap((catalogues) => {
    const path = join(folder, catalogues);
    if (!existsSync(path)) throw new Error(`${path} is missing: are the games' packages unpacked?`);
    return readdirSync(path)
      .filter((name) => name.endsWith('.mo'))
      .map((name) => join(catalogues, name));
  }).sort(compareCodePoints);
  const counts = emptyCatalogueCounts();
  const pairs = files.flatMap((file) =>
    readCatalogue(readFileSync(join(folder, file))).flatMap((message) =>
      cataloguePairs(message, counts),
    ),
  );
  return { catalogues: files.length, counts, pairs };
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
  /** @type {{ from?: string, out?: string, germanWords: number, germanPieces: number,
   *   dingEntries: boolean, entryRank: number, entryWords: number, games: boolean }} */
  const args = {
    germanWords: 0,
    germanPieces: DEFAULT_GERMAN_PIECES,
    dingEntries: false,
    entryRank: ENTRY_RANK,
    entryWords: ENTRY_MAX_ENGLISH,
    games: true,
  };
  const usage =
    'usage: node tools/translation/make-corpus.js [--from <dir>] [--out <dir>] ' +
    '[--german-vocab N | --german-pieces N] [--ding-entries [--entry-rank N] [--entry-words N]] ' +
    '[--no-games]';
  const count = (/** @type {string | undefined} */ value) => {
    const n = /^[1-9]\d*$/.test(value ?? '') ? Number(value) : 0;
    if (n <= 0 || n + GERMAN_SPECIAL_TOKENS.length > 65_536) throw new Error(usage);
    return n;
  };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    const value = argv[i + 1];
    if ((flag === '--from' || flag === '--out') && value !== undefined) {
      args[flag.slice(2)] = value;
      i++;
    } else if (flag === '--german-vocab') {
      args.germanWords = count(value);
      args.germanPieces = 0;
      i++;
    } else if (flag === '--german-pieces') {
      // The pieces count the special ids among them, as SentencePiece's vocabulary size does.
      args.germanPieces = count(value);
      args.germanWords = 0;
      if (args.germanPieces <= GERMAN_SPECIAL_TOKENS.length) throw new Error(usage);
      i++;
    } else if (flag === '--ding-entries') {
      args.dingEntries = true;
    } else if (flag === '--games' || flag === '--no-games') {
      args.games = flag === '--games';
    } else if (flag === '--entry-rank' || flag === '--entry-words') {
      args[flag === '--entry-rank' ? 'entryRank' : 'entryWords'] = count(value);
      i++;
    } else {
      throw new Error(usage);
    }
  }
  return args;
}
