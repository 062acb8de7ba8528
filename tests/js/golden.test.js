// Every engine facade function against golden fixtures computed independently with PyTorch in
// float64 (tools/make_fixtures.py). The engine works in float32, so results are compared with
// FLOAT32_TOLERANCE (abs 1e-5 + rel 1e-4, reasoning in helpers.js); -Infinity entries of the
// masked scores must match exactly.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { loadEngine } from 'attention-lab';

import { assertClose, loadFixture } from './helpers.js';

const engine = await loadEngine();

/**
 * The fixture input with every list of numbers as a Float32Array and null entries left out, as a
 * caller would pass it to the facade.
 * @param {object} input
 * @returns {object}
 */
function toFacadeArgs(input) {
  const args = {};
  for (const [key, value] of Object.entries(input)) {
    if (value === null) continue;
    const numeric = Array.isArray(value) && value.every((x) => typeof x === 'number');
    args[key] = numeric ? Float32Array.from(value) : value;
  }
  return args;
}

for (const { name, input, expected } of loadFixture('softmax').cases) {
  test(`softmax matches torch.softmax for ${name}`, () => {
    const { x, rows, cols, temperature } = toFacadeArgs(input);
    const weights = engine.softmax(x, rows, cols, { temperature });
    assert.ok(weights instanceof Float32Array, 'softmax returns a Float32Array');
    assertClose(weights, expected.weights, 'weights');
  });
}

test('softmax accepts a plain array of numbers as well as a Float32Array', () => {
  const { input, expected } = loadFixture('softmax').cases[0];
  const weights = engine.softmax(input.x, input.rows, input.cols, {
    temperature: input.temperature,
  });
  assertClose(weights, expected.weights, 'weights');
});

for (const { name, input, expected } of loadFixture('attention').cases) {
  test(`scaled dot-product attention matches the torch reference for ${name}`, () => {
    const trace = engine.attention(toFacadeArgs(input));
    for (const key of ['scores', 'scaled', 'masked', 'weights', 'output']) {
      assert.ok(trace[key] instanceof Float32Array, `${key} is a Float32Array`);
      assertClose(trace[key], expected[key], key);
    }
  });
}

for (const { name, input, expected } of loadFixture('scoring').cases) {
  test(`${input.kind} scoring matches the torch reference for ${name.replace(/^\w+: /, '')}`, () => {
    const result = engine.score(toFacadeArgs(input));
    for (const key of ['scores', 'weights', 'context']) {
      assert.ok(result[key] instanceof Float32Array, `${key} is a Float32Array`);
      assertClose(result[key], expected[key], key);
    }
  });
}

for (const { name, selfAttention, input, expected } of loadFixture('multi_head').cases) {
  test(`multi-head ${name} matches nn.MultiheadAttention`, () => {
    const args = toFacadeArgs(input);
    if (selfAttention) args.xkv = args.xq; // the same tokens are queries, keys and values
    const result = engine.multiHeadAttention(args);
    assert.equal(result.heads.length, input.heads, 'one trace per head');
    result.heads.forEach((head, h) => {
      assertClose(head.weights, expected.heads[h].weights, `head ${h} weights`);
      assertClose(head.output, expected.heads[h].output, `head ${h} output`);
    });
    assertClose(result.output, expected.output, 'output');
  });
}

for (const { name, input, expected } of loadFixture('positional').cases) {
  test(`sinusoidal positional encoding matches the torch reference for ${name}`, () => {
    const pe = engine.positionalEncoding(input.n, input.d);
    assert.ok(pe instanceof Float32Array, 'positionalEncoding returns a Float32Array');
    assertClose(pe, expected.pe, 'pe');
  });
}

test('attention with trace: false returns exactly the weights and output of the full call', () => {
  for (const { input } of loadFixture('attention').cases) {
    const args = toFacadeArgs(input);
    const full = engine.attention(args);
    const lean = engine.attention({ ...args, trace: false });
    assert.deepEqual(Object.keys(lean).sort(), ['output', 'weights']);
    assert.deepEqual(lean.weights, full.weights);
    assert.deepEqual(lean.output, full.output);
  }
});
