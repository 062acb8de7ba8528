// The page's trained language model through the facade (docs/engine-api.md): loadLanguageModel()
// reads the committed weights and report; run(text) gives every head's weights and the next
// words. Bad input gets a clear message and leaves the model usable.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';

import { loadEngine, loadLanguageModel } from 'attention-lab';
import { ROOT, reportWith } from './helpers.js';
import { weightsLayout } from './weights-file.js';

const model = await loadLanguageModel();
const { info } = model;
const REPORT = JSON.parse(readFileSync(join(ROOT, 'web/public/models/brown-lm.json'), 'utf8'));
const ANIMAL = "The animal didn't cross the street because it was too tired.";

/** The kind the report's thresholds give these scores (docs/language-model.md). */
function kindOf(/** @type {import('attention-lab').HeadScores} */ s) {
  const { inductionThreshold, patternThreshold } = REPORT.headMeasurement;
  if (s.induction >= inductionThreshold) return 'induction';
  if (s.previousToken >= patternThreshold) return 'previous-token';
  if (s.firstToken >= patternThreshold) return 'first-token';
  if (s.self >= patternThreshold) return 'self';
  return 'mixed';
}

describe('loadLanguageModel: what the model says about itself', () => {
  test('its sizes are those of the weights file, its numbers those of the report', () => {
    const layout = weightsLayout(
      new Uint8Array(readFileSync(join(ROOT, 'web/public/models/brown-lm.bin'))),
    );
    assert.equal(layout.kind, 'language-model');
    const stored = ['vocab', 'd_embed', 'd_model', 'layers', 'heads', 'd_mlp', 'context'];
    const [vocab, dEmbed, dModel, layers, heads, dMlp, context] = stored.map((name) =>
      layout.numbers.get(name),
    );
    assert.deepEqual(
      [
        info.vocab,
        info.dEmbed,
        info.dModel,
        info.layers,
        info.headsPerLayer,
        info.dMlp,
        info.context,
      ],
      [vocab, dEmbed, dModel, layers, heads, dMlp, context],
    );
    // Every parameter in float16, and nothing else in the file.
    assert.ok(layout.tensors.every((t) => t.encoding === 'float16'));
    const values = layout.tensors.reduce((sum, t) => sum + t.rows * t.cols, 0);
    assert.equal(values, info.parameters);
    assert.equal(info.validationPerplexity, REPORT.validation.perplexity);
    assert.equal(info.testPerplexity, REPORT.test.perplexity);
    assert.equal(info.heads.length, layers * heads);
  });

  test('info holds what the report measured, frozen all the way down', () => {
    const { train, validation, test: testSplit } = REPORT.baselines.splits;
    assert.deepEqual(info.corpus, {
      name: REPORT.baselines.corpus,
      splits: { train, validation, test: testSplit },
    });
    assert.deepEqual(info.baselines, {
      unigram: REPORT.baselines.unigram.perplexity,
      kneserNeyBigram: REPORT.baselines.kneserNeyBigram.perplexity,
    });
    assert.deepEqual(info.training, REPORT.training);
    assert.deepEqual(
      info.heads,
      REPORT.heads.map((/** @type {any} */ h) => ({
        layer: h.layer,
        head: h.head,
        kind: h.kind,
        scores: {
          previousToken: h.previousToken,
          firstToken: h.firstToken,
          self: h.self,
          induction: h.induction,
        },
      })),
    );
    const parts = [info, info.corpus, info.corpus?.splits.test, info.baselines, info.training];
    assert.ok(parts.every(Object.isFrozen));
    assert.ok(Object.isFrozen(info.heads) && info.heads.every((h) => Object.isFrozen(h.scores)));
  });

  test("every head's kind follows from its measured scores", () => {
    for (const head of info.heads) {
      assert.equal(head.kind, kindOf(head.scores), `head ${head.layer}.${head.head}`);
    }
  });
});

describe('run(text)', () => {
  const result = model.run(ANIMAL);

  test('tokenizes as the figures do and reads every token', () => {
    assert.deepEqual(result.tokens.slice(0, 5), ['the', 'animal', 'did', "n't", 'cross']);
    assert.equal(result.dropped, 0);
    assert.ok(result.known.every(Boolean));
  });

  test("every head's weights are causal rows that sum to 1", () => {
    const n = result.tokens.length;
    assert.equal(result.heads.length, info.layers * info.headsPerLayer);
    for (const head of result.heads) {
      assert.equal(head.weights.length, n * n);
      for (let i = 0; i < n; i++) {
        let sum = 0;
        for (let j = 0; j < n; j++) {
          const w = head.weights[i * n + j];
          if (j > i) assert.equal(w, 0, `head ${head.layer}.${head.head} row ${i} sees ahead`);
          else assert.ok(w >= 0 && w <= 1);
          sum += w;
        }
        assert.ok(Math.abs(sum - 1) < 1e-5, `row ${i} sums to ${sum}`);
      }
    }
  });

  test("a prefix's weights are the first rows of the whole sentence's (causality)", () => {
    const n = result.tokens.length;
    const prefix = model.run("The animal didn't cross the street because it");
    const m = prefix.tokens.length;
    assert.deepEqual(prefix.tokens, result.tokens.slice(0, m));
    for (const [h, head] of prefix.heads.entries()) {
      for (let i = 0; i < m; i++) {
        for (let j = 0; j <= i; j++) {
          const whole = result.heads[h].weights[i * n + j];
          assert.ok(Math.abs(head.weights[i * m + j] - whole) < 1e-5);
        }
      }
    }
  });

  test('the next words are distinct, most probable first, and probabilities', () => {
    const { next } = model.run('It was the best of', { top: 10 });
    assert.equal(next.length, 10);
    assert.equal(new Set(next.map((w) => w.word)).size, 10);
    let total = 0;
    for (let i = 0; i < next.length; i++) {
      assert.ok(next[i].probability > 0 && next[i].probability < 1);
      if (i > 0) assert.ok(next[i].probability <= next[i - 1].probability);
      total += next[i].probability;
    }
    assert.ok(total <= 1 + 1e-6);
  });

  test('the same text gives the same numbers', () => {
    const again = model.run(ANIMAL);
    assert.deepEqual(again.heads[3].weights, result.heads[3].weights);
    assert.deepEqual(again.next, result.next);
  });

  test('a run after an edit gives the bits of the text read whole', () => {
    // A run reuses the rows of the run before up to the first token that differs; a text whose
    // first token differs from the one before is read whole.
    const wholly = (/** @type {string} */ text) => {
      model.run('zzqxv');
      return model.run(text);
    };
    const long = Array.from({ length: 70 }, (_, i) => (i % 3 ? 'cat' : 'the')).join(' ');
    const edits = [
      'The cat sat',
      'The cat sat o',
      'The cat sat on',
      'The cat sat on the mat.',
      'The cat sat on',
      'The dog sat on',
      'The dog sat on',
      'A dog sat on',
      long,
      `${long} sat`,
    ];
    for (const text of edits) {
      const typed = model.run(text);
      const whole = wholly(text);
      assert.deepEqual(typed.tokens, whole.tokens);
      assert.deepEqual(
        typed.heads.map((head) => head.weights),
        whole.heads.map((head) => head.weights),
        text,
      );
      assert.deepEqual(typed.next, whole.next, text);
    }
  });

  test('words it does not know are read as the unknown word, and flagged', () => {
    const run = model.run('The zzqxv sat down.');
    assert.deepEqual(run.known, [true, false, true, true, true]);
  });

  test('a long text is read from its last context tokens, and says how many were dropped', () => {
    const words = Array.from({ length: 5000 }, (_, i) => (i % 2 ? 'cat' : 'the')).join(' ');
    const run = model.run(words);
    assert.equal(run.tokens.length, info.context);
    assert.equal(run.dropped, 5000 - info.context);
    assert.equal(run.heads[0].weights.length, info.context ** 2);
  });
});

describe('bad input gets a clear message and loses nothing', () => {
  test('text without a word', () => {
    for (const text of ['', '   ', '\u200b\n\t']) {
      assert.throws(() => model.run(text), /type at least one word/);
    }
  });

  test('anything but a string, or a bad top', () => {
    assert.throws(() => model.run(/** @type {any} */ (42)), /text must be a string/);
    assert.throws(() => model.run('the cat', { top: 0 }), /top must be a whole number/);
    assert.throws(() => model.run('the cat', { top: 2.5 }), /top must be a whole number/);
  });

  test('any Unicode, broken surrogates included', () => {
    for (const text of ['日本語のテキスト', '\ud800 lone half', '👩‍👩‍👧 family', 'x'.repeat(10_000)]) {
      const run = model.run(text);
      assert.ok(run.tokens.length >= 1 && run.tokens.length <= info.context);
    }
    assert.deepEqual(model.run(ANIMAL).next, model.run(ANIMAL).next);
  });

  test('weights or a report that do not fit are refused, and the loaded model stays', async () => {
    const engine = await loadEngine();
    const weights = new Uint8Array(readFileSync(join(ROOT, 'web/public/models/brown-lm.bin')));
    assert.throws(() => engine.loadLanguageModel(weights, REPORT), /no word vectors are loaded/);
    engine.loadEmbeddings(readFileSync(join(ROOT, 'web/public/embeddings/en-20k-100d.bin')));
    assert.throws(() => engine.loadLanguageModel(weights.subarray(0, 100), REPORT), /weights/);
    assert.throws(
      () => engine.loadLanguageModel(weights, { ...REPORT, heads: [] }),
      /must list 8 heads|must list \d+ heads/,
    );
    const loaded = engine.loadLanguageModel(weights, REPORT);
    const before = loaded.run(ANIMAL).next;
    assert.throws(() => engine.loadLanguageModel(weights.subarray(0, 60), REPORT));
    assert.deepEqual(loaded.run(ANIMAL).next, before);
    const where = "loadLanguageModel: the model's report";
    const swapped = structuredClone(REPORT);
    swapped.heads.reverse();
    const refused = [
      [null, `${where} is not an attn-lm-report`],
      [
        reportWith(REPORT, 'format', 'attn-translation-report'),
        `${where} is not an attn-lm-report`,
      ],
      [
        reportWith(REPORT, 'heads[3].self', 'high'),
        `${where}'s heads[3].self is "high", not a finite number >= 0`,
      ],
      [reportWith(REPORT, 'heads[7].induction', undefined), `${where} has no heads[7].induction`],
      [reportWith(REPORT, 'heads[0].kind', 7), `${where}'s heads[0].kind is 7, not a text`],
      [
        reportWith(REPORT, 'validation.perplexity', undefined),
        `${where} has no validation.perplexity`,
      ],
      [reportWith(REPORT, 'test', null), `${where} has no test`],
      [reportWith(REPORT, 'config', undefined), `${where} has no config`],
      [
        reportWith(REPORT, 'baselines.splits.test.tokens', undefined),
        `${where} has no baselines.splits.test.tokens`,
      ],
      [
        reportWith(REPORT, 'baselines.kneserNeyBigram.perplexity.test', -1),
        `${where}'s baselines.kneserNeyBigram.perplexity.test is -1, not a finite number >= 0`,
      ],
      [reportWith(REPORT, 'training', [1]), `${where}'s training is a list, not an object`],
      [
        reportWith(REPORT, 'config.vocab', REPORT.config.vocab + 1),
        `${where} describes another model than the weights`,
      ],
      [swapped, `${where} lists its heads out of order`],
    ];
    for (const [report, message] of refused) {
      assert.throws(() => engine.loadLanguageModel(weights, report), { message });
      assert.deepEqual(engine.languageModel?.run(ANIMAL).next, before);
    }
  });

  test('a report without baselines or training settings loads, and info says null for them', async () => {
    const engine = await loadEngine();
    engine.loadEmbeddings(readFileSync(join(ROOT, 'web/public/embeddings/en-20k-100d.bin')));
    const weights = new Uint8Array(readFileSync(join(ROOT, 'web/public/models/brown-lm.bin')));
    const { baselines, training, ...rest } = REPORT;
    assert.ok(baselines && training, 'the committed report holds both');
    const loaded = engine.loadLanguageModel(weights, { ...rest, training: null });
    assert.equal(loaded.info.corpus, null);
    assert.equal(loaded.info.baselines, null);
    assert.equal(loaded.info.training, null);
    assert.equal(loaded.info.testPerplexity, REPORT.test.perplexity);
    assert.deepEqual(loaded.run(ANIMAL).next, model.run(ANIMAL).next);
  });
});

describe("what docs/language-model.md says the heads do with the lesson's sentences", () => {
  /**
   * Head L.H's row of `word` (its last occurrence): { weight(token), top } with 1-based L.H.
   * @param {string} text
   * @param {string} word
   * @param {string} name e.g. '2.3'
   */
  function rowOf(text, word, name) {
    const run = model.run(text);
    const n = run.tokens.length;
    const i = run.tokens.lastIndexOf(word);
    const [layer, head] = name.split('.').map((x) => Number(x) - 1);
    const weights = run.heads[layer * info.headsPerLayer + head].weights.subarray(
      i * n,
      i * n + i + 1,
    );
    const top = weights.indexOf(Math.max(...weights));
    return {
      weight: (/** @type {string} */ token) => weights[run.tokens.indexOf(token)],
      top: run.tokens[top],
      names: run.heads.map((h) => `${h.layer + 1}.${h.head + 1}`),
    };
  }
  const two = (/** @type {number} */ x) => Number(x.toFixed(2));

  test('"it" in the animal sentence: heads 1.2 and 2.3 lean to "animal", neither most', () => {
    const h12 = rowOf(ANIMAL, 'it', '1.2');
    assert.equal(h12.top, 'did');
    assert.equal(two(h12.weight('did')), 0.27);
    assert.equal(two(h12.weight('animal')), 0.19);
    const h23 = rowOf(ANIMAL, 'it', '2.3');
    assert.equal(h23.top, 'street');
    assert.equal(two(h23.weight('street')), 0.2);
    assert.equal(two(h23.weight('animal')), 0.17);
    for (const name of h23.names.filter((x) => x !== '2.3' && x !== '1.2')) {
      assert.ok(two(rowOf(ANIMAL, 'it', name).weight('animal')) <= 0.03, name);
    }
    assert.equal(two(rowOf(ANIMAL, 'it', '1.3').weight('because')), 0.94);
    assert.equal(two(rowOf(ANIMAL, 'it', '1.4').weight('because')), 0.99);
  });

  test('"bank" after "river": the previous-token head, by position', () => {
    const river = 'I sat on the river bank';
    assert.equal(two(rowOf(river, 'bank', '1.4').weight('river')), 0.99);
    assert.equal(two(rowOf(river, 'bank', '1.3').weight('river')), 0.65);
    assert.equal(two(rowOf(river, 'bank', '2.3').weight('river')), 0.15);
    const names = rowOf(river, 'bank', '1.1').names.filter((x) => x !== '1.3' && x !== '1.4');
    for (const name of names) assert.ok(two(rowOf(river, 'bank', name).weight('river')) <= 0.15);
  });

  test('"bank" in the loan sentence: head 2.3 gives "loan" 0.25, second to "I"', () => {
    const loan = 'I took a loan from the bank';
    const names = rowOf(loan, 'bank', '1.1').names;
    const most = Math.max(...names.map((name) => rowOf(loan, 'bank', name).weight('loan')));
    assert.equal(two(most), 0.25);
    const h23 = rowOf(loan, 'bank', '2.3');
    assert.equal(two(h23.weight('loan')), 0.25);
    assert.equal(h23.top, 'i');
    assert.equal(two(h23.weight('i')), 0.37);
    assert.equal(two(rowOf(loan, 'bank', '1.2').weight('loan')), 0.2);
  });
});
