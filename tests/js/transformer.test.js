// Lesson 2's Transformer translator through the facade (docs/engine-api.md, docs/transformer.md):
// loadTranslator({ model: 'transformer' }) reads web/public/models/transformer.bin and its report
// once; translate(text) gives what the recurrent models' does, and every decoder layer's and
// head's cross-attention. These tests hold for any trained file: they check shapes, sums, how the
// maps relate to the rows the page shows, determinism and messages, never particular German words.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';

import { loadEngine, loadTranslator } from 'attention-lab';
import { tokenize } from '../../web/src/text/tokenize.js';
import { ROOT, reportWith } from './helpers.js';
import { assertTranslation } from './translation-asserts.js';
import { weightsLayout } from './weights-file.js';

const WEIGHTS = new Uint8Array(readFileSync(join(ROOT, 'web/public/models/transformer.bin')));
const REPORT = JSON.parse(readFileSync(join(ROOT, 'web/public/models/transformer.json'), 'utf8'));
const VECTORS = new Uint8Array(readFileSync(join(ROOT, 'web/public/embeddings/en-20k-100d.bin')));

const transformer = await loadTranslator({ model: 'transformer' });

const SENTENCES = [
  "The animal didn't cross the street because it was too tired.",
  'I sat on the river bank.',
  'Where is the station?',
  'The committee said on Tuesday that it would not approve the new budget.',
  'Thank you',
];

/**
 * Asserts what a Transformer's translation guarantees besides every translation's: layers times
 * heads maps of (words, English) rows and a </s> row each, every row a distribution (within 1e-5);
 * each map's word rows the mean of its piece rows; and the rows the page shows (weights, end) the
 * mean over the last layer's heads (within 1e-6: the core averages in float32).
 * @param {import('attention-lab').Translation} result
 */
function assertEveryHead(result) {
  assertTranslation(transformer, result);
  const cross = result.crossAttention;
  assert.ok(cross, 'a Transformer translation has its cross-attention');
  const sizes = transformer.info.transformer;
  assert.ok(sizes);
  assert.equal(cross.layers, sizes.decoderLayers);
  assert.equal(cross.heads, sizes.heads);
  const n = result.source.length;
  const w = result.target.length;
  const m = result.pieces.text.length;
  const maps = cross.layers * cross.heads;
  assert.equal(cross.weights.length, maps * w * n);
  assert.equal(cross.end.length, maps * n);
  assert.equal(cross.pieces.length, maps * m * n);
  const rowOf = (/** @type {number} */ k, /** @type {number} */ t) =>
    t < w
      ? cross.weights.subarray((k * w + t) * n, (k * w + t + 1) * n)
      : cross.end.subarray(k * n, (k + 1) * n);
  for (let k = 0; k < maps; k++) {
    for (let t = 0; t <= w; t++) {
      const row = rowOf(k, t);
      const sum = row.reduce((a, b) => a + b, 0);
      assert.ok(
        row.every((x) => x >= 0 && x <= 1),
        `map ${k} row ${t}`,
      );
      assert.ok(Math.abs(sum - 1) < 1e-5, `map ${k} row ${t} sums to ${sum}`);
    }
    for (let t = 0; t < w; t++) {
      const [first, last] = [result.pieces.firstPiece[t], result.pieces.firstPiece[t + 1]];
      for (let j = 0; j < n; j++) {
        let mean = 0;
        for (let p = first; p < last; p++) mean += cross.pieces[(k * m + p) * n + j];
        mean /= last - first;
        assert.ok(Math.abs(mean - rowOf(k, t)[j]) < 1e-6, `map ${k} word ${t} English ${j}`);
      }
    }
  }
  const lastLayer = (cross.layers - 1) * cross.heads;
  for (let t = 0; t <= w; t++) {
    const shown = t < w ? result.weights.subarray(t * n, (t + 1) * n) : result.end;
    for (let j = 0; j < n; j++) {
      let mean = 0;
      for (let h = 0; h < cross.heads; h++) mean += rowOf(lastLayer + h, t)[j];
      mean /= cross.heads;
      assert.ok(Math.abs(mean - shown[j]) < 1e-6, `row ${t} English ${j}: ${mean}, ${shown[j]}`);
    }
  }
}

describe("loadTranslator({ model: 'transformer' })", () => {
  test('info gives the sizes of the file and what the report measured', () => {
    const { info } = transformer;
    const layout = weightsLayout(WEIGHTS);
    assert.equal(layout.kind, 'transformer-translator');
    assert.equal(info.model, 'transformer');
    assert.deepEqual(info.transformer, {
      dModel: layout.numbers.get('d_model'),
      heads: layout.numbers.get('heads'),
      encoderLayers: layout.numbers.get('encoder_layers'),
      decoderLayers: layout.numbers.get('decoder_layers'),
      dMlp: layout.numbers.get('d_mlp'),
    });
    assert.equal(info.targetWords, layout.numbers.get('target_words'));
    assert.equal(info.targetWidth, info.transformer?.dModel);
    assert.equal(info.encoderState, null);
    assert.equal(info.attentionWidth, null);
    const entry = REPORT.models.transformer;
    assert.equal(info.parameters, entry.parameters);
    assert.equal(info.bleu.overall.bleu, entry.bleu.overall.bleu);
    assert.equal(info.measuredBeam, REPORT.decoding.beam);
    assert.equal(
      info.heads?.length,
      (info.transformer?.decoderLayers ?? 0) * (info.transformer?.heads ?? 0),
    );
    info.heads?.forEach((head, k) => {
      assert.equal(head.layer, Math.floor(k / (info.transformer?.heads ?? 1)));
      assert.equal(head.head, k % (info.transformer?.heads ?? 1));
      assert.ok(head.aligned <= head.checkable);
    });
  });

  test('the file is loaded once, apart from the recurrent pair, which still translates', async () => {
    assert.equal(await loadTranslator({ model: 'transformer' }), transformer);
    const attention = await loadTranslator();
    assert.equal(attention.info.model, 'attention');
    assert.equal(attention.info.transformer, null);
    assertTranslation(attention, attention.translate(SENTENCES[1]));
    assertEveryHead(transformer.translate(SENTENCES[1]));
  });

  test('info is frozen all the way down', () => {
    const { info } = transformer;
    assert.ok(Object.isFrozen(info) && Object.isFrozen(info.transformer));
    assert.ok(Object.isFrozen(info.heads) && (info.heads ?? []).every(Object.isFrozen));
    assert.throws(() => {
      /** @type {any} */ (info.transformer).heads = 99;
    }, TypeError);
  });

  test('engine.loadTransformer on an engine you have gives the same translations', async () => {
    const engine = await loadEngine();
    engine.loadEmbeddings(VECTORS);
    const own = engine.loadTransformer(WEIGHTS.buffer.slice(0), REPORT);
    assert.equal(engine.transformer, own);
    assert.deepEqual(own.translate(SENTENCES[0]), transformer.translate(SENTENCES[0]));
  });
});

describe('translate(text) on the Transformer', () => {
  test('tokenizes as the figures do, and keeps every guarantee, every head', () => {
    for (const sentence of SENTENCES) {
      const result = transformer.translate(sentence);
      assert.deepEqual(result.source, tokenize(sentence));
      assertEveryHead(result);
    }
  });

  test('the same text gives the same translation, bit for bit; beam 1 is the default', () => {
    const once = transformer.translate(SENTENCES[3]);
    assert.deepEqual(transformer.translate(SENTENCES[3]), once);
    assert.deepEqual(transformer.translate(SENTENCES[3], { beam: 1 }), once);
  });

  test('a beam of 4 keeps every guarantee, the same bits every time, and scores no worse', () => {
    for (const sentence of SENTENCES) {
      const greedy = transformer.translate(sentence);
      const beam = transformer.translate(sentence, { beam: 4 });
      assertEveryHead(beam);
      assert.deepEqual(transformer.translate(sentence, { beam: 4 }), beam);
      assert.ok(Number.isFinite(beam.logProbability) && Number.isFinite(greedy.logProbability));
    }
  });

  test('bad input gets the same messages as the other models, and loses nothing', () => {
    const before = transformer.translate(SENTENCES[0]);
    for (const text of [42, null, ['the', 'cat']]) {
      assert.throws(
        () => transformer.translate(/** @type {any} */ (text)),
        /transformer translator: text must be a string/,
      );
    }
    assert.throws(
      () => transformer.translate(' \n'),
      /transformer translator: type at least one word/,
    );
    for (const beam of [0, 17, 2.5, '4']) {
      assert.throws(
        () => transformer.translate('the cat', { beam: /** @type {any} */ (beam) }),
        /transformer translator: beam must be a whole number from 1 to 16/,
      );
    }
    const long = transformer.translate(Array(5000).fill('cat').join(' '));
    assert.equal(long.source.length, 64);
    assert.equal(long.dropped, 5000 - 64);
    assertEveryHead(long);
    for (const text of [
      '日本語',
      '\ud800 lone \udfff',
      '<b>Hello</b> <script>x</script>',
      '?!...',
    ]) {
      assertEveryHead(transformer.translate(text));
    }
    assert.deepEqual(transformer.translate(SENTENCES[0]), before);
  });
});

describe('loading the Transformer: files and reports that do not fit are refused', () => {
  test('before the word vectors are loaded', async () => {
    const engine = await loadEngine();
    assert.throws(
      () => engine.loadTransformer(WEIGHTS, REPORT),
      /loadTranslator: no word vectors are loaded; call loadEmbeddings\(bytes\) first/,
    );
  });

  test('a corrupt file, or a report of something else, and the model loaded before stays', async () => {
    const engine = await loadEngine();
    engine.loadEmbeddings(VECTORS);
    const loaded = engine.loadTransformer(WEIGHTS, REPORT);
    const first = loaded.translate(SENTENCES[2]);
    const recurrent = readFileSync(join(ROOT, 'web/public/models/translation.bin'));
    const refused = [
      [WEIGHTS.subarray(0, 20), /truncated/],
      [WEIGHTS.subarray(0, WEIGHTS.length - 1), /truncated/],
      [new Uint8Array(recurrent), /transformer-translator/],
      ['not bytes', /loadTranslator: weights must be a Uint8Array or an ArrayBuffer/],
    ];
    for (const [bytes, message] of refused) {
      assert.throws(() => engine.loadTransformer(/** @type {any} */ (bytes), REPORT), message);
      assert.deepEqual(loaded.translate(SENTENCES[2]), first);
    }
    const where = 'loadTranslator: the translation report';
    const reports = [
      [
        reportWith(REPORT, 'models.transformer', null),
        { message: `${where} has no transformer model` },
      ],
      [
        reportWith(REPORT, 'models.transformer.heads[0].layer', -1),
        { message: `${where}'s models.transformer.heads[0].layer is -1, not a whole number >= 0` },
      ],
    ];
    for (const [report, message] of reports) {
      assert.throws(() => engine.loadTransformer(WEIGHTS, report), message);
      assert.deepEqual(loaded.translate(SENTENCES[2]), first);
    }
  });

  test('a report of another model fails the load, and the translator before it stops', async () => {
    const engine = await loadEngine();
    engine.loadEmbeddings(VECTORS);
    const loaded = engine.loadTransformer(WEIGHTS, REPORT);
    const other = structuredClone(REPORT);
    other.models.transformer.parameters += 1;
    assert.throws(
      () => engine.loadTransformer(WEIGHTS, other),
      /the translation report describes another transformer model than the file/,
    );
    assert.throws(() => loaded.translate('the cat'), /another Transformer file has been loaded/);
    const again = engine.loadTransformer(WEIGHTS, REPORT);
    assert.deepEqual(again.translate(SENTENCES[2]), transformer.translate(SENTENCES[2]));
  });
});
