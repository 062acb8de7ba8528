// Timing the translators' training through the facade (engine.createTranslatorTiming): both
// models are built at the sizes of the shipped files, one step of each on the timing batch
// (web/public/models/translation-timing.bin) returns a finite loss, and with a constant rate and
// no dropout the loss falls over a few steps on that same batch; dispose() frees them, after
// which every call throws; bad arguments are refused with messages that name them.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, describe, test } from 'node:test';

import { loadEngine } from 'attention-lab';

import { TIMING_PAIRS_PATH } from '../../web/src/data-files.js';
import { TRANSLATOR_TIMING_DEFAULTS } from '../../web/src/engine/translator-timing.js';

const PUBLIC = new URL('../../web/public/', import.meta.url);
const read = (/** @type {string} */ path) => new Uint8Array(readFileSync(new URL(path, PUBLIC)));
const PAIRS = read(TIMING_PAIRS_PATH);
const VECTORS = read('embeddings/en-20k-100d.bin');
const json = (/** @type {string} */ path) =>
  JSON.parse(readFileSync(new URL(path, PUBLIC), 'utf8'));

const engine = await loadEngine();
engine.loadEmbeddings(VECTORS);
/** A constant rate from the first step and no dropout: the loss of one batch can only fall. */
const timing = engine.createTranslatorTiming(PAIRS, { warmup: 0, dropout: 0 });
after(() => timing.dispose());

/** Steps of each model: each takes a few seconds in wasm. */
const STEPS = 3;

describe('both models, one step at a time on the timing batch', () => {
  test('the models are the shipped ones in size, and the batch is the whole file', () => {
    const shipped = json('models/translation.json').models.attention;
    const transformer = json('models/transformer.json');
    assert.equal(timing.info.attention.parameters, shipped.parameters);
    assert.equal(timing.info.transformer.parameters, transformer.models.transformer.parameters);
    const { dModel, heads, encoderLayers, decoderLayers, dMlp, targetWords } = transformer.sizes;
    assert.deepEqual(
      { ...timing.info.transformer, parameters: 0 },
      { parameters: 0, dModel, heads, encoderLayers, decoderLayers, dMlp },
    );
    assert.equal(timing.info.targetWords, targetWords);
    assert.equal(timing.info.pairs, 64);
    assert.equal(timing.info.englishTokens, 742);
    assert.equal(timing.info.germanTokens, 928);
    assert.deepEqual(timing.options, { ...TRANSLATOR_TIMING_DEFAULTS, warmup: 0, dropout: 0 });
    assert.ok(Object.isFrozen(timing.info) && Object.isFrozen(timing.options));
  });

  test('each step returns a finite loss, and the loss falls over a few steps', () => {
    /** @type {Record<string, number[]>} */
    const losses = { attention: [], transformer: [] };
    for (let i = 0; i < STEPS; i++) {
      for (const model of /** @type {const} */ (['attention', 'transformer'])) {
        losses[model].push(timing.step(model));
        assert.equal(timing.steps(model), i + 1, model);
      }
    }
    for (const [model, values] of Object.entries(losses)) {
      assert.ok(values.every(Number.isFinite), `${model}: ${values}`);
      // A first loss near log(8,000) = 9.0: the German pieces guessed from a seeded start.
      assert.ok(values[0] > 7 && values[0] < 11, `${model}: ${values}`);
      assert.ok(values[STEPS - 1] < values[0], `${model} falls: ${values}`);
    }
  });
});

describe('the committed settings and the seed', () => {
  test('the defaults are the committed warm-ups and dropout, and seed 1', () => {
    assert.deepEqual(TRANSLATOR_TIMING_DEFAULTS, { seed: 1, warmup: null, dropout: null });
  });

  test('one seed gives the same first losses; a model steps alone', () => {
    const a = engine.createTranslatorTiming(PAIRS.buffer.slice(0), { seed: 7, dropout: 0 });
    const b = engine.createTranslatorTiming(PAIRS, { seed: 7, dropout: 0 });
    try {
      assert.equal(a.step('transformer'), b.step('transformer'));
      assert.equal(a.steps('transformer'), 1);
      assert.equal(a.steps('attention'), 0);
    } finally {
      a.dispose();
      b.dispose();
    }
  });
});

describe('dispose()', () => {
  test('frees both models; every later call throws, and a second dispose does nothing', () => {
    const t = engine.createTranslatorTiming(PAIRS);
    t.dispose();
    const gone = /translator timing: \w+ after dispose\(\); create a new timing/;
    assert.throws(() => t.step('attention'), gone);
    assert.throws(() => t.steps('transformer'), gone);
    t.dispose();
  });
});

describe('bad arguments are refused, naming them', () => {
  test('pairs that are not bytes, or not a file of sentence pairs', () => {
    assert.throws(
      () => engine.createTranslatorTiming(/** @type {any} */ ('pairs')),
      /translator timing: pairs must be a Uint8Array/,
    );
    assert.throws(
      () => engine.createTranslatorTiming(read('models/brown-live-heldout.bin')),
      /translator timing: pairs is not a file of sentence pairs \(.*magic/,
    );
    assert.throws(
      () => engine.createTranslatorTiming(PAIRS.subarray(0, PAIRS.length - 2)),
      /translator timing: pairs is not a file of sentence pairs/,
    );
  });

  test('options that are unknown or out of range', () => {
    const bad = (/** @type {any} */ options, /** @type {RegExp} */ message) =>
      assert.throws(() => engine.createTranslatorTiming(PAIRS, options), message);
    bad(
      { steps: 3 },
      /translator timing: unknown option 'steps'; the options are seed, warmup, dropout/,
    );
    bad(
      { seed: -1 },
      /translator timing: seed must be a whole number from 0 to 4294967295, got -1/,
    );
    bad({ seed: 1.5 }, /seed must be a whole number/);
    bad(
      { warmup: 2.5 },
      /translator timing: warmup must be null \(the committed warm-ups\) or a whole number from 0 to 100000, got 2.5/,
    );
    bad({ warmup: '10' }, /warmup must be null .* got "10"/);
    bad(
      { dropout: 1 },
      /translator timing: dropout must be null \(the committed 0.1\) or a number >= 0 and < 1, got 1/,
    );
    bad({ dropout: NaN }, /dropout must be null .* got NaN/);
    bad('fast', /translator timing: options must be an object/);
  });

  test('a model that is not one of the two', () => {
    const message =
      /translator timing: step: model must be 'attention' or 'transformer', got "fixed-vector"/;
    assert.throws(() => timing.step(/** @type {any} */ ('fixed-vector')), message);
    assert.throws(
      () => timing.steps(/** @type {any} */ (1)),
      /translator timing: steps: model must be 'attention' or 'transformer', got 1/,
    );
    assert.throws(() => timing.step(/** @type {any} */ (undefined)), /got undefined/);
  });

  test('no word vectors loaded, or pairs over another vocabulary', async () => {
    const fresh = await loadEngine();
    assert.throws(
      () => fresh.createTranslatorTiming(PAIRS),
      /translator timing: no word vectors are loaded; call loadEmbeddings\(bytes\) first/,
    );
    const other = PAIRS.slice();
    new DataView(other.buffer).setUint32(28, 0x12345678, true); // the English vocabulary's hash
    assert.throws(
      () => engine.createTranslatorTiming(other),
      /translator timing: pairs indexes another vocabulary than the loaded word vectors'/,
    );
  });
});
