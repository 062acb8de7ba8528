// The word-vector asset (web/public/embeddings/en-20k-100d.bin) read by the engine: its format as
// docs/embeddings.md describes it, real word meanings, unknown words, and errors.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

import { loadEngine } from 'attention-lab';
import { loadLesson } from '../../web/build/content.js';
import { tokenize } from '../../web/src/text/tokenize.js';
import { ROOT } from './helpers.js';

const ASSET = readFileSync(join(ROOT, 'web/public/embeddings/en-20k-100d.bin'));
const engine = await loadEngine();
const info = engine.loadEmbeddings(ASSET);

// An independent reader of the format (docs/embeddings.md), to check the engine against.
const MAGIC = ASSET.toString('latin1', 0, 8);
const VERSION = ASSET.readUInt32LE(8);
const count = ASSET.readUInt32LE(12);
const dim = ASSET.readUInt32LE(16);
const vocabularyBytes = ASSET.readUInt32LE(20);
const WORDS = ASSET.toString('utf8', 24, 24 + vocabularyBytes)
  .split('\n')
  .slice(0, -1);
const scalesAt = Math.ceil((24 + vocabularyBytes) / 4) * 4;
const codesAt = scalesAt + 4 * count;

/**
 * Word i's vector, dequantised in float32 as the engine does (scale x code, one rounding).
 * @param {number} i
 */
function vectorAt(i) {
  return Float32Array.from({ length: dim }, (_, k) =>
    Math.fround(ASSET.readFloatLE(scalesAt + 4 * i) * ASSET.readInt8(codesAt + i * dim + k)),
  );
}

/** @param {ArrayLike<number>} a @param {ArrayLike<number>} b */
function cosine(a, b) {
  let dot = 0;
  let aa = 0;
  let bb = 0;
  for (let k = 0; k < a.length; k++) {
    dot += a[k] * b[k];
    aa += a[k] * a[k];
    bb += b[k] * b[k];
  }
  return dot / Math.sqrt(aa * bb);
}

/** @param {ArrayLike<number>} a */
function norm(a) {
  let squares = 0;
  for (let k = 0; k < a.length; k++) squares += a[k] * a[k];
  return Math.sqrt(squares);
}

/**
 * The vectors of `words`, by word.
 * @param {string[]} words
 * @returns {Record<string, Float32Array>}
 */
function vectorsOf(words) {
  const { vectors, d } = engine.embed(words);
  return Object.fromEntries(words.map((w, i) => [w, vectors.slice(i * d, (i + 1) * d)]));
}

describe('the word-vector asset', () => {
  test('has the header, sizes and vocabulary docs/embeddings.md describes', () => {
    assert.equal(MAGIC, 'ATTNVECS');
    assert.equal(VERSION, 1);
    assert.equal(dim, 100);
    assert.equal(WORDS.length, count);
    assert.equal(ASSET.length, codesAt + count * dim, 'nothing before or after the sections');
    assert.equal(new Set(WORDS).size, count, 'every word once');
    assert.deepEqual(WORDS.slice(0, 5), ['the', 'of', 'to', 'and', 'in']);
    for (const word of WORDS) assert.equal(word.normalize('NFC'), word);
    assert.ok(WORDS.filter((w) => /^\p{Ll}+(?:['-]\p{Ll}+)*$/u.test(w)).length >= 20_000);
  });

  test('is at most 2.5 MB over the wire (gzip -9)', () => {
    const gzip = gzipSync(ASSET, { level: 9 }).length;
    assert.ok(gzip <= 2.5e6, `${gzip} bytes compressed`);
  });

  test('loads into the engine, which reports its size', () => {
    assert.deepEqual(info, { words: count, dim: 100 });
  });

  test('the engine gives each word exactly its scale times its int8 entries', () => {
    const picks = [0, 1, 17, 999, 12_345, count - 1];
    const { vectors, known, d } = engine.embed(picks.map((i) => WORDS[i]));
    assert.equal(d, dim);
    assert.deepEqual(
      Array.from(known),
      picks.map(() => 1),
    );
    picks.forEach((i, row) => {
      assert.deepEqual(vectors.slice(row * d, (row + 1) * d), vectorAt(i), WORDS[i]);
    });
  });
});

describe('real word vectors', () => {
  test('king is closer to queen than to banana', () => {
    const v = vectorsOf(['king', 'queen', 'banana']);
    assert.ok(cosine(v.king, v.queen) > cosine(v.king, v.banana) + 0.3);
  });

  test('bank is closer to river and to loan than to purple', () => {
    const v = vectorsOf(['bank', 'river', 'loan', 'purple']);
    const purple = cosine(v.bank, v.purple);
    assert.ok(cosine(v.bank, v.river) > purple, 'river');
    assert.ok(cosine(v.bank, v.loan) > purple, 'loan');
  });

  test('the contraction pieces and stand-ins carry the vectors of their words', () => {
    const pairs = [
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
    const v = vectorsOf(pairs.flat());
    for (const [piece, word] of pairs) assert.deepEqual(v[piece], v[word], piece);
  });

  test('every token of the lesson’s heatmap sentences is in the vocabulary', () => {
    const lesson = loadLesson(fileURLToPath(new URL('../../slides/attention/', import.meta.url)));
    const sentences = lesson.slides
      .map((slide) => slide.widget?.props?.sentence)
      .filter((sentence) => typeof sentence === 'string');
    assert.ok(sentences.length > 0);
    for (const sentence of sentences) {
      const tokens = tokenize(sentence);
      const { known } = engine.embed(tokens);
      const missing = tokens.filter((_, i) => known[i] === 0);
      assert.deepEqual(missing, [], sentence);
    }
  });
});

describe('unknown words', () => {
  const { vectors, known, d } = engine.embed([
    'the',
    'zyxwv',
    'cat',
    'zyxwv',
    'qqqjj',
    '😀',
    'Cat',
  ]);
  const row = (i) => vectors.slice(i * d, (i + 1) * d);
  const meanNorm = WORDS.reduce((sum, _, i) => sum + norm(vectorAt(i)), 0) / count;

  test('are flagged, and matched exactly (the tokenizer lower-cases)', () => {
    assert.deepEqual(Array.from(known), [1, 0, 1, 0, 0, 0, 0]);
  });

  test('get the same vector every time, and different words different ones', () => {
    assert.deepEqual(row(1), row(3));
    assert.deepEqual(row(1), vectorsOf(['zyxwv']).zyxwv);
    assert.ok(Math.abs(cosine(row(1), row(4))) < 0.5);
    assert.ok(Math.abs(cosine(row(1), row(2))) < 0.5, 'unrelated to real words');
  });

  test('get a vector of the vocabulary’s mean length', () => {
    for (const i of [1, 4, 5, 6]) {
      assert.ok(Math.abs(norm(row(i)) - meanNorm) < 1e-3 * meanNorm, `${norm(row(i))}`);
    }
  });
});

describe('errors', () => {
  /**
   * @param {() => unknown} call
   * @param {RegExp} message
   */
  const throwsError = (call, message) =>
    assert.throws(call, (error) => error instanceof Error && message.test(error.message));

  test('a truncated, foreign or malformed file is refused with a message that says why', () => {
    throwsError(() => engine.loadEmbeddings(ASSET.subarray(0, 10)), /fewer than the 24/);
    throwsError(() => engine.loadEmbeddings(ASSET.subarray(0, ASSET.length - 1)), /truncated/);
    throwsError(() => engine.loadEmbeddings(Buffer.concat([ASSET, Buffer.alloc(1)])), /extra/);
    throwsError(
      () => engine.loadEmbeddings(new TextEncoder().encode('<!doctype html><html></html>')),
      /not a word-vector file/,
    );
    const otherVersion = Buffer.from(ASSET);
    otherVersion.writeUInt32LE(2, 8);
    throwsError(() => engine.loadEmbeddings(otherVersion), /version 2 is not supported/);
    throwsError(() => engine.loadEmbeddings('the asset'), /Uint8Array or an ArrayBuffer/);
    throwsError(() => engine.loadEmbeddings(undefined), /Uint8Array or an ArrayBuffer/);
  });

  test('an ArrayBuffer is accepted as well as a Uint8Array', () => {
    const buffer = ASSET.buffer.slice(ASSET.byteOffset, ASSET.byteOffset + ASSET.length);
    assert.deepEqual(engine.loadEmbeddings(buffer), info);
  });

  test('a refused file leaves the loaded vectors in place', () => {
    const before = engine.embed(['king']).vectors;
    assert.throws(() => engine.loadEmbeddings(ASSET.subarray(0, 100)));
    assert.deepEqual(engine.embed(['king']).vectors, before);
  });

  test('tokens must be an array of strings', () => {
    throwsError(() => engine.embed('king'), /tokens must be an array of strings/);
    throwsError(() => engine.embed(['king', 3]), /tokens\[1\] must be a string/);
    assert.deepEqual(engine.embed([]), {
      vectors: new Float32Array(0),
      known: new Uint8Array(0),
      d: 100,
    });
  });

  test('embed before loadEmbeddings says what to do', async () => {
    const fresh = await loadEngine();
    throwsError(() => fresh.embed(['king']), /no word vectors are loaded; call loadEmbeddings/);
  });
});
