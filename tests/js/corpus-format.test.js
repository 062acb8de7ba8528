// The corpus file format (web/src/text/corpus.js, docs/corpus.md): files the test builds byte by
// byte are read as the format describes them, what the writer writes reads back the same, and
// every kind of broken file is refused with an error that says what is wrong.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import {
  CorpusFormatError,
  corpusBytes,
  encodeCorpus,
  fnv1a32,
  readCorpus,
  sampleIds,
} from '../../web/src/text/corpus.js';

/**
 * A corpus file written field by field, independently of encodeCorpus: header, sources, offsets,
 * uint16 ids. `patch` may change any header field before the tables are written.
 * @param {{ split?: number, classes?: number, unknownId?: number, hash?: number, samples: number[][],
 *   sources?: number[], version?: number, magic?: string }} spec
 */
function handMade({
  split = 2,
  classes = 10,
  unknownId = 9,
  hash = 0xdeadbeef,
  samples,
  sources = samples.map((_, i) => 3 * i + 1),
  version = 1,
  magic = 'ATTNCORP',
}) {
  const tokens = samples.flat();
  const size = 36 + 4 * samples.length + 4 * (samples.length + 1) + 2 * tokens.length;
  const bytes = new Uint8Array(size);
  const view = new DataView(bytes.buffer);
  for (let i = 0; i < 8; i++) bytes[i] = magic.charCodeAt(i);
  [version, split, classes, unknownId, hash, samples.length, tokens.length].forEach((v, i) =>
    view.setUint32(8 + 4 * i, v, true),
  );
  let at = 36;
  for (const source of sources) {
    view.setUint32(at, source, true);
    at += 4;
  }
  let offset = 0;
  view.setUint32(at, 0, true);
  at += 4;
  for (const sample of samples) {
    offset += sample.length;
    view.setUint32(at, offset, true);
    at += 4;
  }
  for (const id of tokens) {
    view.setUint16(at, id, true);
    at += 2;
  }
  return bytes;
}

/**
 * @param {Uint8Array} bytes
 * @param {RegExp} message
 */
function refuses(bytes, message) {
  assert.throws(
    () => readCorpus(bytes),
    (error) => error instanceof CorpusFormatError && message.test(error.message),
  );
}

const SAMPLES = [
  [0, 1, 2],
  [9, 3],
  [4, 5, 6, 7, 8],
];

describe('readCorpus', () => {
  test('reads a file built field by field as the format describes it', () => {
    const bytes = handMade({ samples: SAMPLES });
    assert.equal(bytes.length, 36 + 12 + 16 + 20);
    assert.equal(corpusBytes(3, 10), bytes.length);
    const corpus = readCorpus(bytes);
    assert.equal(corpus.version, 1);
    assert.equal(corpus.split, 'test');
    assert.equal(corpus.classes, 10);
    assert.equal(corpus.unknownId, 9);
    assert.equal(corpus.vocabularyHash, 0xdeadbeef);
    assert.equal(corpus.sampleCount, 3);
    assert.equal(corpus.tokenCount, 10);
    assert.deepEqual([...corpus.sources], [1, 4, 7]);
    assert.deepEqual([...corpus.offsets], [0, 3, 5, 10]);
    assert.deepEqual([...corpus.ids], SAMPLES.flat());
    assert.deepEqual(
      SAMPLES.map((_, i) => [...sampleIds(corpus, i)]),
      SAMPLES,
    );
    assert.throws(() => sampleIds(corpus, 3), RangeError);
  });

  test('reads the split numbers 0, 1, 2 as train, validation, test', () => {
    assert.deepEqual(
      [0, 1, 2].map((split) => readCorpus(handMade({ split, samples: SAMPLES })).split),
      ['train', 'validation', 'test'],
    );
  });

  test('reads from an ArrayBuffer and from a view that does not start at byte 0', () => {
    const bytes = handMade({ samples: SAMPLES });
    assert.deepEqual([...readCorpus(bytes.slice().buffer).ids], SAMPLES.flat());
    const shifted = new Uint8Array(bytes.length + 3);
    shifted.set(bytes, 3);
    assert.deepEqual([...readCorpus(shifted.subarray(3)).ids], SAMPLES.flat());
  });

  test('refuses a wrong magic, an unknown version and a non-byte input', () => {
    refuses(handMade({ samples: SAMPLES, magic: 'ATTNVECS' }), /magic/);
    refuses(handMade({ samples: SAMPLES, version: 2 }), /unsupported version 2/);
    refuses(handMade({ samples: SAMPLES, version: 0 }), /unsupported version 0/);
    assert.throws(() => readCorpus(/** @type {any} */ ([1, 2, 3])), CorpusFormatError);
  });

  test('refuses a file cut short or running on, by any amount', () => {
    const bytes = handMade({ samples: SAMPLES });
    refuses(bytes.subarray(0, 0), /truncated/);
    refuses(bytes.subarray(0, 20), /truncated.*header/);
    for (const cut of [1, 2, 7, 20, 48])
      refuses(bytes.subarray(0, bytes.length - cut), /truncated/);
    for (const extra of [1, 2, 4]) {
      const longer = new Uint8Array(bytes.length + extra);
      longer.set(bytes);
      refuses(longer, /extra bytes/);
    }
  });

  test('refuses a bad split, class count or unknown-word id', () => {
    refuses(handMade({ samples: SAMPLES, split: 3 }), /unknown split 3/);
    refuses(handMade({ samples: SAMPLES, classes: 1, unknownId: 0 }), /1 classes/);
    refuses(handMade({ samples: SAMPLES, classes: 65_537 }), /65537 classes/);
    refuses(handMade({ samples: SAMPLES, unknownId: 10 }), /unknown-word id 10/);
  });

  test('refuses an id at or above the class count', () => {
    refuses(handMade({ samples: [[0, 1], [10]] }), /token 2: id 10/);
    refuses(handMade({ samples: [[65_535]] }), /id 65535/);
  });

  test('refuses a broken sample table', () => {
    refuses(handMade({ samples: [] }), /no samples/);
    refuses(handMade({ samples: [[1, 2], []] }), /cannot fill|empty/);
    refuses(handMade({ samples: [[1, 2], [], [3]] }), /sample 1 is empty/);
    refuses(handMade({ samples: SAMPLES, sources: [1, 1, 2] }), /sample 1: its source/);
    refuses(handMade({ samples: SAMPLES, sources: [5, 4, 6] }), /sample 1: its source/);
    // Offsets that do not start at 0 or do not end at the token count.
    const bytes = handMade({ samples: SAMPLES });
    const view = new DataView(bytes.buffer);
    const offsetsAt = 36 + 4 * 3;
    const first = bytes.slice();
    new DataView(first.buffer).setUint32(offsetsAt, 1, true);
    refuses(first, /starts at 1/);
    const last = bytes.slice();
    new DataView(last.buffer).setUint32(offsetsAt + 12, 9, true);
    refuses(last, /end at token 9/);
    assert.equal(view.getUint32(offsetsAt + 12, true), 10);
  });
});

describe('encodeCorpus', () => {
  test('writes exactly the bytes of the field-by-field file', () => {
    const written = encodeCorpus({
      split: 'test',
      classes: 10,
      unknownId: 9,
      vocabularyHash: 0xdeadbeef,
      samples: SAMPLES.map((ids, i) => ({ source: 3 * i + 1, ids })),
    });
    assert.deepEqual(written, handMade({ samples: SAMPLES }));
  });

  test('refuses what the format cannot hold', () => {
    const base = { split: 'train', classes: 10, unknownId: 9, vocabularyHash: 1 };
    const one = [{ source: 0, ids: [1] }];
    const fails = (/** @type {object} */ spec) =>
      assert.throws(
        () => encodeCorpus(/** @type {any} */ ({ ...base, samples: one, ...spec })),
        CorpusFormatError,
      );
    fails({ split: 'dev' });
    fails({ classes: 70_000 });
    fails({ unknownId: -1 });
    fails({ vocabularyHash: 2 ** 32 });
    fails({ samples: [] });
    fails({ samples: [{ source: 0, ids: [] }] });
    fails({ samples: [{ source: 0, ids: [10] }] });
    fails({ samples: [{ source: 0, ids: [1.5] }] });
    fails({
      samples: [
        { source: 2, ids: [1] },
        { source: 2, ids: [1] },
      ],
    });
  });
});

describe('fnv1a32', () => {
  test('matches the published FNV-1a test values', () => {
    const bytes = (/** @type {string} */ s) => new TextEncoder().encode(s);
    assert.equal(fnv1a32(bytes('')), 0x811c9dc5);
    assert.equal(fnv1a32(bytes('a')), 0xe40c292c);
    assert.equal(fnv1a32(bytes('foobar')), 0xbf9cf968);
  });
});
