// Bad input must throw a real Error whose message names the offending argument (and the shapes
// involved), and must leave the engine working: after every failure, normal calls give exactly the
// results they gave before.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { loadEngine } from 'attention-lab';

const engine = await loadEngine();

// Valid inputs, made by the engine's own seeded generators.
const attentionArgs = Object.freeze({
  q: engine.unitNormal(3, 3, 1), // nq x dk = 3x3
  k: engine.unitNormal(4, 3, 2), // nk x dk = 4x3
  v: engine.unitNormal(4, 2, 3), // nk x dv = 4x2
  nq: 3,
  nk: 4,
  dk: 3,
  dv: 2,
});

const D = 8;
const multiHeadArgs = Object.freeze({
  xq: engine.unitNormal(3, D, 4), // nq x dModel = 3x8
  xkv: engine.unitNormal(4, D, 5), // nk x dModel = 4x8
  nq: 3,
  nk: 4,
  dModel: D,
  heads: 2,
  wq: engine.glorotUniform(D, D, 6),
  wk: engine.glorotUniform(D, D, 7),
  wv: engine.glorotUniform(D, D, 8),
  wo: engine.glorotUniform(D, D, 9),
  bq: engine.unitNormal(1, D, 10),
  bk: engine.unitNormal(1, D, 11),
  bv: engine.unitNormal(1, D, 12),
  bo: engine.unitNormal(1, D, 13),
});

const additiveArgs = Object.freeze({
  kind: 'additive',
  s: engine.unitNormal(1, 3, 14), // ds = 3
  h: engine.unitNormal(4, 5, 15), // n x dh = 4x5
  n: 4,
  ds: 3,
  dh: 5,
  da: 6,
  ws: engine.glorotUniform(6, 3, 16), // da x ds = 6x3
  wh: engine.glorotUniform(6, 5, 17), // da x dh = 6x5
  v: engine.unitNormal(1, 6, 18), // da = 6
});

const softmaxInput = Float32Array.from([0.5, -1, 2, 0, 1, 1, -Infinity, 3]); // 2x4

/** Every facade function called with valid input; the results must not change across failures. */
function normalCalls() {
  return {
    softmax: engine.softmax(softmaxInput, 2, 4, { temperature: 0.7 }),
    attention: engine.attention({ ...attentionArgs, causal: false, keyPadding: [0, 1, 0, 0] }),
    causal: engine.attention({
      ...attentionArgs,
      nk: 3,
      k: attentionArgs.q,
      v: attentionArgs.v.slice(0, 6),
      causal: true,
    }),
    multiHead: engine.multiHeadAttention(multiHeadArgs),
    score: engine.score(additiveArgs),
    dot: engine.score({ kind: 'dot', s: additiveArgs.s, h: attentionArgs.k, n: 4, ds: 3, dh: 3 }),
    positional: engine.positionalEncoding(5, 6),
    glorot: engine.glorotUniform(3, 4, 99),
    normal: engine.unitNormal(3, 4, 99),
  };
}

const baseline = normalCalls();

/**
 * Copy of a Float32Array with one entry replaced.
 * @param {Float32Array} values
 * @param {number} index
 * @param {number} value
 */
function withEntry(values, index, value) {
  const copy = Float32Array.from(values);
  copy[index] = value;
  return copy;
}

/**
 * One bad call: it must throw an Error whose message matches every pattern, and the engine must
 * give the baseline results afterwards.
 * @param {string} name what is wrong, as the test's name
 * @param {() => unknown} call
 * @param {RegExp[]} patterns what the message must name
 */
function rejects(name, call, patterns) {
  test(`${name} throws an Error that names it`, () => {
    let thrown;
    try {
      call();
    } catch (error) {
      thrown = error;
    }
    assert.ok(thrown !== undefined, 'the call returned instead of throwing');
    assert.ok(thrown instanceof Error, `threw ${String(thrown)}, not an Error`);
    for (const pattern of patterns) {
      assert.match(thrown.message, pattern, `message: ${thrown.message}`);
    }
    assert.deepEqual(
      normalCalls(),
      baseline,
      'normal calls still give the same results afterwards',
    );
  });
}

describe('attention rejects bad input', () => {
  const a = attentionArgs;
  rejects(
    'k wider than q (4x4 values for a 4x3 k)',
    () => engine.attention({ ...a, k: engine.unitNormal(4, 4, 20) }),
    [/\bk\b/, /4x3/, /16/],
  );
  rejects('q shorter than nq x dk', () => engine.attention({ ...a, q: a.q.slice(0, 8) }), [
    /\bq\b/,
    /3x3/,
    /\b8\b/,
  ]);
  rejects(
    'v with one row too many',
    () => engine.attention({ ...a, v: engine.unitNormal(5, 2, 21) }),
    [/\bv\b/, /4x2/],
  );
  rejects('a missing v', () => engine.attention({ ...a, v: undefined }), [/\bv\b/, /missing/]);
  rejects('a missing q', () => engine.attention({ ...a, q: null }), [/\bq\b/, /missing/]);
  rejects('a missing dk', () => engine.attention({ ...a, dk: undefined }), [/\bdk\b/]);
  rejects('an empty query sequence (nq = 0)', () => engine.attention({ ...a, q: [], nq: 0 }), [
    /\bnq\b/,
  ]);
  rejects('an empty key sequence (nk = 0)', () => engine.attention({ ...a, k: [], v: [], nk: 0 }), [
    /\bnk\b/,
  ]);
  rejects('NaN in q', () => engine.attention({ ...a, q: withEntry(a.q, 4, NaN) }), [
    /\bq\b/,
    /NaN/,
  ]);
  rejects('Infinity in v', () => engine.attention({ ...a, v: withEntry(a.v, 7, Infinity) }), [
    /\bv\b/,
    /infinity/i,
  ]);
  rejects('-Infinity in k', () => engine.attention({ ...a, k: withEntry(a.k, 0, -Infinity) }), [
    /\bk\b/,
    /infinity/i,
  ]);
  rejects('a causal mask with nq != nk', () => engine.attention({ ...a, causal: true }), [
    /causal/,
    /3x3/,
    /4x3/,
  ]);
  rejects('key padding on every key', () => engine.attention({ ...a, keyPadding: [1, 1, 1, 1] }), [
    /key.?padding/i,
    /\b4\b/,
  ]);
  rejects(
    'causal attention whose first query sees only padded keys',
    () =>
      engine.attention({
        ...a,
        nk: 3,
        k: a.q,
        v: a.v.slice(0, 6),
        causal: true,
        keyPadding: [true, false, false],
      }),
    [/key.?padding/i, /query 0/],
  );
  rejects(
    'keyPadding of the wrong length',
    () => engine.attention({ ...a, keyPadding: [0, 1, 0] }),
    [/keyPadding/, /\b3\b/, /\b4\b/],
  );
  rejects('temperature 0 in attention', () => engine.attention({ ...a, temperature: 0 }), [
    /temperature/,
  ]);
  rejects(
    'a negative temperature in attention',
    () => engine.attention({ ...a, temperature: -1 }),
    [/temperature/],
  );
  rejects('a NaN temperature in attention', () => engine.attention({ ...a, temperature: NaN }), [
    /temperature/,
  ]);
});

describe('softmax rejects bad input', () => {
  rejects('NaN in the softmax input', () => engine.softmax(withEntry(softmaxInput, 2, NaN), 2, 4), [
    /\bx\b/,
    /NaN/,
  ]);
  rejects(
    '+Infinity in the softmax input',
    () => engine.softmax(withEntry(softmaxInput, 5, Infinity), 2, 4),
    [/\bx\b/, /infinity/i],
  );
  rejects(
    'a softmax row that is entirely -Infinity',
    () => engine.softmax([0, 1, -Infinity, -Infinity], 2, 2),
    [/row 1/, /infinity/i],
  );
  rejects('a softmax input of the wrong length', () => engine.softmax(softmaxInput, 3, 4), [
    /\bx\b/,
    /3x4/,
    /\b8\b/,
  ]);
  rejects('softmax with zero rows', () => engine.softmax([], 0, 4), [/\brows\b/]);
  rejects('a missing softmax input', () => engine.softmax(undefined, 2, 4), [/\bx\b/, /missing/]);
  rejects(
    'temperature 0 in softmax',
    () => engine.softmax(softmaxInput, 2, 4, { temperature: 0 }),
    [/temperature/],
  );
  rejects(
    'a negative temperature in softmax',
    () => engine.softmax(softmaxInput, 2, 4, { temperature: -0.5 }),
    [/temperature/],
  );
  rejects(
    'an infinite temperature in softmax',
    () => engine.softmax(softmaxInput, 2, 4, { temperature: Infinity }),
    [/temperature/],
  );
});

describe('score rejects bad input', () => {
  const a = additiveArgs;
  rejects('an unknown score kind', () => engine.score({ ...a, kind: 'cosine' }), [
    /kind/,
    /cosine/,
  ]);
  rejects('a missing score kind', () => engine.score({ ...a, kind: undefined }), [/kind/]);
  rejects(
    'dot scoring with ds != dh',
    () => engine.score({ kind: 'dot', s: a.s, h: a.h, n: 4, ds: 3, dh: 5 }),
    [/\bs\b/, /\bh\b/, /4x5/],
  );
  rejects('a missing ws in additive scoring', () => engine.score({ ...a, ws: undefined }), [
    /\bws\b/,
    /missing/,
  ]);
  rejects('a wh of the wrong size in additive scoring', () => engine.score({ ...a, wh: a.ws }), [
    /\bwh\b/,
    /6x5/,
  ]);
  rejects('a missing v in additive scoring', () => engine.score({ ...a, v: undefined }), [
    /\bv\b/,
    /missing/,
  ]);
  rejects(
    'a missing w in general scoring',
    () => engine.score({ kind: 'general', s: a.s, h: a.h, n: 4, ds: 3, dh: 5 }),
    [/\bw\b/, /missing/],
  );
  rejects('NaN in the encoder states h', () => engine.score({ ...a, h: withEntry(a.h, 11, NaN) }), [
    /\bh\b/,
    /NaN/,
  ]);
  rejects(
    'Infinity in the decoder state s',
    () => engine.score({ ...a, s: withEntry(a.s, 1, Infinity) }),
    [/\bs\b/, /infinity/i],
  );
  rejects('no encoder states (n = 0)', () => engine.score({ ...a, h: [], n: 0 }), [/\bn\b/]);
});

describe('multi-head attention rejects bad input', () => {
  const a = multiHeadArgs;
  rejects('heads not dividing dModel', () => engine.multiHeadAttention({ ...a, heads: 3 }), [
    /heads/,
    /d_?model/i,
    /\b8\b/,
  ]);
  rejects('zero heads', () => engine.multiHeadAttention({ ...a, heads: 0 }), [/heads/]);
  rejects('xkv of the wrong length', () => engine.multiHeadAttention({ ...a, xkv: a.xq }), [
    /xkv/,
    /4x8/,
  ]);
  rejects(
    'xq with a different width than dModel',
    () => engine.multiHeadAttention({ ...a, xq: engine.unitNormal(3, 6, 22) }),
    [/xq/, /3x8/],
  );
  rejects('a missing wo', () => engine.multiHeadAttention({ ...a, wo: undefined }), [
    /\bwo\b/,
    /missing/,
  ]);
  rejects('a missing xq', () => engine.multiHeadAttention({ ...a, xq: undefined }), [
    /\bxq\b/,
    /missing/,
  ]);
  rejects(
    'a bias bq of the wrong length',
    () => engine.multiHeadAttention({ ...a, bq: a.bq.slice(0, 4) }),
    [/\bbq\b/, /\b4\b/],
  );
  rejects('NaN in xq', () => engine.multiHeadAttention({ ...a, xq: withEntry(a.xq, 9, NaN) }), [
    /\bx_?q\b/,
    /NaN/,
  ]);
  rejects(
    'Infinity in wk',
    () => engine.multiHeadAttention({ ...a, wk: withEntry(a.wk, 3, Infinity) }),
    [/\bw_?k\b/, /infinity/i],
  );
  rejects(
    'multi-head causal attention with nq != nk',
    () => engine.multiHeadAttention({ ...a, causal: true }),
    [/causal/, /\b3x\d/, /\b4x\d/],
  );
  rejects(
    'a multi-head keyPadding of the wrong length',
    () => engine.multiHeadAttention({ ...a, keyPadding: [0, 0] }),
    [/keyPadding/, /\b2\b/, /\b4\b/],
  );
  rejects(
    'multi-head key padding on every key',
    () => engine.multiHeadAttention({ ...a, keyPadding: [1, 1, 1, 1] }),
    [/key.?padding/i],
  );
  rejects(
    'an empty key sequence in multi-head attention',
    () => engine.multiHeadAttention({ ...a, xkv: [], nk: 0 }),
    [/\bnk\b/],
  );
  rejects('a missing dModel', () => engine.multiHeadAttention({ ...a, dModel: undefined }), [
    /dModel/,
  ]);
});

describe('the other functions reject bad sizes', () => {
  rejects('a positional encoding with n = 0', () => engine.positionalEncoding(0, 4), [/\bn\b/]);
  rejects('a positional encoding with d = 0', () => engine.positionalEncoding(3, 0), [/\bd\b/]);
  rejects('glorotUniform with 0 rows', () => engine.glorotUniform(0, 3, 1), [/\brows\b/]);
  rejects('unitNormal with 0 cols', () => engine.unitNormal(2, 0, 1), [/\bcols\b/]);
  rejects('a negative seed', () => engine.unitNormal(2, 2, -1), [/\bseed\b/]);
  rejects('a missing seed', () => engine.glorotUniform(2, 2), [/\bseed\b/]);
  rejects('a scaling experiment with dk = 0', () => engine.scalingExperiment({ dk: 0 }), [
    /\bdk\b/,
  ]);
  rejects(
    'a scaling experiment with a single key',
    () => engine.scalingExperiment({ dk: 8, keys: 1 }),
    [/\bkeys\b/],
  );
  rejects('a scaling experiment without dk', () => engine.scalingExperiment({}), [/\bdk\b/]);
});

test('the baseline calls themselves succeed and return arrays of the right size', () => {
  assert.equal(baseline.attention.weights.length, 12);
  assert.equal(baseline.multiHead.output.length, 3 * D);
  assert.equal(baseline.score.context.length, 5);
  assert.equal(baseline.positional.length, 30);
});
