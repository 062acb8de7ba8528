// The engine facade: camelCase functions over the raw embind module, taking and returning plain
// Float32Arrays. Views and widgets get their numbers from here and never touch the module.
import { paddingBytes, requireCount, requireNumber, requireValues } from './args.js';

// Must match AttentionSlot in wasm/workspace.hpp.
const SLOT = {
  q: 0,
  k: 1,
  v: 2,
  padding: 3,
  scores: 4,
  scaled: 5,
  masked: 6,
  weights: 7,
  output: 8,
};

/**
 * Wraps an instantiated core module.
 * @param {any} core the module object returned by the generated factory
 * @returns {import('./index').Engine}
 */
export function createEngine(core) {
  if (core.attentionSlotCount !== Object.keys(SLOT).length) {
    throw new Error('engine: the wasm module does not match this facade; rebuild it');
  }

  /** @param {number} address byte address of a float32 buffer; @param {number} count */
  const copyOut = (address, count) => core.HEAPF32.slice(address >> 2, (address >> 2) + count);

  return {
    softmax(x, rows, cols, { temperature = 1 } = {}) {
      const where = 'softmax';
      requireCount(where, 'rows', rows);
      requireCount(where, 'cols', cols);
      requireValues(where, 'x', x, rows * cols, `rows x cols = ${rows}x${cols}`);
      return core.softmax(x, rows, cols, requireNumber(where, 'temperature', temperature));
    },

    // q: (nq, dk), k: (nk, dk), v: (nk, dv). Inputs are copied into buffers that live in wasm
    // memory, and the results sliced out of them: no per-call allocation inside the core.
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
    }) {
      const where = 'attention';
      for (const [name, size] of Object.entries({ nq, nk, dk, dv }))
        requireCount(where, name, size);
      requireValues(where, 'q', q, nq * dk, `nq x dk = ${nq}x${dk}`);
      requireValues(where, 'k', k, nk * dk, `nk x dk = ${nk}x${dk}`);
      requireValues(where, 'v', v, nk * dv, `nk x dv = ${nk}x${dv}`);
      requireNumber(where, 'temperature', temperature);
      const padding = paddingBytes(where, keyPadding, nk);

      const table = core.attentionPrepare(nq, nk, dk, dv) >> 2;
      const address = (/** @type {number} */ slot) => core.HEAPU32[table + slot];
      core.HEAPF32.set(q, address(SLOT.q) >> 2);
      core.HEAPF32.set(k, address(SLOT.k) >> 2);
      core.HEAPF32.set(v, address(SLOT.v) >> 2);
      if (padding) core.HEAPU8.set(padding, address(SLOT.padding));
      core.attentionRun(nq, nk, dk, dv, Boolean(scale), temperature, Boolean(causal), !!padding);

      const scores = nq * nk;
      return {
        scores: copyOut(address(SLOT.scores), scores),
        scaled: copyOut(address(SLOT.scaled), scores),
        masked: copyOut(address(SLOT.masked), scores),
        weights: copyOut(address(SLOT.weights), scores),
        output: copyOut(address(SLOT.output), nq * dv),
      };
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

    glorotUniform(rows, cols, seed) {
      const where = 'glorot uniform';
      return core.glorotUniform(
        requireCount(where, 'rows', rows),
        requireCount(where, 'cols', cols),
        requireSeed(where, seed),
      );
    },

    unitNormal(rows, cols, seed) {
      const where = 'unit normal';
      return core.unitNormal(
        requireCount(where, 'rows', rows),
        requireCount(where, 'cols', cols),
        requireSeed(where, seed),
      );
    },

    scalingExperiment({ dk, samples = 2000, keys = 16, trials = 200, seed = 1 }) {
      const where = 'scaling experiment';
      for (const [name, value] of Object.entries({ dk, samples, keys, trials })) {
        requireCount(where, name, value);
      }
      return core.scalingExperiment(dk, samples, keys, trials, requireSeed(where, seed));
    },
  };
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
