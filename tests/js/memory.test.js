// The engine's memory stays flat: 10,000 facade calls of mixed kinds and sizes, a share of them
// with bad arguments that throw (in the facade, or in the core, whose C++ exception becomes a JS
// Error), leave the wasm heap where a warm-up left it. Measured three ways after a warm-up of the
// same calls and again after the loop: the bytes the allocator has handed out and not had back
// (mallinfo, through the module's heapBytesInUse), the size of the wasm memory, and the number of
// JS values the bindings hold for C++ (embind's handles). Any growth fails.
//
// This test builds the engine from the generated module itself, as web/src/engine/node.js does,
// because it needs the raw module beside the facade to read those three numbers.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';

import { createEngine } from '../../web/src/engine/engine.js';
import createAttentionCore from '../../web/src/engine/generated/attention-core.mjs';

const core = await createAttentionCore({
  wasmBinary: readFileSync(
    new URL('../../web/src/engine/generated/attention-core.wasm', import.meta.url),
  ),
});
const engine = createEngine(core);

const CALLS = 10_000;
const WARMUP_CALLS = 2_000;

/** A tiny word-vector file (docs/embeddings.md): words "a" and "bb", 3 numbers each. */
function tinyEmbeddings() {
  const vocabulary = Buffer.from('a\nbb\n');
  const header = Buffer.alloc(24);
  header.write('ATTNVECS', 0, 'latin1');
  header.writeUInt32LE(1, 8);
  header.writeUInt32LE(2, 12);
  header.writeUInt32LE(3, 16);
  header.writeUInt32LE(vocabulary.length, 20);
  const padding = Buffer.alloc((4 - ((24 + vocabulary.length) % 4)) % 4);
  const scales = Buffer.alloc(8);
  scales.writeFloatLE(0.01, 0);
  scales.writeFloatLE(0.02, 4);
  const codes = Buffer.from([1, 2, 3, 250, 251, 252]);
  return new Uint8Array(Buffer.concat([header, vocabulary, padding, scales, codes]));
}

/**
 * A seeded stream of whole numbers (a 32-bit LCG): the same calls on every run.
 * @param {number} seed
 */
function numbers(seed) {
  let state = seed >>> 0;
  /** @param {number} n @returns {number} a whole number in [0, n) */
  return (n) => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state % n;
  };
}

/**
 * @param {(n: number) => number} pick
 * @param {number} length
 * @returns {Float32Array}
 */
function values(pick, length) {
  return Float32Array.from({ length }, () => (pick(2001) - 1000) / 500);
}

/**
 * The calls of the loop; call `index` of a stream always does the same thing.
 * @param {(n: number) => number} pick
 * @returns {() => void} one call, which may throw (bad arguments are among the calls)
 */
function nextCall(pick) {
  const kind = pick(12);
  const n = 1 + pick(40);
  const d = 1 + pick(16);
  switch (kind) {
    case 0:
    case 1:
    case 2: {
      // Attention, the hot path, at sizes that move its buffers up and down.
      const nk = kind === 0 ? n : 1 + pick(40);
      return () =>
        engine.attention({
          q: values(pick, n * d),
          k: values(pick, nk * d),
          v: values(pick, nk * 3),
          nq: n,
          nk,
          dk: d,
          dv: 3,
          causal: kind === 0 && pick(2) === 0,
          keyPadding: pick(3) === 0 ? Array.from({ length: nk }, (_, j) => j > 0 && pick(2)) : null,
          trace: pick(2) === 0,
        });
    }
    case 3: {
      // The core refuses these: a NaN, or a causal mask over unequal lengths.
      const q = values(pick, n * d);
      if (pick(2) === 0) q[pick(q.length)] = NaN;
      const nk = n + 1;
      return () =>
        engine.attention({
          ...{ q, k: values(pick, nk * d), v: values(pick, nk * 2) },
          ...{ nq: n, nk, dk: d, dv: 2, causal: true },
        });
    }
    case 4:
      // The facade refuses this one before the core sees it: q is one value short.
      return () =>
        engine.attention({
          ...{ q: values(pick, n * d - 1), k: values(pick, n * d), v: values(pick, n) },
          ...{ nq: n, nk: n, dk: d, dv: 1 },
        });
    case 5: {
      const temperature = pick(4) === 0 ? 0 : 0.5 + pick(3);
      return () => engine.softmax(values(pick, n * d), n, d, { temperature });
    }
    case 6: {
      const kinds = /** @type {const} */ (['additive', 'dot', 'general']);
      const scoring = kinds[pick(3)];
      const da = 1 + pick(6);
      const bad = pick(5) === 0 ? 1 : 0; // h one value short: the core throws
      return () =>
        engine.score({
          ...{ kind: scoring, s: values(pick, d), h: values(pick, n * d - bad), n, ds: d, dh: d },
          ...{ ws: values(pick, da * d), wh: values(pick, da * d), w: values(pick, d * d) },
          ...{ v: values(pick, da), da },
        });
    }
    case 7: {
      const heads = 1 + pick(4);
      const dModel = heads * (1 + pick(4));
      const square = () => values(pick, dModel * dModel);
      return () =>
        engine.multiHeadAttention({
          ...{ xq: values(pick, n * dModel), xkv: values(pick, n * dModel), nq: n, nk: n },
          ...{ dModel, heads: pick(6) === 0 ? dModel + 1 : heads },
          ...{ wq: square(), wk: square(), wv: square(), wo: square(), causal: pick(2) === 0 },
        });
    }
    case 8:
      return pick(2) === 0
        ? () => engine.positionalEncoding(n, d)
        : () => engine.glorotUniform(n, pick(8) === 0 ? 0 : d, pick(1000));
    case 9:
      return () =>
        engine.embed(
          Array.from({ length: 1 + pick(6) }, () => ['a', 'bb', 'unknown', 'é'][pick(4)]),
        );
    case 10: {
      // A file cut short, which the core refuses, or the good one again.
      const bytes = tinyEmbeddings();
      const cut = pick(2) === 0 ? bytes.subarray(0, 10 + pick(bytes.length - 10)) : bytes;
      return () => engine.loadEmbeddings(cut);
    }
    default:
      return pick(2) === 0
        ? () => engine.unitNormal(n, d, pick(1000))
        : () => engine.scalingExperiment({ dk: d, samples: 20, keys: 4, trials: pick(3) });
  }
}

/**
 * Runs `count` calls of the stream.
 * @param {(n: number) => number} pick
 * @param {number} count
 * @returns {{ returned: number, threw: number }}
 */
function runCalls(pick, count) {
  let returned = 0;
  let threw = 0;
  for (let i = 0; i < count; i++) {
    const call = nextCall(pick);
    try {
      call();
      returned++;
    } catch (error) {
      assert.ok(error instanceof Error, `call ${i} threw ${String(error)}, not an Error`);
      threw++;
    }
  }
  return { returned, threw };
}

/** The three numbers that must not grow. */
function usage() {
  return {
    bytesInUse: core.heapBytesInUse(),
    heapBytes: core.HEAPU8.length,
    handles: core.count_emval_handles(),
  };
}

test('10,000 facade calls of mixed sizes and errors leave the wasm heap as they found it', () => {
  engine.loadEmbeddings(tinyEmbeddings());
  const pick = numbers(13);
  // The attention workspace keeps its buffers across calls and only ever grows them: the
  // warm-up starts at the largest sizes of the loop (n_q 40, n_k 41, d_k 16, d_v 3), so that
  // the loop finds them at their largest, then makes the loop's kinds of call.
  const largest = { nq: 40, nk: 41, dk: 16, dv: 3 };
  engine.attention({
    ...largest,
    ...{ q: values(pick, 40 * 16), k: values(pick, 41 * 16), v: values(pick, 41 * 3) },
  });
  runCalls(pick, WARMUP_CALLS);
  engine.loadEmbeddings(tinyEmbeddings());
  const before = usage();

  const { returned, threw } = runCalls(pick, CALLS);
  engine.loadEmbeddings(tinyEmbeddings());
  const after = usage();

  // The loop really mixes both kinds of call.
  assert.ok(returned > CALLS / 4, `${returned} calls returned`);
  assert.ok(threw > CALLS / 20, `${threw} calls threw`);
  assert.deepEqual(after, before, 'bytes in use, heap size and handles after the loop');
});

test("the language model's runs, good and bad, leave the wasm heap as they found it", () => {
  const root = new URL('../../web/public/', import.meta.url);
  engine.loadEmbeddings(readFileSync(new URL('embeddings/en-20k-100d.bin', root)));
  const weights = new Uint8Array(readFileSync(new URL('models/brown-lm.bin', root)));
  const report = JSON.parse(readFileSync(new URL('models/brown-lm.json', root), 'utf8'));
  const model = engine.loadLanguageModel(weights, report);
  const pick = numbers(29);
  const words = ['the', 'bank', 'river', 'zzqx', 'it', 'was', '.', 'é', '日本'];
  const calls = () => {
    let threw = 0;
    for (let i = 0; i < 400; i++) {
      const kind = pick(5);
      try {
        if (kind === 0) {
          // The core refuses these: no tokens, more than the context, a token that is no string.
          const bad = [[], Array(65).fill('the'), ['the', 3]][pick(3)];
          core.languageModelRun(bad, 5);
        } else if (kind === 1) {
          engine.loadLanguageModel(weights.subarray(0, 48 + pick(100)), report);
        } else {
          const text = Array.from({ length: 1 + pick(80) }, () => words[pick(words.length)]);
          model.run(text.join(' '), { top: 1 + pick(10) });
        }
      } catch (error) {
        assert.ok(error instanceof Error);
        threw++;
      }
    }
    // The model keeps its last reading, as large as the last text read: the same text last each
    // time, so that what is kept is the same size.
    model.run('the river bank');
    return threw;
  };
  calls();
  const before = usage();
  const threw = calls();
  const after = usage();
  assert.ok(threw > 40, `${threw} calls threw`);
  // Where the kept reading's blocks land moves the count by a few bytes: the allocator hands out
  // a whole free block when what it would leave is too small to be one (under 16 bytes). A leak
  // of anything a run makes, over 400 runs, would be thousands of bytes.
  const { bytesInUse, ...rest } = after;
  assert.deepEqual(rest, { heapBytes: before.heapBytes, handles: before.handles });
  assert.ok(
    Math.abs(bytesInUse - before.bytesInUse) <= 64,
    `bytes in use: ${before.bytesInUse} before the runs, ${bytesInUse} after`,
  );
});

test("the translators' calls, good and bad, leave the wasm heap as they found it", () => {
  const root = new URL('../../web/public/', import.meta.url);
  engine.loadEmbeddings(readFileSync(new URL('embeddings/en-20k-100d.bin', root)));
  const file = new Uint8Array(readFileSync(new URL('models/translation.bin', root)));
  const report = JSON.parse(readFileSync(new URL('models/translation.json', root), 'utf8'));
  /** @returns {import('attention-lab').Translator[]} */
  const load = () => {
    const loaded = engine.loadTranslators(file, report);
    return [loaded.attention, loaded.fixedVector].map((t) => t ?? assert.fail());
  };
  const translators = load();
  const pick = numbers(31);
  const words = ['the', 'house', 'is', 'small', 'zzqx', '.', ',', 'é', '日本', '<b>', "n't"];
  const calls = () => {
    let threw = 0;
    for (let i = 0; i < 300; i++) {
      const kind = pick(8);
      try {
        if (kind === 0) {
          // The core refuses these: no tokens, too many, a token that is no string, a model it
          // does not have, a word limit past its own, a beam outside 1 to 16.
          const bad = [
            ['attention', [], 5, 1],
            ['attention', Array(129).fill('the'), 5, 1],
            ['fixed-vector', ['the', 3], 5, 1],
            ['rnn', ['the'], 5, 1],
            [4, ['the'], 5, 1],
            ['attention', ['the'], 128, 1],
            ['attention', ['the'], 5, 17],
          ][pick(7)];
          core.translatorTranslate(...bad);
        } else if (kind === 1) {
          // A file cut short (the core refuses it), or a report that is not one (the facade does).
          if (pick(2) === 0) engine.loadTranslators(file.subarray(0, 1 + pick(200_000)), report);
          else engine.loadTranslators(file, { format: 'other' });
        } else if (kind === 2) {
          translators[pick(2)].translate(pick(2) === 0 ? '' : /** @type {any} */ (7));
        } else {
          const text = Array.from({ length: 1 + pick(12) }, () => words[pick(words.length)]);
          translators[pick(2)].translate(text.join(' '));
        }
      } catch (error) {
        assert.ok(error instanceof Error);
        threw++;
      }
    }
    return threw;
  };
  calls();
  const before = usage();
  const threw = calls();
  const after = usage();
  assert.ok(threw > 30, `${threw} calls threw`);
  assert.deepEqual(after, before, 'bytes in use, heap size and handles after the calls');

  // Loading the file again frees the models it replaces. The new models' many small blocks land
  // in whichever free chunks fit, which the allocator rounds up a few bytes differently from one
  // load to the next (tens of bytes either way); a model left behind would be megabytes, and a
  // leak of even 11 bytes a load would pass the bound by the twelfth load.
  load();
  const first = usage();
  for (let i = 0; i < 12; i++) {
    load()[0].translate('the house is small');
    const now = usage();
    assert.equal(now.heapBytes, first.heapBytes, `the heap grew at load ${i}`);
    assert.equal(now.handles, first.handles, `handles at load ${i}`);
    assert.ok(
      Math.abs(now.bytesInUse - first.bytesInUse) < 128,
      `load ${i}: ${now.bytesInUse} bytes`,
    );
  }
});
