// The engine facade: camelCase functions over the raw embind module, taking and returning plain
// Float32Arrays. Views and widgets get their numbers from here and never touch the module.
import {
  paddingBytes,
  requireBytes,
  requireCount,
  requireCounts,
  requireNumber,
  requireResultArrays,
  requireStrings,
  requireValues,
} from './args.js';
import { createFloatPool } from './float-pool.js';
import { createLanguageModel } from './language-model.js';
import { createLanguageModelTraining } from './lm-training.js';
import { createTraining } from './training.js';
import { createTranslators } from './translator.js';

// Must match AttentionSlot in wasm/workspace.hpp.
const SLOT = { q: 0, k: 1, v: 2, padding: 3, results: 4, chunkRows: 5 };

// The order of the attention results in wasm memory (AttentionSlot kResults: one chunk of query
// rows) and in the one array a call returns them in, with or without the trace.
const LEAN_LAYOUT = ['weights', 'output'];
const TRACE_LAYOUT = ['weights', 'output', 'scores', 'scaled', 'masked'];

/**
 * The length of each result array in `layout`, in its order: nq * dv for the output, nq * nk for
 * the others.
 * @param {string[]} layout LEAN_LAYOUT or TRACE_LAYOUT
 * @param {number} area nq * nk
 * @param {number} outputLength nq * dv
 * @returns {number[]}
 */
function resultLengths(layout, area, outputLength) {
  return layout.map((name) => (name === 'output' ? outputLength : area));
}

/**
 * Copies attention results from wasm memory into the arrays of a result: in one copy when those
 * arrays lie one after the other in one buffer, as a call returns them (checked, not assumed),
 * otherwise one copy per array (copyRows). For when the chunk in wasm memory holds every query row.
 * @param {Record<string, Float32Array>} into arrays of the right lengths (requireResultArrays)
 * @param {Float32Array} heap
 * @param {number} start the results' index in heap
 * @param {string[]} layout LEAN_LAYOUT or TRACE_LAYOUT
 * @param {{ nq: number, nk: number, dv: number }} sizes
 */
function refill(into, heap, start, layout, { nq, nk, dv }) {
  const { buffer, byteOffset } = into.weights;
  let offset = 0;
  let contiguous = true;
  for (const name of layout) {
    const array = into[name];
    contiguous &&= array.buffer === buffer && array.byteOffset === byteOffset + offset * 4;
    offset += array.length;
  }
  if (contiguous) {
    new Float32Array(buffer, byteOffset, offset).set(heap.subarray(start, start + offset));
  } else {
    copyRows(into, heap, start, layout, { chunkRows: nq, first: 0, count: nq, nk, dv });
  }
}

/**
 * Copies one chunk of query rows of the results from wasm memory into their place in the arrays of
 * a result: `count` rows from row `first` on, each array's rows from its own part of the chunk,
 * which has room for `chunkRows` rows.
 * @param {Record<string, Float32Array>} into arrays of the right lengths (requireResultArrays)
 * @param {Float32Array} heap
 * @param {number} start the chunk's index in heap
 * @param {string[]} layout LEAN_LAYOUT or TRACE_LAYOUT
 * @param {{ chunkRows: number, first: number, count: number, nk: number, dv: number }} rows
 */
function copyRows(into, heap, start, layout, { chunkRows, first, count, nk, dv }) {
  let at = start;
  for (const name of layout) {
    const width = name === 'output' ? dv : nk;
    into[name].set(heap.subarray(at, at + count * width), first * width);
    at += chunkRows * width;
  }
}

/**
 * New result arrays: views onto `results`, in the order of TRACE_LAYOUT or LEAN_LAYOUT, under
 * names in the order the steps are computed.
 * @param {Float32Array} results
 * @param {boolean} withTrace
 * @param {number} area nq * nk
 * @param {number} lean nq * nk + nq * dv
 * @returns {Record<string, Float32Array>}
 */
function viewsOnto(results, withTrace, area, lean) {
  const weights = results.subarray(0, area);
  const output = results.subarray(area, lean);
  if (!withTrace) return { weights, output };
  return {
    scores: results.subarray(lean, lean + area),
    scaled: results.subarray(lean + area, lean + 2 * area),
    masked: results.subarray(lean + 2 * area),
    weights,
    output,
  };
}

/**
 * Wraps an instantiated core module.
 * @param {any} core the module object returned by the generated factory
 * @returns {import('./index.js').Engine}
 */
export function createEngine(core) {
  if (core.attentionSlotCount !== Object.keys(SLOT).length) {
    throw new Error('engine: the wasm module does not match this facade; rebuild it');
  }

  // The sizes the attention buffers were last prepared for, and their table's index in HEAPU32.
  // The buffers stay where they are until they are prepared for other sizes, so a call of the
  // same sizes as the last one (a figure recomputed as the learner types) skips that call.
  /** @type {{ nq: number, nk: number, dk: number, dv: number, table: number } | null} */
  let prepared = null;
  // Where the results of each call go, unless it refills an earlier one.
  const pool = createFloatPool();
  /** @type {import('./index.js').LanguageModel | null} */
  let languageModel = null;
  /** @type {ReturnType<typeof createTranslators> | null} */
  let translators = null;

  /**
   * The table of buffer addresses for these sizes (wasm/workspace.hpp), as an index in HEAPU32.
   * @param {number} nq
   * @param {number} nk
   * @param {number} dk
   * @param {number} dv
   * @returns {number}
   */
  function attentionTable(nq, nk, dk, dv) {
    const last = prepared;
    if (last && last.nq === nq && last.nk === nk && last.dk === dk && last.dv === dv) {
      return last.table;
    }
    // Forgotten first: if preparing throws, the buffers may have moved.
    prepared = null;
    const table = core.attentionPrepare(nq, nk, dk, dv) >> 2;
    prepared = { nq, nk, dk, dv, table };
    return table;
  }

  return {
    softmax(x, rows, cols, { temperature = 1 } = {}) {
      const where = 'softmax';
      requireCount(where, 'rows', rows);
      requireCount(where, 'cols', cols);
      requireValues(where, 'x', x, rows * cols, `rows x cols = ${rows}x${cols}`);
      return core.softmax(x, rows, cols, requireNumber(where, 'temperature', temperature));
    },

    // q: (nq, dk), k: (nk, dk), v: (nk, dv). Inputs are copied into buffers that live in wasm
    // memory across calls, and the results copied out of them: no allocation inside the core.
    // The results go into one new array (for a small result, a region of a shared block:
    // float-pool.js), or with `into` (an earlier result of the same sizes and
    // trace setting) into that result's own arrays: copying into memory already in use is
    // faster than filling a new array, which the system must first map and zero (`npm run bench`
    // times both).
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
      into = undefined,
    }) {
      const where = 'attention';
      // One by one rather than in a loop over an object: this runs on every call, and at small
      // sizes the facade's own work is a good part of the call.
      requireCount(where, 'nq', nq);
      requireCount(where, 'nk', nk);
      requireCount(where, 'dk', dk);
      requireCount(where, 'dv', dv);
      requireValues(where, 'q', q, nq * dk, () => `nq x dk = ${nq}x${dk}`);
      requireValues(where, 'k', k, nk * dk, () => `nk x dk = ${nk}x${dk}`);
      requireValues(where, 'v', v, nk * dv, () => `nk x dv = ${nk}x${dv}`);
      requireNumber(where, 'temperature', temperature);
      const padding = paddingBytes(where, keyPadding, nk);
      // Without the trace, the core skips writing scores, scaled and masked.
      const withTrace = Boolean(trace);
      const area = nq * nk;
      const lean = area + nq * dv;
      const layout = withTrace ? TRACE_LAYOUT : LEAN_LAYOUT;
      const lengths = resultLengths(layout, area, nq * dv);
      const reused = into === undefined ? null : requireResultArrays(where, into, layout, lengths);
      if (reused && !withTrace && 'scores' in reused) {
        throw new Error(`${where}: into holds a trace, but this call has trace: false`);
      }

      const table = attentionTable(nq, nk, dk, dv);
      const addresses = core.HEAPU32;
      const heap = core.HEAPF32;
      heap.set(q, addresses[table + SLOT.q] >> 2);
      heap.set(k, addresses[table + SLOT.k] >> 2);
      heap.set(v, addresses[table + SLOT.v] >> 2);
      if (padding) core.HEAPU8.set(padding, addresses[table + SLOT.padding]);
      // The core checks the inputs and computes the first chunk of query rows.
      const failure = core._attn_attention_start(
        nq,
        nk,
        dk,
        dv,
        scale ? 1 : 0,
        temperature,
        causal ? 1 : 0,
        padding ? 1 : 0,
        withTrace ? 1 : 0,
      );
      if (failure !== 0) throw new Error(core.UTF8ToString(failure));

      const total = withTrace ? lean + 3 * area : lean;
      const start = addresses[table + SLOT.results] >> 2;
      const chunkRows = addresses[table + SLOT.chunkRows];
      if (chunkRows === nq) {
        // One chunk holds every row, in the order of a result's own one array.
        if (!reused) {
          const copy = pool.copy(heap.subarray(start, start + total));
          return /** @type {any} */ (viewsOnto(copy, withTrace, area, lean));
        }
        refill(reused, heap, start, layout, { nq, nk, dv });
        return /** @type {any} */ (reused);
      }
      // Chunk by chunk, each copied out while it is still in cache.
      const result = reused ?? viewsOnto(pool.zeros(total), withTrace, area, lean);
      const rows = { chunkRows, first: 0, count: chunkRows, nk, dv };
      copyRows(result, heap, start, layout, rows);
      for (rows.first = chunkRows; rows.first < nq; rows.first += chunkRows) {
        const message = core._attn_attention_rows(rows.first);
        if (message !== 0) throw new Error(core.UTF8ToString(message));
        rows.count = Math.min(chunkRows, nq - rows.first);
        copyRows(result, heap, start, layout, rows);
      }
      // (The declared overloads tell callers which of the two shapes they get.)
      return /** @type {any} */ (result);
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

    // A training run of a reversal model in the core (web/src/engine/training.js); free it with
    // dispose() when done.
    createTraining: (options) => createTraining(core, options),

    // A live training run of a small language model on the loaded word vectors and two corpus
    // files (web/src/engine/lm-training.js); free it with dispose() when done.
    createLanguageModelTraining: (train, heldOut, options) =>
      createLanguageModelTraining(core, train, heldOut, options),
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
