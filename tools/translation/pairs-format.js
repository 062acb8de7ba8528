// The binary file of one split of the translation corpus (train.bin, validation.bin, test.bin in
// build/corpus/translation/), as tools/translation/make-corpus.js writes it and the C++ trainer
// reads it. Every number is little-endian. The layout, byte by byte, is in
// docs/translation-corpus.md ("Binary format"): a 48-byte header, then one record per pair.
// `encodePairs` writes it and `readPairs` reads it back, checking every field and the exact size.

/** The first eight bytes of every file, in ASCII. */
export const PAIRS_MAGIC = 'ATTNPAIR';
/** The format version this module reads and writes. */
export const PAIRS_VERSION = 1;
/** Bytes before the first record: magic and ten uint32 fields. */
export const PAIRS_HEADER_BYTES = 48;
/** Bytes of a record before its ids: English length, German length, source (uint16 each). */
export const PAIR_RECORD_BYTES = 6;
/** Ids are uint16, so neither vocabulary may have more classes than this. */
export const MAX_PAIR_CLASSES = 65_536;
/** The German ids every German vocabulary starts with. */
export const GERMAN_SPECIALS = Object.freeze({ padding: 0, start: 1, end: 2, unknown: 3 });
/**
 * The splits, by the number stored in the header.
 * @type {readonly ['train', 'validation', 'test']}
 */
export const PAIR_SPLITS = Object.freeze(/** @type {const} */ (['train', 'validation', 'test']));
/**
 * The sources, by the number stored in each record.
 * @type {readonly ['ding', 'libreoffice', 'ding-entry', 'game']}
 */
export const PAIR_SOURCES = Object.freeze(
  /** @type {const} */ (['ding', 'libreoffice', 'ding-entry', 'game']),
);

/** A file that is not a valid pairs file; the message says which check failed. */
export class PairsFormatError extends Error {
  name = 'PairsFormatError';
}

/**
 * @typedef {object} Pair
 * @property {number} source index into PAIR_SOURCES
 * @property {ArrayLike<number>} english English ids, each < englishClasses
 * @property {ArrayLike<number>} german German ids without start and end markers, each
 *   < germanClasses and none of padding, start or end
 */

/**
 * @typedef {object} PairsFile
 * @property {'train' | 'validation' | 'test'} split
 * @property {number} englishClasses English vocabulary words + 1 unknown id
 * @property {number} englishUnknownId
 * @property {number} englishVocabularyHash FNV-1a of the word-vector vocabulary's bytes
 * @property {number} germanClasses the German vocabulary's size, its four special ids included
 * @property {number} germanVocabularyHash FNV-1a of german-vocab.txt's bytes
 * @property {Pair[]} pairs
 */

/** @typedef {{ source: number, english: Uint16Array, german: Uint16Array }} ReadPair */

/**
 * Writes a pairs file.
 * @param {PairsFile} file
 * @returns {Uint8Array}
 */
export function encodePairs(file) {
  const split = PAIR_SPLITS.indexOf(file.split);
  if (split < 0) throw new PairsFormatError(`unknown split "${file.split}"`);
  checkClasses(file.englishClasses, file.germanClasses, file.englishUnknownId);
  if (file.pairs.length === 0) throw new PairsFormatError('a file needs at least one pair');
  let englishTokens = 0;
  let germanTokens = 0;
  for (const pair of file.pairs) {
    englishTokens += pair.english.length;
    germanTokens += pair.german.length;
  }
  const size = PAIRS_HEADER_BYTES + PAIR_RECORD_BYTES * file.pairs.length;
  const bytes = new Uint8Array(size + 2 * (englishTokens + germanTokens));
  const view = new DataView(bytes.buffer);
  bytes.set(new TextEncoder().encode(PAIRS_MAGIC));
  const header = [
    PAIRS_VERSION,
    split,
    file.pairs.length,
    file.englishClasses,
    file.englishUnknownId,
    file.englishVocabularyHash >>> 0,
    file.germanClasses,
    file.germanVocabularyHash >>> 0,
    englishTokens,
    germanTokens,
  ];
  header.forEach((value, i) => view.setUint32(8 + 4 * i, value, true));
  let at = PAIRS_HEADER_BYTES;
  file.pairs.forEach((pair, index) => {
    checkPair(pair, index, file.englishClasses, file.germanClasses);
    view.setUint16(at, pair.english.length, true);
    view.setUint16(at + 2, pair.german.length, true);
    view.setUint16(at + 4, pair.source, true);
    at += PAIR_RECORD_BYTES;
    for (const ids of [pair.english, pair.german]) {
      for (let i = 0; i < ids.length; i++, at += 2) view.setUint16(at, ids[i], true);
    }
  });
  return bytes;
}

/**
 * Reads a pairs file and checks it: magic, version, split, class counts, every record's lengths,
 * source and ids, the token totals and the exact size.
 * @param {Uint8Array} bytes
 * @returns {Omit<PairsFile, 'pairs'> & { version: number, pairs: ReadPair[] }}
 */
export function readPairs(bytes) {
  if (bytes.length < PAIRS_HEADER_BYTES) throw new PairsFormatError('the file is truncated');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const magic = String.fromCharCode(...bytes.subarray(0, 8));
  if (magic !== PAIRS_MAGIC) throw new PairsFormatError(`the magic is not ${PAIRS_MAGIC}`);
  const [version, split, count, englishClasses, englishUnknownId, englishHash, germanClasses] = [
    8, 12, 16, 20, 24, 28, 32,
  ].map((at) => view.getUint32(at, true));
  const [germanHash, englishTokens, germanTokens] = [36, 40, 44].map((at) =>
    view.getUint32(at, true),
  );
  if (version !== PAIRS_VERSION) {
    throw new PairsFormatError(`format version ${version}, expected ${PAIRS_VERSION}`);
  }
  if (split >= PAIR_SPLITS.length) throw new PairsFormatError(`unknown split ${split}`);
  checkClasses(englishClasses, germanClasses, englishUnknownId);
  if (count === 0) throw new PairsFormatError('the file holds no pairs');
  const size = PAIRS_HEADER_BYTES + PAIR_RECORD_BYTES * count + 2 * (englishTokens + germanTokens);
  if (bytes.length < size) throw new PairsFormatError('the file is truncated');
  if (bytes.length > size) throw new PairsFormatError('the file has extra bytes');
  const pairs = [];
  let at = PAIRS_HEADER_BYTES;
  let english = 0;
  let german = 0;
  for (let index = 0; index < count; index++) {
    if (at + PAIR_RECORD_BYTES > size) throw new PairsFormatError(`pair ${index} is truncated`);
    const lengths = [view.getUint16(at, true), view.getUint16(at + 2, true)];
    const source = view.getUint16(at + 4, true);
    at += PAIR_RECORD_BYTES;
    if (at + 2 * (lengths[0] + lengths[1]) > size) {
      throw new PairsFormatError(`pair ${index} runs past the token totals of the header`);
    }
    const [englishIds, germanIds] = lengths.map((length) => {
      const ids = new Uint16Array(length);
      for (let i = 0; i < length; i++, at += 2) ids[i] = view.getUint16(at, true);
      return ids;
    });
    const pair = { source, english: englishIds, german: germanIds };
    checkPair(pair, index, englishClasses, germanClasses);
    english += lengths[0];
    german += lengths[1];
    pairs.push(pair);
  }
  if (english !== englishTokens || german !== germanTokens) {
    throw new PairsFormatError('the pairs do not add up to the token totals of the header');
  }
  return {
    version,
    split: PAIR_SPLITS[split],
    englishClasses,
    englishUnknownId,
    englishVocabularyHash: englishHash,
    germanClasses,
    germanVocabularyHash: germanHash,
    pairs,
  };
}

/**
 * @param {number} englishClasses
 * @param {number} germanClasses
 * @param {number} englishUnknownId
 */
function checkClasses(englishClasses, germanClasses, englishUnknownId) {
  if (!(englishClasses >= 2 && englishClasses <= MAX_PAIR_CLASSES)) {
    throw new PairsFormatError(
      `English classes ${englishClasses} outside 2 ... ${MAX_PAIR_CLASSES}`,
    );
  }
  if (!(germanClasses > GERMAN_SPECIALS.unknown && germanClasses <= MAX_PAIR_CLASSES)) {
    throw new PairsFormatError(`German classes ${germanClasses} outside 4 ... ${MAX_PAIR_CLASSES}`);
  }
  if (!(englishUnknownId >= 0 && englishUnknownId < englishClasses)) {
    throw new PairsFormatError(`English unknown id ${englishUnknownId} is not below its classes`);
  }
}

/**
 * @param {Pair} pair
 * @param {number} index
 * @param {number} englishClasses
 * @param {number} germanClasses
 */
function checkPair(pair, index, englishClasses, germanClasses) {
  if (!(pair.source >= 0 && pair.source < PAIR_SOURCES.length)) {
    throw new PairsFormatError(`pair ${index}: unknown source ${pair.source}`);
  }
  for (const [side, ids, classes] of /** @type {const} */ ([
    ['English', pair.english, englishClasses],
    ['German', pair.german, germanClasses],
  ])) {
    if (ids.length === 0 || ids.length > 0xffff) {
      throw new PairsFormatError(`pair ${index}: ${ids.length} ${side} tokens`);
    }
    for (let i = 0; i < ids.length; i++) {
      const id = ids[i];
      if (!(Number.isInteger(id) && id >= 0 && id < classes)) {
        throw new PairsFormatError(`pair ${index}: ${side} id ${id} is not below ${classes}`);
      }
      if (side === 'German' && id < GERMAN_SPECIALS.unknown) {
        throw new PairsFormatError(`pair ${index}: German id ${id} is a padding or boundary id`);
      }
    }
  }
}
