// The token-id corpus a language model trains on: one file per split (train, validation, test) of
// samples of running text, each a run of vocabulary ids, as tools/make-corpus.js writes them. The
// format is described in docs/corpus.md. `readCorpus` checks every field and the exact size and
// throws a CorpusFormatError that says what is wrong; `encodeCorpus` writes the same format. No
// Node or browser APIs: the bytes are a Uint8Array or an ArrayBuffer.

/** The first eight bytes of every corpus file, in ASCII. */
export const CORPUS_MAGIC = 'ATTNCORP';
/** The format version this module reads and writes. */
export const CORPUS_VERSION = 1;
/** Bytes before the sample table: magic and seven uint32 fields. */
export const CORPUS_HEADER_BYTES = 36;
/** Ids are uint16, so a vocabulary (with its unknown-word id) holds at most this many entries. */
export const MAX_CLASSES = 65_536;
/**
 * The splits, by the number stored in the header.
 * @type {readonly ['train', 'validation', 'test']}
 */
export const SPLITS = Object.freeze(/** @type {const} */ (['train', 'validation', 'test']));

/** A file that is not a valid corpus file; the message says which check failed. */
export class CorpusFormatError extends Error {
  name = 'CorpusFormatError';
}

/**
 * @typedef {object} Corpus
 * @property {number} version the format version (1)
 * @property {'train' | 'validation' | 'test'} split
 * @property {number} classes the number of distinct ids: the vocabulary's entries plus one
 *   unknown-word id; every id is < classes
 * @property {number} unknownId the id every out-of-vocabulary token has
 * @property {number} vocabularyHash 32-bit FNV-1a hash of the vocabulary the ids index
 * @property {number} sampleCount
 * @property {number} tokenCount
 * @property {Uint32Array} sources (sampleCount) each sample's index in the source corpus,
 *   strictly increasing
 * @property {Uint32Array} offsets (sampleCount + 1) sample i is ids[offsets[i] .. offsets[i+1]);
 *   offsets[0] = 0, offsets[sampleCount] = tokenCount, strictly increasing
 * @property {Uint16Array} ids (tokenCount) every sample's tokens, one after the other
 */

/**
 * The exact byte size of a corpus file with these counts.
 * @param {number} sampleCount
 * @param {number} tokenCount
 */
export function corpusBytes(sampleCount, tokenCount) {
  return CORPUS_HEADER_BYTES + 4 * sampleCount + 4 * (sampleCount + 1) + 2 * tokenCount;
}

/**
 * Writes a corpus file.
 * @param {object} corpus
 * @param {'train' | 'validation' | 'test'} corpus.split
 * @param {number} corpus.classes
 * @param {number} corpus.unknownId
 * @param {number} corpus.vocabularyHash
 * @param {Array<{ source: number, ids: ArrayLike<number> }>} corpus.samples in source order,
 *   none empty
 * @returns {Uint8Array}
 */
export function encodeCorpus({ split, classes, unknownId, vocabularyHash, samples }) {
  const splitNumber = SPLITS.indexOf(split);
  if (splitNumber < 0) throw new CorpusFormatError(`unknown split "${split}"`);
  checkClasses(classes, unknownId);
  if (!isUint32(vocabularyHash)) throw new CorpusFormatError('vocabularyHash must be a uint32');
  if (samples.length < 1) throw new CorpusFormatError('a corpus needs at least one sample');
  const tokenCount = samples.reduce((sum, sample) => sum + sample.ids.length, 0);
  if (tokenCount > 0xffffffff) throw new CorpusFormatError('too many tokens for the format');

  const bytes = new Uint8Array(corpusBytes(samples.length, tokenCount));
  const view = new DataView(bytes.buffer);
  for (let i = 0; i < CORPUS_MAGIC.length; i++) bytes[i] = CORPUS_MAGIC.charCodeAt(i);
  const header = [CORPUS_VERSION, splitNumber, classes, unknownId, vocabularyHash];
  header.push(samples.length, tokenCount);
  header.forEach((value, i) => view.setUint32(8 + 4 * i, value, true));

  const sourcesAt = CORPUS_HEADER_BYTES;
  const offsetsAt = sourcesAt + 4 * samples.length;
  let idAt = offsetsAt + 4 * (samples.length + 1);
  let offset = 0;
  samples.forEach(({ source, ids }, i) => {
    if (!isUint32(source)) throw new CorpusFormatError(`sample ${i}: source must be a uint32`);
    if (i > 0 && source <= samples[i - 1].source) {
      throw new CorpusFormatError(`sample ${i}: sources must be strictly increasing`);
    }
    if (ids.length === 0) throw new CorpusFormatError(`sample ${i} is empty`);
    view.setUint32(sourcesAt + 4 * i, source, true);
    view.setUint32(offsetsAt + 4 * i, offset, true);
    for (let k = 0; k < ids.length; k++) {
      const id = ids[k];
      if (!Number.isInteger(id) || id < 0 || id >= classes) {
        throw new CorpusFormatError(`sample ${i}, token ${k}: id ${id} is not below ${classes}`);
      }
      view.setUint16(idAt, id, true);
      idAt += 2;
    }
    offset += ids.length;
  });
  view.setUint32(offsetsAt + 4 * samples.length, offset, true);
  return bytes;
}

/**
 * Reads and checks a corpus file: magic, version, split, classes, unknown-word id, counts, the
 * exact size, the sample table and every id. The arrays it returns are copies, aligned and
 * independent of `input`.
 * @param {Uint8Array | ArrayBuffer} input the whole file
 * @returns {Corpus}
 * @throws {CorpusFormatError} saying which check failed
 */
export function readCorpus(input) {
  const bytes = input instanceof ArrayBuffer ? new Uint8Array(input) : input;
  if (!(bytes instanceof Uint8Array)) {
    throw new CorpusFormatError('a corpus file must be given as a Uint8Array or an ArrayBuffer');
  }
  if (bytes.length < CORPUS_HEADER_BYTES) {
    throw new CorpusFormatError(
      `truncated: ${bytes.length} bytes, shorter than the ${CORPUS_HEADER_BYTES}-byte header`,
    );
  }
  const magic = String.fromCharCode(...bytes.subarray(0, CORPUS_MAGIC.length));
  if (magic !== CORPUS_MAGIC) {
    throw new CorpusFormatError(`not a corpus file: the magic is not ${CORPUS_MAGIC}`);
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const field = (/** @type {number} */ i) => view.getUint32(8 + 4 * i, true);
  const version = field(0);
  if (version !== CORPUS_VERSION) {
    throw new CorpusFormatError(
      `unsupported version ${version}: this reader knows version ${CORPUS_VERSION}`,
    );
  }
  const splitNumber = field(1);
  if (splitNumber >= SPLITS.length) {
    throw new CorpusFormatError(`unknown split ${splitNumber}: expected 0, 1 or 2`);
  }
  const [classes, unknownId, vocabularyHash, sampleCount, tokenCount] = [2, 3, 4, 5, 6].map(field);
  checkClasses(classes, unknownId);
  if (sampleCount < 1) throw new CorpusFormatError('no samples: the sample count is 0');
  if (tokenCount < sampleCount) {
    throw new CorpusFormatError(
      `${tokenCount} tokens cannot fill ${sampleCount} non-empty samples`,
    );
  }
  const expected = corpusBytes(sampleCount, tokenCount);
  if (bytes.length < expected) {
    throw new CorpusFormatError(
      `truncated: ${bytes.length} bytes, but ${sampleCount} samples and ${tokenCount} tokens need ${expected}`,
    );
  }
  if (bytes.length > expected) {
    throw new CorpusFormatError(
      `has extra bytes: ${bytes.length} bytes, but ${sampleCount} samples and ${tokenCount} tokens need ${expected}`,
    );
  }

  const sourcesAt = CORPUS_HEADER_BYTES;
  const offsetsAt = sourcesAt + 4 * sampleCount;
  const idsAt = offsetsAt + 4 * (sampleCount + 1);
  const sources = new Uint32Array(sampleCount);
  const offsets = new Uint32Array(sampleCount + 1);
  for (let i = 0; i < sampleCount; i++) {
    sources[i] = view.getUint32(sourcesAt + 4 * i, true);
    if (i > 0 && sources[i] <= sources[i - 1]) {
      throw new CorpusFormatError(`sample ${i}: its source index is not above the one before`);
    }
  }
  for (let i = 0; i <= sampleCount; i++) offsets[i] = view.getUint32(offsetsAt + 4 * i, true);
  if (offsets[0] !== 0)
    throw new CorpusFormatError(`the first sample starts at ${offsets[0]}, not 0`);
  for (let i = 0; i < sampleCount; i++) {
    if (offsets[i + 1] <= offsets[i]) {
      throw new CorpusFormatError(`sample ${i} is empty or ends before it starts`);
    }
  }
  if (offsets[sampleCount] !== tokenCount) {
    throw new CorpusFormatError(
      `the samples end at token ${offsets[sampleCount]}, but the file holds ${tokenCount}`,
    );
  }
  const ids = new Uint16Array(tokenCount);
  for (let k = 0; k < tokenCount; k++) {
    const id = view.getUint16(idsAt + 2 * k, true);
    if (id >= classes) {
      throw new CorpusFormatError(`token ${k}: id ${id} is not below the ${classes} classes`);
    }
    ids[k] = id;
  }
  return {
    version,
    split: SPLITS[splitNumber],
    classes,
    unknownId,
    vocabularyHash,
    sampleCount,
    tokenCount,
    sources,
    offsets,
    ids,
  };
}

/**
 * The ids of sample i (a view into corpus.ids).
 * @param {Corpus} corpus
 * @param {number} i
 * @returns {Uint16Array}
 */
export function sampleIds(corpus, i) {
  if (!Number.isInteger(i) || i < 0 || i >= corpus.sampleCount) {
    throw new RangeError(`sample ${i} is not one of the ${corpus.sampleCount}`);
  }
  return corpus.ids.subarray(corpus.offsets[i], corpus.offsets[i + 1]);
}

/**
 * 32-bit FNV-1a hash of bytes (offset basis 2166136261, prime 16777619), as attn::fnv1a32.
 * @param {Uint8Array} bytes
 * @returns {number} a uint32
 */
export function fnv1a32(bytes) {
  let hash = 0x811c9dc5;
  for (let i = 0; i < bytes.length; i++) {
    hash ^= bytes[i];
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash >>> 0;
}

/**
 * @param {number} classes
 * @param {number} unknownId
 */
function checkClasses(classes, unknownId) {
  if (!Number.isInteger(classes) || classes < 2 || classes > MAX_CLASSES) {
    throw new CorpusFormatError(
      `${classes} classes: a vocabulary needs 2 to ${MAX_CLASSES} ids for uint16 tokens`,
    );
  }
  if (!Number.isInteger(unknownId) || unknownId < 0 || unknownId >= classes) {
    throw new CorpusFormatError(`the unknown-word id ${unknownId} is not below ${classes}`);
  }
}

/** @param {number} value */
function isUint32(value) {
  return Number.isInteger(value) && value >= 0 && value <= 0xffffffff;
}
