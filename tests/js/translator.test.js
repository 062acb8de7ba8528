// The page's two translation models through the facade (docs/engine-api.md): loadTranslator()
// reads web/public/models/translation.bin (both models and the German vocabulary) and its report
// once; translate(text) gives the German words and, for the attention model, every word's weights
// over the English words. These tests hold for any trained file: they check shapes, sums,
// determinism and messages, never particular German words. Bad input gets a clear message or a
// bounded result and leaves the models usable.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';

import { loadEngine, loadTranslator } from 'attention-lab';
import { tokenize } from '../../web/src/text/tokenize.js';
import { ROOT, reportWith } from './helpers.js';
import { assertTranslation, maxWords } from './translation-asserts.js';
import { weightsLayout } from './weights-file.js';

const WEIGHTS = new Uint8Array(readFileSync(join(ROOT, 'web/public/models/translation.bin')));
const REPORT = JSON.parse(readFileSync(join(ROOT, 'web/public/models/translation.json'), 'utf8'));
const VECTORS = new Uint8Array(readFileSync(join(ROOT, 'web/public/embeddings/en-20k-100d.bin')));

const attention = await loadTranslator();
const fixedVector = await loadTranslator({ model: 'fixed-vector' });

const SENTENCES = [
  "The animal didn't cross the street because it was too tired.",
  'I sat on the river bank.',
  'Where is the station?',
  'The committee said on Tuesday that it would not approve the new budget.',
  'Thank you',
];

/**
 * The file with the output bias of every model set so that the German unknown word <unk> (id 3)
 * always wins: each model then writes <unk> until the word limit ends the sentence. Walks the
 * layout of docs/weights-file.md (each model's output bias b_out is the tensor <model>/logit_b,
 * stored row by row: a float32 scale, then one signed byte per column) and checks that it ends
 * with the file.
 * @param {Uint8Array} bytes
 * @returns {Uint8Array}
 */
function alwaysUnknown(bytes) {
  const out = new Uint8Array(bytes);
  const view = new DataView(out.buffer);
  const layout = weightsLayout(out);
  const biases = layout.tensors.filter((t) => t.name.endsWith('/logit_b'));
  assert.equal(biases.length, 2, 'both models have an output bias');
  for (const { at, cols, encoding } of biases) {
    assert.equal(encoding, 'int8-rows');
    view.setFloat32(at, 10_000 / 127, true);
    out.fill(0, at + 4, at + 4 + cols);
    out[at + 4 + 3] = 127;
  }
  assert.equal(layout.end, out.length, 'the layout walked covers the whole file');
  return out;
}

describe('loadTranslator: both models from one file', () => {
  test('the two models share the file: its sizes, and each its own line of the report', () => {
    const layout = weightsLayout(WEIGHTS);
    assert.equal(layout.kind, 'translators');
    assert.equal(attention.info.model, 'attention');
    assert.equal(fixedVector.info.model, 'fixed-vector');
    const sizes = {
      sourceWords: 'source_words',
      sourceWidth: 'source_width',
      targetWords: 'target_words',
      targetWidth: 'target_width',
      encoderState: 'encoder_state',
      decoderState: 'decoder_state',
    };
    for (const [name, stored] of Object.entries(sizes)) {
      assert.equal(attention.info[name], layout.numbers.get(stored), name);
      assert.equal(fixedVector.info[name], attention.info[name], name);
    }
    assert.equal(attention.info.attentionWidth, layout.numbers.get('attention'));
    assert.equal(fixedVector.info.attentionWidth, null);
    // info keeps the report's scores and counts; the report's further detail (BLEU's precisions
    // and brevity penalty, the diagonal's count, the sources' names) stays in the file.
    const score = (/** @type {any} */ b) => ({ bleu: b.bleu, sentences: b.sentences });
    const { trainPairs, validationPairs, testPairs } = REPORT.corpus;
    for (const translator of [attention, fixedVector]) {
      const measured = REPORT.models[translator.info.model];
      assert.equal(translator.info.parameters, measured.parameters);
      assert.equal(translator.info.testPerplexity, measured.testPerplexity);
      assert.deepEqual(translator.info.bleu, {
        overall: score(measured.bleu.overall),
        buckets: measured.bleu.buckets.map((/** @type {any} */ b) => ({
          from: b.from,
          to: b.to,
          ...score(b),
        })),
      });
      assert.deepEqual(translator.info.corpus, { trainPairs, validationPairs, testPairs });
      assert.deepEqual(translator.info.training, REPORT.training);
      assert.equal(translator.info.maxSourceTokens, 64);
    }
    const {
      checkable,
      aligned,
      score: alignment,
      diagonalScore,
    } = REPORT.models.attention.alignment;
    assert.deepEqual(attention.info.alignment, {
      checkable,
      aligned,
      score: alignment,
      diagonalScore,
    });
    assert.equal(fixedVector.info.alignment, null);
    assert.ok(attention.info.parameters > fixedVector.info.parameters);
    for (const translator of [attention, fixedVector]) {
      const { sentences, chrf, unknownShare, contentWordRecall } =
        REPORT.models[translator.info.model].everyday;
      assert.deepEqual(translator.info.everyday, {
        sentences,
        chrf,
        unknownShare,
        contentWordRecall,
      });
    }
  });

  test('a report without the everyday scores loads, and info says null for them', async () => {
    const engine = await loadEngine();
    engine.loadEmbeddings(VECTORS);
    const report = reportWith(REPORT, 'models.attention.everyday', undefined);
    report.models['fixed-vector'].everyday = null;
    const loaded = engine.loadTranslators(WEIGHTS, report);
    assert.equal(loaded.attention?.info.everyday, null);
    assert.equal(loaded.fixedVector?.info.everyday, null);
    assert.deepEqual(loaded.attention?.info.bleu, attention.info.bleu);
  });

  test('info names the beam the report was measured with, greedy when it names none', async () => {
    assert.equal(attention.info.measuredBeam, REPORT.decoding.beam);
    assert.equal(fixedVector.info.measuredBeam, REPORT.decoding.beam);
    const engine = await loadEngine();
    engine.loadEmbeddings(VECTORS);
    const loaded = engine.loadTranslators(WEIGHTS, reportWith(REPORT, 'decoding', undefined));
    assert.equal(loaded.attention?.info.measuredBeam, 1);
  });

  test('the file is loaded once: asking again gives the same translators', async () => {
    assert.equal(await loadTranslator(), attention);
    assert.equal(await loadTranslator({ model: 'attention' }), attention);
    assert.equal(await loadTranslator({ model: 'fixed-vector' }), fixedVector);
  });

  test('info is frozen all the way down', () => {
    const { info } = attention;
    assert.ok(Object.isFrozen(info) && Object.isFrozen(info.bleu) && Object.isFrozen(info.corpus));
    assert.ok(info.bleu.buckets.every(Object.isFrozen) && Object.isFrozen(info.alignment));
    assert.ok(Object.isFrozen(info.everyday) && Object.isFrozen(info.training));
    assert.throws(() => {
      /** @type {any} */ (info.bleu.overall).bleu = 99;
    }, TypeError);
  });

  test('an unknown model is refused before anything loads', async () => {
    await assert.rejects(
      loadTranslator({ model: /** @type {any} */ ('rnn') }),
      /loadTranslator: model must be 'attention', 'fixed-vector' or 'transformer', got "rnn"/,
    );
  });

  test('engine.loadTranslators gives both models of the file on an engine you have', async () => {
    const engine = await loadEngine();
    engine.loadEmbeddings(VECTORS);
    const both = engine.loadTranslators(WEIGHTS.buffer.slice(0), REPORT);
    assert.equal(both.attention?.info.model, 'attention');
    assert.equal(both.fixedVector?.info.model, 'fixed-vector');
    const one = await loadTranslator({ engine, model: 'fixed-vector' });
    assert.deepEqual(one.translate(SENTENCES[0]), fixedVector.translate(SENTENCES[0]));
  });
});

describe('translate(text)', () => {
  test('tokenizes the English as the figures do, and keeps every guarantee', () => {
    for (const translator of [attention, fixedVector]) {
      for (const sentence of SENTENCES) {
        const result = translator.translate(sentence);
        assert.deepEqual(result.source, tokenize(sentence));
        assert.equal(result.dropped, 0);
        assertTranslation(translator, result);
      }
    }
  });

  test('the same text gives the same translation, bit for bit', () => {
    for (const translator of [attention, fixedVector]) {
      const first = translator.translate(SENTENCES[3]);
      fixedVector.translate('Something else in between.');
      assert.deepEqual(translator.translate(SENTENCES[3]), first);
    }
  });

  test('the fixed-vector model has no weights to show', () => {
    const result = fixedVector.translate(SENTENCES[1]);
    assert.deepEqual(
      [result.weights.length, result.end.length, result.pieces.scores.length],
      [0, 0, 0],
    );
  });

  test("the attention model's scores are the slide's e_tj: softmax of a row gives its weights", () => {
    const result = attention.translate(SENTENCES[0]);
    const n = result.source.length;
    assert.ok(result.target.length > 0);
    assert.equal(result.pieces.scores.length, result.pieces.text.length * n);
    // Scores are not weights: they are unbounded and need not sum to 1.
    assert.ok(result.pieces.scores.some((e) => e < 0 || e > 1));
    assertTranslation(attention, result);
  });

  test('English words outside the word vectors are flagged, and still translated', () => {
    for (const translator of [attention, fixedVector]) {
      const result = translator.translate('The zzqxv sat down.');
      assert.deepEqual(result.known, [true, false, true, true, true]);
      assertTranslation(translator, result);
    }
  });

  test("a German unknown word is written '<unk>', never dropped, up to the word limit", async () => {
    const engine = await loadEngine();
    engine.loadEmbeddings(VECTORS);
    const both = engine.loadTranslators(alwaysUnknown(WEIGHTS), REPORT);
    for (const translator of [both.attention, both.fixedVector]) {
      assert.ok(translator);
      for (const sentence of ['Thank you', SENTENCES[3]]) {
        const result = translator.translate(sentence);
        const n = result.source.length;
        assert.deepEqual(result.target, Array(maxWords(n)).fill('<unk>'));
        assertTranslation(translator, result);
      }
    }
    // 64 tokens: 2 * 64 + 10 = 138 words would pass the core's 127.
    const long = both.attention?.translate('word '.repeat(80)) ?? assert.fail();
    assert.equal(long.target.length, 127);
    assertTranslation(attention, long);
  });
});

describe('translate(text, { beam })', () => {
  test('a beam of 1 is the default, greedy decoding, bit for bit', () => {
    for (const translator of [attention, fixedVector]) {
      for (const sentence of SENTENCES) {
        assert.deepEqual(
          translator.translate(sentence, { beam: 1 }),
          translator.translate(sentence),
        );
      }
    }
  });

  test('a beam of 4 keeps every guarantee, and gives the same bits every time', () => {
    for (const translator of [attention, fixedVector]) {
      for (const sentence of SENTENCES) {
        const beam = translator.translate(sentence, { beam: 4 });
        assertTranslation(translator, beam);
        assert.deepEqual(beam.source, translator.translate(sentence).source);
        assert.deepEqual(translator.translate(sentence, { beam: 4 }), beam);
      }
    }
  });

  test('a beam outside 1 to 16 is refused with its message', () => {
    for (const beam of [0, 17, 2.5, '4', null]) {
      assert.throws(
        () => attention.translate(SENTENCES[0], { beam: /** @type {any} */ (beam) }),
        /attention translator: beam must be a whole number from 1 to 16/,
      );
    }
  });
});

describe('bad input gets a clear message or a bounded result, and loses nothing', () => {
  const before = attention.translate(SENTENCES[0]);

  test('anything but a string', () => {
    for (const translator of [attention, fixedVector]) {
      for (const text of [42, null, undefined, ['the', 'cat'], { text: 'the cat' }]) {
        assert.throws(
          () => translator.translate(/** @type {any} */ (text)),
          /translator: text must be a string, got (number|null|undefined|an array|object)/,
        );
      }
    }
  });

  test('text without a word', () => {
    for (const text of ['', '   ', '\u200b\n\t', '\u0000\u0001']) {
      assert.throws(
        () => attention.translate(text),
        /attention translator: type at least one word/,
      );
      assert.throws(() => fixedVector.translate(text), /type at least one word/);
    }
  });

  test('punctuation alone is translated like any token', () => {
    for (const translator of [attention, fixedVector]) {
      const result = translator.translate('?!...');
      assert.deepEqual(result.source, tokenize('?!...'));
      assertTranslation(translator, result);
    }
  });

  test('5,000 words: the first 64 tokens are read, and the rest counted as dropped', () => {
    const text = Array.from({ length: 5000 }, (_, i) => (i % 2 ? 'cat' : 'the')).join(' ');
    for (const translator of [attention, fixedVector]) {
      const result = translator.translate(text);
      assert.equal(result.source.length, 64);
      assert.equal(result.dropped, 5000 - 64);
      assertTranslation(translator, result);
    }
    const huge = attention.translate('a b '.repeat(200_000));
    assert.equal(huge.source.length, 64);
    assertTranslation(attention, huge);
  });

  test('any Unicode, broken surrogates included', () => {
    const texts = ['日本語のテキスト', '\ud800 lone half \udfff', '👩‍👩‍👧 family', 'x'.repeat(10_000)];
    texts.push('مرحبا بالعالم', 'e\u0301te\u0301', '\u202eevil\u202c');
    for (const translator of [attention, fixedVector]) {
      for (const text of texts) assertTranslation(translator, translator.translate(text));
    }
    assert.deepEqual(attention.translate('日本語').known, [false]);
  });

  test('markup is text: its marks are tokens like any other', () => {
    const text = '<b>Hello</b> <script>alert("x")</script> &amp; <img src=x onerror=y>';
    for (const translator of [attention, fixedVector]) {
      const result = translator.translate(text);
      assert.deepEqual(result.source, tokenize(text).slice(0, 64));
      assert.ok(result.source.includes('<') && result.source.includes('script'));
      assertTranslation(translator, result);
    }
  });

  test('after all of that, the models translate as before', () => {
    assert.deepEqual(attention.translate(SENTENCES[0]), before);
  });
});

describe('loading: files and reports that do not fit are refused', () => {
  test('before the word vectors are loaded', async () => {
    const engine = await loadEngine();
    assert.throws(
      () => engine.loadTranslators(WEIGHTS, REPORT),
      /loadTranslator: no word vectors are loaded; call loadEmbeddings\(bytes\) first/,
    );
  });

  test('on word vectors of another vocabulary', async () => {
    const engine = await loadEngine();
    // Two words of width 3 (docs/embeddings.md).
    const vocabulary = Buffer.from('a\nbb\n');
    const header = Buffer.alloc(24);
    header.write('ATTNVECS', 0, 'latin1');
    for (const [i, v] of [1, 2, 3, vocabulary.length].entries()) header.writeUInt32LE(v, 8 + 4 * i);
    const scales = Buffer.alloc(8);
    scales.writeFloatLE(0.01, 0);
    scales.writeFloatLE(0.02, 4);
    const padding = Buffer.alloc((4 - ((24 + vocabulary.length) % 4)) % 4);
    const codes = Buffer.from([1, 2, 3, 4, 5, 6]);
    engine.loadEmbeddings(
      new Uint8Array(Buffer.concat([header, vocabulary, padding, scales, codes])),
    );
    assert.throws(() => engine.loadTranslators(WEIGHTS, REPORT), /trained on other word vectors/);
  });

  test('a corrupt file, or a report of something else, and the models loaded before stay', async () => {
    const engine = await loadEngine();
    engine.loadEmbeddings(VECTORS);
    const { attention: loaded } = engine.loadTranslators(WEIGHTS, REPORT);
    assert.ok(loaded);
    const first = loaded.translate(SENTENCES[2]);
    const wrongMagic = new Uint8Array(WEIGHTS);
    wrongMagic[0] = 0x58;
    const withExtra = new Uint8Array(WEIGHTS.length + 1);
    withExtra.set(WEIGHTS);
    const refused = [
      [WEIGHTS.subarray(0, 20), /translator weights: the file is truncated/],
      [WEIGHTS.subarray(0, 4000), /truncated/],
      [WEIGHTS.subarray(0, WEIGHTS.length - 1), /truncated in the tensor attention\/score_v/],
      [wrongMagic, /translator weights: not a weights file/],
      [withExtra, /extra bytes/],
      ['not bytes', /loadTranslator: weights must be a Uint8Array or an ArrayBuffer/],
    ];
    for (const [bytes, message] of refused) {
      assert.throws(() => engine.loadTranslators(/** @type {any} */ (bytes), REPORT), message);
      assert.deepEqual(loaded.translate(SENTENCES[2]), first);
    }
    const where = 'loadTranslator: the translation report';
    const reports = [
      [null, /is not an attn-translation-report/],
      [{ ...REPORT, format: 'attn-lm-report' }, /is not an attn-translation-report/],
      [{ ...REPORT, corpus: {} }, /has no corpus.trainPairs/],
      [
        {
          ...REPORT,
          models: { ...REPORT.models, attention: { ...REPORT.models.attention, bleu: {} } },
        },
        /has no models.attention.bleu.overall/,
      ],
      [
        reportWith(REPORT, 'models.attention.bleu.overall.bleu', undefined),
        { message: `${where} has no models.attention.bleu.overall.bleu` },
      ],
      [
        reportWith(REPORT, 'models.fixed-vector.everyday.chrf', 'high'),
        {
          message: `${where}'s models.fixed-vector.everyday.chrf is "high", not a finite number >= 0`,
        },
      ],
      [
        reportWith(REPORT, 'models.attention.everyday.contentWordRecall', undefined),
        { message: `${where} has no models.attention.everyday.contentWordRecall` },
      ],
      [
        reportWith(REPORT, 'models.attention.bleu.buckets[2].to', 3),
        { message: `${where}'s models.attention.bleu.buckets[2] ends before it starts` },
      ],
      [
        reportWith(REPORT, 'models.attention.bleu.buckets[5].to', undefined),
        { message: `${where} has no models.attention.bleu.buckets[5].to` },
      ],
      [
        reportWith(REPORT, 'models.attention.alignment.checkable', 1.5),
        {
          message: `${where}'s models.attention.alignment.checkable is 1.5, not a whole number >= 0`,
        },
      ],
      [
        reportWith(REPORT, 'models.fixed-vector.parameters', undefined),
        { message: `${where} has no models.fixed-vector.parameters` },
      ],
      [
        reportWith(REPORT, 'training', 'fast'),
        { message: `${where}'s training is "fast", not an object` },
      ],
      [
        reportWith(REPORT, 'decoding.beam', 0),
        { message: `${where}'s decoding beam is not a width from 1 to 16` },
      ],
      [
        reportWith(REPORT, 'decoding.beam', 2.5),
        { message: `${where}'s decoding.beam is 2.5, not a whole number >= 0` },
      ],
    ];
    for (const [report, message] of reports) {
      assert.throws(() => engine.loadTranslators(WEIGHTS, report), message);
      assert.deepEqual(loaded.translate(SENTENCES[2]), first);
    }
  });

  test('a report of other models fails the load, and the translators before it stop', async () => {
    const engine = await loadEngine();
    engine.loadEmbeddings(VECTORS);
    const { attention: loaded } = engine.loadTranslators(WEIGHTS, REPORT);
    const other = structuredClone(REPORT);
    other.models.attention.parameters += 1;
    assert.throws(
      () => engine.loadTranslators(WEIGHTS, other),
      /the translation report describes another attention model than the file/,
    );
    // The core holds the file just loaded now, which no translator of the first load describes.
    assert.throws(() => loaded?.translate('the cat'), /another translation file has been loaded/);
    const again = engine.loadTranslators(WEIGHTS, REPORT);
    assert.deepEqual(again.attention?.translate(SENTENCES[2]), attention.translate(SENTENCES[2]));
    assert.throws(
      () => engine.loadTranslators(WEIGHTS, reportWith(REPORT, 'models.fixed-vector', null)),
      {
        message:
          'loadTranslator: the translation report has no fixed-vector model, which the file holds',
      },
    );
  });
});
