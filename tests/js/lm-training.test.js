// Training the small language model live through the facade (engine.createLanguageModelTraining):
// the options come back with their defaults, and every bad one is refused with its name and range
// before the core sees it; bad files are refused with the corpus reader's message; step(n) gives
// n losses that depend on the seed alone; measure() scores every head, layer-major, and names its
// kind by the thresholds; probe() draws a held-out phrase said twice through every head as causal
// rows of weights; info says the model's size and the training text's length; dispose() frees the
// core's memory, and many trainings, good and bad, leave the wasm heap as they found it.
//
// The engine is built from the generated module itself, as web/src/engine/node.js does, because
// the heap test needs the raw module beside the facade to read its memory.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';

import { loadEngine } from 'attention-lab';

import { createEngine } from '../../web/src/engine/engine.js';
import createAttentionCore from '../../web/src/engine/generated/attention-core.mjs';
import { LM_TRAINING_DEFAULTS, LM_TRAINING_LIMITS } from '../../web/src/engine/lm-training.js';
import { encodeCorpus, readCorpus } from '../../web/src/text/corpus.js';

const core = await createAttentionCore({
  wasmBinary: readFileSync(
    new URL('../../web/src/engine/generated/attention-core.wasm', import.meta.url),
  ),
});
const engine = createEngine(core);

const PUBLIC = new URL('../../web/public/', import.meta.url);
const read = (/** @type {string} */ path) => new Uint8Array(readFileSync(new URL(path, PUBLIC)));
const VECTORS = read('embeddings/en-20k-100d.bin');
const TRAIN = read('models/brown-live-train.bin');
const HELD_OUT = read('models/brown-live-heldout.bin');
engine.loadEmbeddings(VECTORS);

/** A model small enough that a step costs about a millisecond. */
const SMALL = Object.freeze({
  words: 200,
  dModel: 16,
  heads: 2,
  layers: 2,
  dMlp: 16,
  context: 8,
  batch: 4,
  steps: 50,
  minRun: 2,
  maxRun: 4,
  measureSequences: 4,
  probeLength: 3,
});

/** The smallest model of all, for many steps. */
const TINY = Object.freeze({
  ...SMALL,
  words: 16,
  dModel: 8,
  heads: 1,
  layers: 1,
  dMlp: 8,
  batch: 1,
});

/**
 * A training on the page's files with SMALL changed by `options`.
 * @param {import('attention-lab').LanguageModelTrainingOptions} [options]
 * @param {Uint8Array | ArrayBuffer} [train]
 * @param {Uint8Array | ArrayBuffer} [heldOut]
 */
const small = (options = {}, train = TRAIN, heldOut = HELD_OUT) =>
  engine.createLanguageModelTraining(train, heldOut, { ...SMALL, ...options });

/**
 * Runs `use` on a training of SMALL changed by `options`, then frees it.
 * @template T
 * @param {import('attention-lab').LanguageModelTrainingOptions} options
 * @param {(training: import('attention-lab').LanguageModelTraining) => T} use
 * @returns {T}
 */
function withTraining(options, use) {
  const training = small(options);
  try {
    return use(training);
  } finally {
    training.dispose();
  }
}

/** A corpus file of the page's vocabulary (or of another, by its hash) holding these samples. */
function corpusOf(
  /** @type {number[][]} */ samples,
  vocabularyHash = readCorpus(TRAIN).vocabularyHash,
) {
  const { classes, unknownId } = readCorpus(TRAIN);
  return encodeCorpus({
    split: 'train',
    classes,
    unknownId,
    vocabularyHash,
    samples: samples.map((ids, source) => ({ source, ids })),
  });
}

/** A text of the page's vocabulary whose samples are all shorter than SMALL's context. */
const SHORT_TEXT = corpusOf([[1, 2, 3], [4, 5, 6, 7, 8], [9]]);

/** The kind head_kind gives these scores (src/include/attn/lm_analysis.hpp). */
function kindOf(/** @type {import('attention-lab').HeadScores} */ s) {
  if (s.induction >= 0.4) return 'induction';
  if (s.previousToken >= 0.5) return 'previous-token';
  if (s.firstToken >= 0.5) return 'first-token';
  if (s.self >= 0.5) return 'self';
  return 'mixed';
}

describe('the options', () => {
  test('come back with the defaults filled in, frozen', () => {
    const training = engine.createLanguageModelTraining(TRAIN, HELD_OUT);
    assert.deepEqual(training.options, LM_TRAINING_DEFAULTS);
    assert.ok(Object.isFrozen(training.options));
    training.dispose();

    withTraining({ seed: undefined }, (t) => {
      assert.deepEqual(t.options, {
        ...LM_TRAINING_DEFAULTS,
        ...SMALL,
        seed: LM_TRAINING_DEFAULTS.seed,
      });
    });
  });

  test('an unknown option is refused, naming every unknown one and the known ones', () => {
    assert.throws(
      () => small({ /** @type {any} */ foo: 1, bar: 2 }),
      (error) => {
        assert.ok(error instanceof Error);
        assert.match(error.message, /unknown option 'foo', 'bar'/);
        for (const name of Object.keys(LM_TRAINING_DEFAULTS)) {
          assert.ok(error.message.includes(name), `${name} is listed`);
        }
        return true;
      },
    );
    for (const options of [null, [], 5, 'small']) {
      assert.throws(
        () => engine.createLanguageModelTraining(TRAIN, HELD_OUT, /** @type {any} */ (options)),
        /language model training: options must be an object/,
      );
    }
  });

  test('every whole-number option is refused just outside its range and off the whole numbers', () => {
    for (const [name, [low, high]] of Object.entries(LM_TRAINING_LIMITS)) {
      if (name === 'stepCall') continue; // step(n)'s range, checked with step below
      const range = new RegExp(
        `language model training: ${name} must be a whole number from ${low} to ${high}, got `,
      );
      for (const value of [low - 1, high + 1, low + 0.5, String(low), NaN]) {
        assert.throws(() => small({ [name]: value }), range, `${name} = ${String(value)}`);
      }
    }
  });

  test('the edges of the ranges are accepted, and such a model trains', () => {
    /** @type {import('attention-lab').LanguageModelTrainingOptions[]} */
    const edges = [
      { words: 16 },
      { words: 20058 },
      { context: 64, maxRun: 64, batch: 1 },
      { batch: 1 },
      { batch: 64 },
      { minRun: 2, maxRun: 2 },
      { minRun: 8, maxRun: 8 },
      { layers: 1, heads: 1 },
      { layers: 4, heads: 16 },
      { dModel: 8 },
      { dModel: 256, heads: 1 },
      { dMlp: 8 },
      { dMlp: 1024 },
      { steps: 1, warmup: 0 },
      { steps: 100000, warmup: 100000 },
      { measureSequences: 1, probeLength: 1 },
      { measureSequences: 200, probeLength: 32 },
      { learningRate: 1, repeatFraction: 0 },
      { learningRate: 1e-6, repeatFraction: 1 },
      { finalLrFraction: 1, clip: 0, positionScale: 0 },
      { finalLrFraction: 1e-6, clip: 1000, positionScale: 10 },
      { seed: 0 },
      { seed: 4294967295 },
    ];
    for (const options of edges) {
      withTraining(options, (t) => {
        assert.deepEqual(t.options, { ...LM_TRAINING_DEFAULTS, ...SMALL, ...options });
        const [loss] = t.step(1);
        assert.ok(Number.isFinite(loss), `${JSON.stringify(options)}: loss ${loss}`);
        assert.equal(t.measure().length, t.options.layers * t.options.heads);
      });
    }
  });

  test('heads must divide dModel', () => {
    assert.throws(
      () => small({ dModel: 16, heads: 3 }),
      /language model training: heads \(3\) must divide dModel \(16\)/,
    );
    assert.throws(() => small({ dModel: 10, heads: 4 }), /heads \(4\) must divide dModel \(10\)/);
  });

  test('minRun and maxRun must lie within the context, minRun <= maxRun', () => {
    const cases = [
      [{ minRun: 1 }, /minRun must be a whole number from 2 to 8, got 1/],
      [{ minRun: 9, maxRun: 9 }, /minRun must be a whole number from 2 to 8, got 9/],
      [{ minRun: 4, maxRun: 3 }, /maxRun must be a whole number from 4 to 8, got 3/],
      [{ maxRun: 9 }, /maxRun must be a whole number from 2 to 8, got 9/],
      [{ context: 16, minRun: 2, maxRun: 17 }, /maxRun must be a whole number from 2 to 16/],
      [{ minRun: 2.5 }, /minRun must be a whole number/],
    ];
    for (const [options, message] of cases) {
      assert.throws(() => small(/** @type {any} */ (options)), message, JSON.stringify(options));
    }
  });

  test('the numbers that need not be whole are refused outside their ranges', () => {
    const cases = [
      [
        'learningRate',
        [0, -0.01, 1.0001, NaN, Infinity, '0.01'],
        /learningRate must be a number > 0 and <= 1/,
      ],
      ['repeatFraction', [-0.01, 1.01, NaN, '0.5'], /repeatFraction must be from 0 to 1/],
      ['finalLrFraction', [0, 1.01], /finalLrFraction must be in \(0, 1\]/],
      ['clip', [-1, 1000.5], /clip must be from 0 \(no clipping\) to 1000/],
      ['positionScale', [-0.1, 10.1], /positionScale must be from 0 to 10/],
      ['seed', [1.5, -1, 4294967296, NaN, '1'], /seed must be a whole number from 0 to 4294967295/],
    ];
    for (const [name, values, message] of cases) {
      for (const value of /** @type {unknown[]} */ (values)) {
        assert.throws(
          () => small({ [String(name)]: value }),
          message,
          `${name} = ${String(value)}`,
        );
      }
    }
  });
});

describe('the files', () => {
  test('train and heldOut must be bytes; an ArrayBuffer will do', () => {
    for (const bad of ['brown.bin', [1, 2, 3], null, undefined, new Uint16Array(4), {}]) {
      assert.throws(
        () => engine.createLanguageModelTraining(/** @type {any} */ (bad), HELD_OUT, SMALL),
        /language model training: train must be a Uint8Array or an ArrayBuffer/,
      );
      assert.throws(
        () => engine.createLanguageModelTraining(TRAIN, /** @type {any} */ (bad), SMALL),
        /language model training: heldOut must be a Uint8Array or an ArrayBuffer/,
      );
    }
    const training = small({}, TRAIN.slice().buffer, HELD_OUT.slice().buffer);
    withTraining({}, (same) => assert.deepEqual(training.step(3), same.step(3)));
    training.dispose();
  });

  test('bytes that are no corpus file of the loaded vectors are refused with a message', () => {
    const garbage = Uint8Array.from({ length: 4096 }, (_, i) => (i * 37 + 11) & 255);
    assert.throws(() => small({}, garbage), /corpus: not a corpus file/);
    assert.throws(() => small({}, TRAIN, garbage), /corpus: not a corpus file/);
    assert.throws(() => small({}, TRAIN.subarray(0, 100)), /corpus: truncated/);
    assert.throws(() => small({}, TRAIN, HELD_OUT.subarray(0, HELD_OUT.length - 2)), /corpus/);
    assert.throws(() => small({}, new Uint8Array(0)), /corpus/);

    // A well-formed file whose ids index another vocabulary.
    const { vocabularyHash } = readCorpus(TRAIN);
    const other = corpusOf([[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]], (vocabularyHash ^ 1) >>> 0);
    assert.throws(
      () => small({}, other),
      /language model training: the training text indexes another vocabulary/,
    );
    assert.throws(
      () => small({}, TRAIN, other),
      /language model training: the held-out text indexes another vocabulary/,
    );

    // A training text with no sample longer than the context has no row to train on.
    assert.throws(() => small({}, SHORT_TEXT), /no sample is longer than the context/);
  });

  test('an engine with no word vectors loaded says to load them', async () => {
    const fresh = await loadEngine();
    assert.throws(
      () => fresh.createLanguageModelTraining(TRAIN, HELD_OUT, SMALL),
      /language model training: no word vectors are loaded; call loadEmbeddings\(bytes\) first/,
    );
  });
});

describe('step(n)', () => {
  test('gives n finite losses and counts the steps', () => {
    withTraining({}, (t) => {
      assert.equal(t.steps, 0);
      const losses = t.step(5);
      assert.ok(losses instanceof Float32Array);
      assert.equal(losses.length, 5);
      assert.ok(losses.every(Number.isFinite), `losses ${Array.from(losses)}`);
      assert.equal(t.steps, 5);
      assert.equal(t.step().length, 1, 'one step by default');
      assert.equal(t.steps, 6);
      // An untrained model spreads its guess over the words + 1 classes: a loss near ln(201).
      assert.ok(Math.abs(losses[0] - Math.log(SMALL.words + 1)) < 1.5, `first loss ${losses[0]}`);
    });
  });

  test('n must be a whole number from 1 to 1000; a refused call takes no step', () => {
    withTraining({}, (t) => {
      for (const n of [0, 1001, 1.5, -1, NaN, Infinity, '2', null]) {
        assert.throws(
          () => t.step(/** @type {any} */ (n)),
          /language model training: step: n must be a whole number from 1 to 1000/,
          `n = ${String(n)}`,
        );
      }
      assert.equal(t.steps, 0);
    });
    const tiny = engine.createLanguageModelTraining(TRAIN, HELD_OUT, TINY);
    assert.equal(tiny.step(1000).length, 1000);
    assert.equal(tiny.steps, 1000);
    tiny.dispose();
  });

  test('the same options give the same losses, in any chunks; another seed other ones', () => {
    const whole = withTraining({}, (t) => Array.from(t.step(12)));
    const chunked = withTraining({}, (t) => [...t.step(5), ...t.step(1), ...t.step(6)]);
    assert.deepEqual(chunked, whole);
    // Measuring and probing between steps draws nothing from the training's randomness.
    const measured = withTraining({}, (t) => {
      const first = Array.from(t.step(6));
      t.measure();
      t.probe();
      return [...first, ...t.step(6)];
    });
    assert.deepEqual(measured, whole);
    const reseeded = withTraining({ seed: 2 }, (t) => Array.from(t.step(12)));
    assert.notDeepEqual(reseeded, whole);
    assert.notEqual(reseeded[0], whole[0], 'other weights give another first loss');
  });

  test('the loss falls as the model trains', () => {
    const losses = withTraining({}, (t) => Array.from(t.step(60)));
    const mean = (/** @type {number[]} */ xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
    const first = mean(losses.slice(0, 10));
    const last = mean(losses.slice(-10));
    assert.ok(
      last < first - 0.5,
      `mean loss ${first} over the first 10 steps, ${last} over the last`,
    );
  });
});

describe('measure()', () => {
  for (const [layers, heads] of [
    [2, 2],
    [3, 2],
    [1, 4],
  ]) {
    test(`scores all ${layers} x ${heads} heads, layer-major, kinds by the thresholds`, () => {
      withTraining({ layers, heads }, (t) => {
        for (const steps of [0, 30]) {
          if (steps > 0) t.step(steps);
          const measured = t.measure();
          assert.equal(measured.length, layers * heads);
          measured.forEach((h, i) => {
            const at = `after ${steps} steps, head ${i}`;
            assert.deepEqual([h.layer, h.head], [Math.floor(i / heads), i % heads], at);
            for (const score of /** @type {const} */ ([
              'previousToken',
              'firstToken',
              'self',
              'induction',
            ])) {
              const value = h[score];
              assert.ok(value >= 0 && value <= 1, `${at}: ${score} = ${value}`);
            }
            assert.ok(
              ['previous-token', 'first-token', 'self', 'induction', 'mixed'].includes(h.kind),
              `${at}: kind ${h.kind}`,
            );
            assert.equal(h.kind, kindOf(h), `${at}: kind of ${JSON.stringify(h)}`);
          });
        }
      });
    });
  }

  test('the kind follows the scores in every snapshot of several trainings', () => {
    // Trained on repeated random words alone, some heads leave 'mixed' within 100 steps.
    for (const seed of [1, 2, 3, 4]) {
      withTraining({ seed, repeatFraction: 1, learningRate: 0.03 }, (t) => {
        for (let snapshot = 0; snapshot < 5; snapshot++) {
          t.step(20);
          for (const h of t.measure()) {
            assert.equal(h.kind, kindOf(h), `seed ${seed}, step ${t.steps}: ${JSON.stringify(h)}`);
          }
        }
      });
    }
  });

  test('the same training measured twice, or two like it, give the same numbers', () => {
    const a = small();
    const b = small();
    a.step(10);
    b.step(10);
    const first = a.measure();
    assert.deepEqual(a.measure(), first);
    assert.deepEqual(b.measure(), first);
    a.step(1);
    assert.notDeepEqual(a.measure(), first, 'a step changes the scores');
    a.dispose();
    b.dispose();
  });
});

describe('probe()', () => {
  test('a held-out phrase twice, through every head as causal rows of weights', () => {
    withTraining({ layers: 2, heads: 4 }, (t) => {
      t.step(10);
      const { words, weights } = t.probe();
      const n = 2 * SMALL.probeLength;
      assert.equal(words.length, n);
      for (const word of words) {
        assert.ok(word === null || (typeof word === 'string' && word.length > 0), String(word));
      }
      assert.deepEqual(words.slice(n / 2), words.slice(0, n / 2), 'the second half repeats');
      assert.ok(weights instanceof Float32Array);
      assert.equal(weights.length, 2 * 4 * n * n);
      for (let block = 0; block < 2 * 4; block++) {
        for (let row = 0; row < n; row++) {
          const at = (/** @type {number} */ col) => weights[(block * n + row) * n + col];
          let sum = 0;
          for (let col = 0; col < n; col++) {
            if (col > row) assert.equal(at(col), 0, `head ${block}, row ${row}, col ${col}`);
            else assert.ok(at(col) >= 0, `head ${block}, row ${row}, col ${col}`);
            sum += at(col);
          }
          assert.ok(Math.abs(sum - 1) < 1e-5, `head ${block}, row ${row} sums to ${sum}`);
        }
        assert.equal(weights[block * n * n], 1, 'the first word sees only itself');
      }
    });
  });

  test('a word the model does not keep is null; the words it keeps are the same words', () => {
    const few = withTraining({ words: 200 }, (t) => t.probe().words);
    const all = withTraining({ words: 20058 }, (t) => t.probe().words);
    assert.equal(few.length, all.length);
    assert.ok(
      all.some((word) => word !== null),
      `${all}: the full vocabulary knows a word`,
    );
    few.forEach((word, i) => {
      if (word !== null) assert.equal(word, all[i], `word ${i}`);
      if (all[i] === null) assert.equal(word, null, `word ${i} is unknown to both`);
    });
    const none = withTraining({ words: 16 }, (t) => t.probe().words);
    assert.equal(none.length, all.length);
  });

  test('the phrase is at most half the context long', () => {
    // The probe's halves are cut to the repeated runs' length, context / 2.
    withTraining({ probeLength: 32 }, (t) => {
      const { words, weights } = t.probe();
      assert.equal(words.length, 2 * t.info.copyLength);
      assert.equal(weights.length, SMALL.layers * SMALL.heads * words.length ** 2);
    });
    withTraining({ probeLength: 1 }, (t) => assert.equal(t.probe().words.length, 2));
  });
});

describe('info', () => {
  test('the parameters, the training text\u2019s tokens and the repeated runs\u2019 length', () => {
    const { tokenCount } = readCorpus(TRAIN);
    withTraining({}, (t) => {
      assert.ok(Object.isFrozen(t.info));
      assert.deepEqual(Object.keys(t.info).sort(), ['copyLength', 'parameters', 'trainTokens']);
      assert.ok(Number.isInteger(t.info.parameters) && t.info.parameters > 0);
      assert.equal(t.info.trainTokens, tokenCount);
      assert.equal(t.info.copyLength, SMALL.context / 2);
    });
    for (const context of [16, 64]) {
      withTraining({ context, batch: 1 }, (t) => assert.equal(t.info.copyLength, context / 2));
    }
    withTraining({ context: 9 }, (t) => assert.equal(t.info.copyLength, 4));
    const { parameters } = withTraining({}, (t) => t.info);
    const wider = withTraining({ dModel: 32 }, (t) => t.info.parameters);
    const moreWords = withTraining({ words: 400 }, (t) => t.info.parameters);
    const deeper = withTraining({ layers: 3 }, (t) => t.info.parameters);
    for (const more of [wider, moreWords, deeper]) assert.ok(more > parameters, `${more}`);
  });
});

describe('dispose()', () => {
  test('later calls throw a clear error; disposing twice is fine', () => {
    const t = small();
    t.step(2);
    t.dispose();
    const gone = /language model training: \w+ after dispose\(\); create a new training/;
    assert.throws(() => t.step(1), gone);
    assert.throws(() => t.measure(), gone);
    assert.throws(() => t.probe(), gone);
    assert.throws(() => t.steps, gone);
    t.dispose();
    assert.equal(t.options.words, SMALL.words, 'the options stay readable');
    assert.ok(t.info.parameters > 0, 'and so does info');
  });
});

describe('memory', () => {
  /** The three numbers that must not grow (tests/js/memory.test.js). */
  const usage = () => ({
    bytesInUse: core.heapBytesInUse(),
    heapBytes: core.HEAPU8.length,
    handles: core.count_emval_handles(),
  });

  const garbage = Uint8Array.from({ length: 512 }, (_, i) => (i * 91 + 3) & 255);
  const otherVocabulary = corpusOf([[1, 2, 3, 4, 5, 6, 7, 8, 9, 10]], 12345);

  /** One round of trainings, good and bad; returns how many calls threw. */
  const round = () => {
    let threw = 0;
    const attempt = (/** @type {() => unknown} */ call) => {
      try {
        call();
      } catch (error) {
        assert.ok(error instanceof Error, String(error));
        threw++;
      }
    };
    for (const seed of [1, 2]) {
      const t = small({ seed, layers: seed });
      t.step(3);
      t.measure();
      t.probe();
      t.dispose();
      attempt(() => t.step(1));
    }
    attempt(() => small({}, garbage));
    attempt(() => small({}, TRAIN, garbage));
    attempt(() => small({}, otherVocabulary));
    attempt(() => small({}, TRAIN, otherVocabulary));
    attempt(() => small({}, SHORT_TEXT));
    attempt(() => small({}, TRAIN.subarray(0, 200)));
    attempt(() => small({ heads: 3 }));
    attempt(() => small({ /** @type {any} */ nope: 1 }));
    return threw;
  };

  test('many trainings, good and bad, leave the wasm heap as they found it', () => {
    for (let i = 0; i < 3; i++) round();
    const before = usage();
    let threw = 0;
    for (let i = 0; i < 15; i++) threw += round();
    const after = usage();
    assert.equal(threw, 15 * 10, 'every bad call threw');
    assert.deepEqual(after, before, 'bytes in use, heap size and handles after the trainings');
  });
});
