// The engine facade: camelCase functions over the raw embind module, taking and returning plain
// Float32Arrays. Views and widgets get their numbers from here and never touch the module.
import {
  paddingBytes,
  requireBytes,
  requireCount,
  requireCounts,
  requireMatrix,
  requireNumber,
  requireStrings,
} from './args.js';
import { createFloatPool } from './float-pool.js';
import { createLanguageModel } from './language-model.js';
import { createLanguageModelTraining } from './lm-training.js';
import { createTraining } from './training.js';
import { createTransformer, createTranslators } from './translator.js';
import { createTranslatorTiming } from './translator-timing.js';

/**
 * Wraps an instantiated core module.
 * @param {any} core the module object returned by the generated factory
 * @returns {import('./index.js').Engine}
 */
export function createEngine(core) {
  // The attention buffers in wasm memory for the sizes of the last call, as indices into HEAPF32
  // (HEAPU8 for the padding). They stay where they are until a call of other sizes, so a figure
  // recomputed as the learner types asks for them once.
  /** @type {{ nq: number, nk: number, dk: number, dv: number, q: number, k: number, v: number,
   *   padding: number, results: number } | null} */
  let buffers = null;
  // Where the results of each call go (float-pool.js).
  const pool = createFloatPool();
  /** @type {import('./index.js').LanguageModel | null} */
  let languageModel = null;
  /** @type {ReturnType<typeof createTranslators> | null} */
  let translators = null;
  /** @type {import('./index.js').Translator | null} */
  let transformer = null;

  /**
   * The attention buffers for these sizes.
   * @param {number} nq
   * @param {number} nk
   * @param {number} dk
   * @param {number} dv
   */
  function attentionBuffers(nq, nk, dk, dv) {
    const last = buffers;
    if (last && last.nq === nq && last.nk === nk && last.dk === dk && last.dv === dv) return last;
    // Forgotten first: if making them throws, the old ones may have moved.
    buffers = null;
    const at = core.attentionBuffers(nq, nk, dk, dv);
    const [q, k, v, results] = [at.q >> 2, at.k >> 2, at.v >> 2, at.results >> 2];
    buffers = { nq, nk, dk, dv, q, k, v, padding: at.padding, results };
    return buffers;
  }

  return {
    softmax(x, rows, cols, { temperature = 1 } = {}) {
      const where = 'softmax';
      requireCount(where, 'rows', rows);
      requireCount(where, 'cols', cols);
      requireMatrix(where, 'x', x, rows, cols, 'rows x cols');
      return core.softmax(x, rows, cols, requireNumber(where, 'temperature', temperature));
    },

    // q: (nq, dk), k: (nk, dk), v: (nk, dv). The inputs are copied straight into the core's
    // buffers and the results out of them in one copy, into new memory (for a small result, a
    // region of a shared block: float-pool.js) of which each result is a view.
    attention({
      q,
      k,
      v,
      nq,
      nk,
      dk,
      dv,
      scale = true,
      temperature = 1,
      causal = false,
      keyPadding = null,
      trace = true,
    }) {
      const where = 'attention';
      // One by one rather than in a loop over an object: this runs on every call, and at small
      // sizes the facade's own work is a good part of the call.
      requireCount(where, 'nq', nq);
      requireCount(where, 'nk', nk);
      requireCount(where, 'dk', dk);
      requireCount(where, 'dv', dv);
      requireMatrix(where, 'q', q, nq, dk, 'nq x dk');
      requireMatrix(where, 'k', k, nk, dk, 'nk x dk');
      requireMatrix(where, 'v', v, nk, dv, 'nk x dv');
      requireNumber(where, 'temperature', temperature);
      const padding = paddingBytes(where, keyPadding, nk);
      // Without the trace, the core skips writing scores, scaled and masked.
      const withTrace = Boolean(trace);
      const at = attentionBuffers(nq, nk, dk, dv);
      const heap = core.HEAPF32;
      heap.set(q, at.q);
      heap.set(k, at.k);
      heap.set(v, at.v);
      if (padding) core.HEAPU8.set(padding, at.padding);
      core.attention(
        nq,
        nk,
        dk,
        dv,
        Boolean(scale),
        temperature,
        Boolean(causal),
        padding !== null,
        withTrace,
      );
      // The results in the core's order (wasm/bindings.cpp: attentionBuffers): weights and
      // output, then with the trace scores, scaled and masked. Each is a view made by the
      // constructor, which costs less than subarray()'s lookup of the species constructor.
      const area = nq * nk;
      const lean = area + nq * dv;
      const results = pool.copy(
        heap.subarray(at.results, at.results + (withTrace ? lean + 3 * area : lean)),
      );
      const { buffer, byteOffset } = results;
      const weights = new Float32Array(buffer, byteOffset, area);
      const output = new Float32Array(buffer, byteOffset + 4 * area, nq * dv);
      if (!withTrace) return /** @type {any} */ ({ weights, output });
      const steps = byteOffset + 4 * lean;
      // Named in the order the steps are computed. (The declared overloads tell callers which
      // of the two shapes they get.)
      return /** @type {any} */ ({
        scores: new Float32Array(buffer, steps, area),
        scaled: new Float32Array(buffer, steps + 4 * area, area),
        masked: new Float32Array(buffer, steps + 8 * area, area),
        weights,
        output,
      });
    },

    score({ kind, s, h, n, ds, dh, ws, wh, w, v, da }) {
      const where = `${kind} score`;
      if (kind !== 'additive' && kind !== 'dot' && kind !== 'general') {
        throw new Error(`score: kind must be 'additive', 'dot' or 'general', got ${String(kind)}`);
      }
      requireCount(where, 'n', n);
      requireCount(where, 'ds', ds);
      requireCount(where, 'dh', dh);
      if (kind === 'additive') requireCount(where, 'da', da);
      return core.score(kind, s, h, n, ds, dh, ws, wh, w, v, kind === 'additive' ? da : 0);
    },

    multiHeadAttention({
      xq,
      xkv,
      nq,
      nk,
      dModel,
      heads,
      wq,
      wk,
      wv,
      wo,
      bq = null,
      bk = null,
      bv = null,
      bo = null,
      causal = false,
      keyPadding = null,
    }) {
      const where = 'multi-head attention';
      for (const [name, size] of Object.entries({ nq, nk, dModel, heads })) {
        requireCount(where, name, size);
      }
      const padding = paddingBytes(where, keyPadding, nk);
      return core.multiHeadAttention(
        ...[xq, xkv, nq, nk, dModel, heads, wq, wk, wv, wo, bq, bk, bv, bo],
        Boolean(causal),
        padding,
      );
    },

    positionalEncoding(n, d) {
      requireCount('positional encoding', 'n', n);
      requireCount('positional encoding', 'd', d);
      return core.positionalEncoding(n, d);
    },

    glorotUniform: (rows, cols, seed) =>
      seeded('glorot uniform', core.glorotUniform, rows, cols, seed),

    unitNormal: (rows, cols, seed) => seeded('unit normal', core.unitNormal, rows, cols, seed),

    scalingExperiment({ dk, samples = 2000, keys = 16, trials = 200, seed = 1 }) {
      const where = 'scaling experiment';
      for (const [name, value] of Object.entries({ dk, samples, keys, trials })) {
        requireCount(where, name, value);
      }
      return core.scalingExperiment(dk, samples, keys, trials, requireSeed(where, seed));
    },

    // counts: N per run, increasing -> { counts, fixedVector: (counts), attention: (counts) }, the
    // share of N stored facts read back exactly from one vector of `width` numbers and by
    // attention over all N keys and values.
    bottleneckExperiment(
      { counts, width, codebook = 16, trials = 4, seed = 1 } = {
        counts: undefined,
        width: undefined,
      },
    ) {
      const where = 'bottleneck experiment';
      requireCounts(where, 'counts', counts);
      for (const [name, value] of Object.entries({ width, codebook, trials })) {
        requireCount(where, name, value);
      }
      return core.bottleneckExperiment(counts, width, codebook, trials, requireSeed(where, seed));
    },

    // bytes: the word-vector asset (docs/embeddings.md), copied into the core once. Loading
    // another file replaces it; a file that does not parse leaves the old one in place.
    loadEmbeddings(bytes) {
      return core.loadEmbeddings(requireBytes('loadEmbeddings', 'bytes', bytes));
    },

    // tokens: n strings -> vectors (n, d), known (n)
    embed(tokens) {
      return core.embed(requireStrings('embed', 'tokens', tokens));
    },

    // weights: the language model's file, report: what was measured on it (docs/language-model.md)
    // -> the model, on the word vectors loaded now. Loading another replaces it in the core.
    loadLanguageModel(weights, report) {
      languageModel = createLanguageModel(core, weights, report);
      return languageModel;
    },

    // The model of the last successful loadLanguageModel, or null: for the quiz's live questions.
    get languageModel() {
      return languageModel;
    },

    // weights: the translation models' file, report: what was measured on them
    // (docs/translation.md) -> both models, on the word vectors loaded now. Loading another file
    // replaces them in the core; a file that does not load leaves them in place.
    loadTranslators(weights, report) {
      translators = createTranslators(core, weights, report);
      return translators;
    },

    // The models of the last successful loadTranslators, or null: for the quiz's live questions.
    get translators() {
      return translators;
    },

    // weights: the Transformer's file, report: what was measured on it (docs/transformer.md) ->
    // the model, on the word vectors loaded now. Loading another replaces it in the core; a file
    // that does not load leaves it in place.
    loadTransformer(weights, report) {
      transformer = createTransformer(core, weights, report);
      return transformer;
    },

    // The model of the last successful loadTransformer, or null.
    get transformer() {
      return transformer;
    },

    // A training run of a reversal model in the core (web/src/engine/training.js); free it with
    // dispose() when done.
    createTraining: (options) => createTraining(core, options),

    // A live training run of a small language model on the loaded word vectors and two corpus
    // files (web/src/engine/lm-training.js); free it with dispose() when done.
    createLanguageModelTraining: (train, heldOut, options) =>
      createLanguageModelTraining(core, train, heldOut, options),

    // Lesson 1's attention translator and the Transformer at their committed sizes, from a seed,
    // on the loaded word vectors and one batch of sentence pairs, each trained a step per call
    // (web/src/engine/translator-timing.js); free them with dispose() when done.
    createTranslatorTiming: (pairs, options) => createTranslatorTiming(core, pairs, options),
  };
}

/**
 * Calls a seeded generator of the core after checking its arguments.
 * @param {string} where
 * @param {(rows: number, cols: number, seed: number) => Float32Array} generate
 * @param {number} rows
 * @param {number} cols
 * @param {number} seed
 * @returns {Float32Array} (rows, cols)
 */
function seeded(where, generate, rows, cols, seed) {
  requireCount(where, 'rows', rows);
  requireCount(where, 'cols', cols);
  return generate(rows, cols, requireSeed(where, seed));
}

/**
 * A seed is a whole number from 0 to 2^32 - 1.
 * @param {string} where
 * @param {unknown} seed
 * @returns {number}
 */
function requireSeed(where, seed) {
  if (typeof seed !== 'number' || !Number.isInteger(seed) || seed < 0 || seed > 0xffffffff) {
    throw new Error(`${where}: seed must be a whole number from 0 to 4294967295, got ${seed}`);
  }
  return seed;
}
