// Training through the engine facade: the wasm trainer's loss curve and held-out accuracies for a
// seed equal those of the native command build/native/attn_train reversal with the same options; bad
// options and calls throw Errors that name them; dispose() frees the trainer; the results have the
// shapes the types promise, and a trained attention model looks along the anti-diagonal.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';

import { loadEngine } from 'attention-lab';

import { ROOT } from './helpers.js';
import { TRAINING_LIMITS } from '../../web/src/engine/training.js';

const engine = await loadEngine();

const TRAIN_TOOL = join(ROOT, 'build', 'native', 'attn_train');
if (!existsSync(TRAIN_TOOL)) {
  throw new Error(`${TRAIN_TOOL} is missing: run npm run build (npm test builds it first)`);
}

/**
 * Runs the native command; returns its losses and the evaluation it prints after the last step.
 * @param {string[]} flags
 * @param {number} steps
 * @returns {{ losses: number[], evaluation: { lengths: number[], sequenceAccuracy: number[],
 *   symbolAccuracy: number[] } }}
 */
function nativeRun(flags, steps) {
  const text = execFileSync(TRAIN_TOOL, ['reversal', ...flags, '--steps', String(steps)], {
    encoding: 'utf8',
  });
  const lines = text
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line));
  const losses = lines.filter((line) => 'loss' in line).map((line) => line.loss);
  const evaluations = lines.filter((line) => 'lengths' in line);
  assert.equal(losses.length, steps, 'attn_train prints one loss a step');
  assert.equal(evaluations.length, 1, 'attn_train evaluates once, after the last step');
  return { losses, evaluation: evaluations[0] };
}

// The same settings as facade options and as attn_train flags: the default attention model, the
// fixed-vector model on small batches, additive scoring on a narrower model, and unscaled dot
// scoring at d_k = 256 over longer inputs, without clipping.
const CONFIGURATIONS = [
  { options: {}, flags: [] },
  {
    options: { model: 'fixed', seed: 7, batch: 8 },
    flags: ['--model', 'fixed', '--seed', '7', '--batch', '8'],
  },
  {
    options: { scoring: 'additive', dModel: 16, dK: 12, vocab: 5, maxLength: 16 },
    flags: [
      '--scoring',
      'additive',
      '--d-model',
      '16',
      '--d-k',
      '12',
      '--vocab',
      '5',
      '--max-len',
      '16',
    ],
  },
  {
    options: { scoring: 'dot', dK: 256, minLength: 1, learningRate: 0.01, clip: 0 },
    flags: ['--scoring', 'dot', '--d-k', '256', '--min-len', '1', '--lr', '0.01', '--clip', '0'],
  },
];

const STEPS = 200;

describe('the wasm trainer matches the native one', () => {
  for (const { options, flags } of CONFIGURATIONS) {
    test(`the same loss curve and accuracies for ${JSON.stringify(options)}`, () => {
      const native = nativeRun(flags, STEPS);
      const training = engine.createTraining(options);
      const losses = training.step(STEPS);
      // Tolerance: none. Every sum in training runs in an order fixed by the core's own loops,
      // exp and tanh are computed from + - * / alone, and fused multiply-adds are off in both
      // builds (src/ordered_math.hpp), so -march=native and wasm perform the same float32
      // operations, and the losses agree to the bit. attn_train prints each loss with 9
      // significant digits, which give back the float32 exactly.
      let worst = 0;
      let first = -1;
      for (let i = 0; i < STEPS; i++) {
        const difference = Math.abs(losses[i] - Math.fround(native.losses[i]));
        if (difference > 0 && first < 0) first = i;
        worst = Math.max(worst, difference);
      }
      assert.equal(
        first,
        -1,
        `step ${first + 1}: wasm ${losses[first]}, native ${native.losses[first]} ` +
          `(largest difference ${worst})`,
      );
      // Learning happened (not two curves that agree by standing still).
      assert.ok(losses[STEPS - 1] < losses[0], `loss from ${losses[0]} to ${losses[STEPS - 1]}`);

      // The held-out accuracies after training: native prints them with 6 significant digits.
      const { lengths, sequenceAccuracy, symbolAccuracy } = native.evaluation;
      const wasm = training.evaluate(lengths, 200);
      assert.deepEqual(wasm.lengths, lengths);
      for (let i = 0; i < lengths.length; i++) {
        assert.ok(
          Math.abs(wasm.sequenceAccuracy[i] - sequenceAccuracy[i]) < 1e-6,
          `length ${lengths[i]}`,
        );
        assert.ok(
          Math.abs(wasm.symbolAccuracy[i] - symbolAccuracy[i]) < 1e-6,
          `length ${lengths[i]}`,
        );
      }
      training.dispose();
    });
  }
});

describe('results', () => {
  test('step, steps, evaluate and attentionMap return what the types describe', () => {
    const training = engine.createTraining({ vocab: 6, seed: 3 });
    assert.equal(training.steps, 0);
    const losses = training.step(3);
    assert.ok(losses instanceof Float32Array);
    assert.equal(losses.length, 3);
    assert.equal(training.step().length, 1);
    assert.equal(training.steps, 4);
    assert.equal(training.options.dK, 32, 'dK 0 stands for dModel');

    const result = training.evaluate([2, 7, 20], 50);
    assert.deepEqual(result.lengths, [2, 7, 20]);
    for (const name of /** @type {const} */ (['sequenceAccuracy', 'symbolAccuracy'])) {
      assert.ok(result[name] instanceof Float32Array);
      assert.equal(result[name].length, 3);
      for (const share of result[name]) assert.ok(share >= 0 && share <= 1, `${name} ${share}`);
    }
    for (let i = 0; i < 3; i++) assert.ok(result.sequenceAccuracy[i] <= result.symbolAccuracy[i]);
    // The held-out set is the same every call.
    assert.deepEqual(training.evaluate([7], 50).symbolAccuracy[0], result.symbolAccuracy[1]);

    const map = training.attentionMap(6);
    assert.equal(map.length, 6);
    assert.equal(map.input.length, 6);
    assert.deepEqual(map.target, [...map.input].reverse());
    for (const symbol of [...map.input, ...map.output]) assert.ok(symbol >= 1 && symbol <= 6);
    assert.ok(map.weights instanceof Float32Array);
    assert.equal(map.weights.length, 36);
    for (let t = 0; t < 6; t++) {
      const row = map.weights.subarray(t * 6, t * 6 + 6);
      assert.ok(Math.abs(row.reduce((a, b) => a + b, 0) - 1) < 1e-5, `row ${t} sums to 1`);
    }
    training.dispose();
  });

  test('after 400 steps each output step looks at the input position it copies', () => {
    const training = engine.createTraining();
    training.step(400);
    for (const length of [4, 9, 12]) {
      const map = training.attentionMap(length);
      for (let t = 0; t < length; t++) {
        const row = Array.from(map.weights.subarray(t * length, (t + 1) * length));
        assert.equal(row.indexOf(Math.max(...row)), length - 1 - t, `length ${length}, step ${t}`);
      }
      assert.deepEqual(map.output, map.target, `length ${length}`);
    }
    training.dispose();
  });
});

test('the createTraining example in docs/engine-api.md runs and prints what it says', () => {
  const doc = readFileSync(join(ROOT, 'docs', 'engine-api.md'), 'utf8');
  const section = doc.slice(doc.indexOf('### createTraining'));
  const example = /```js\n([\s\S]*?)```/.exec(section);
  assert.ok(example, 'the createTraining section has a js code block');
  // Inside the repository, so that the package can import itself by name.
  mkdirSync(join(ROOT, 'build'), { recursive: true });
  const file = join(ROOT, 'build', 'docs-training-example.mjs');
  writeFileSync(file, example[1]);
  const printed = execFileSync(process.execPath, [file], { encoding: 'utf8' });
  const [first, last] = printed.split('\n')[0].split(' ').map(Number);
  assert.ok(Math.abs(first - Math.log(8)) < 0.3 && last < 0.01, printed);
  const accuracies = /Float32Array\(3\) \[([^\]]*)\]/.exec(printed)[1].split(',').map(Number);
  for (const a of accuracies) assert.ok(a > 0.9, printed);
  const [input, output] = [...printed.matchAll(/\[ ([\d, ]+) \]/g)].map((m) =>
    m[1].split(',').map(Number),
  );
  assert.deepEqual(output, [...input].reverse(), printed);
});

describe('errors', () => {
  const BAD_OPTIONS = [
    [null, 'training: options must be an object'],
    [{ model: 'rnn' }, `training: model must be 'fixed' or 'attention', got "rnn"`],
    [{ scoring: 'general' }, `scoring must be 'additive', 'dot' or 'scaled_dot', got "general"`],
    [{ dModel: 1 }, 'training: dModel must be a whole number from 2 to 256, got 1'],
    [{ dModel: 32.5 }, 'dModel must be a whole number from 2 to 256, got 32.5'],
    [{ dModel: '32' }, 'dModel must be a whole number from 2 to 256, got "32"'],
    [{ dK: 1025 }, 'dK (0 = dModel) must be a whole number from 1 to 1024, got 1025'],
    [{ vocab: 65 }, 'vocab must be a whole number from 2 to 64, got 65'],
    [{ minLength: 0 }, 'minLength must be a whole number from 1 to 32, got 0'],
    [{ maxLength: 33 }, 'maxLength must be a whole number from 2 to 32, got 33'],
    [{ minLength: 6, maxLength: 4 }, 'maxLength must be a whole number from 6 to 32, got 4'],
    [{ batch: 0 }, 'batch must be a whole number from 1 to 512, got 0'],
    [{ learningRate: 0 }, 'learningRate must be a number > 0 and <= 1, got 0'],
    [{ learningRate: NaN }, 'learningRate must be a number > 0 and <= 1, got NaN'],
    [{ clip: -1 }, 'clip must be a number from 0 (no clipping) to 1000, got -1'],
    [{ seed: -1 }, 'seed must be a whole number from 0 to 4294967295, got -1'],
    [{ dmodel: 32 }, "training: unknown option 'dmodel'; the options are model, scoring, dModel"],
  ];
  for (const [options, message] of BAD_OPTIONS) {
    test(`createTraining(${JSON.stringify(options)}) throws "${message}"`, () => {
      assert.throws(() => engine.createTraining(/** @type {any} */ (options)), {
        message: new RegExp(message.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')),
      });
    });
  }

  test('bad calls name the argument, and the training goes on afterwards', () => {
    const training = engine.createTraining({ model: 'fixed' });
    const calls = [
      [() => training.step(0), 'training: step: n must be a whole number from 1 to 100000, got 0'],
      [() => training.step(2.5), 'n must be a whole number from 1 to 100000, got 2.5'],
      [() => training.evaluate([], 10), 'training: evaluate: lengths must list 1 to 32 lengths'],
      [() => training.evaluate([3, 40], 10), 'lengths[1] must be a whole number from 1 to 32'],
      [() => training.evaluate('3'), 'lengths must be an array of whole numbers'],
      [() => training.evaluate([3], 0), 'samples must be a whole number from 1 to 10000, got 0'],
      [() => training.attentionMap(33), 'length must be a whole number from 1 to 32, got 33'],
      [() => training.attentionMap(5), 'the fixed-vector model has no cross-attention'],
    ];
    for (const [call, message] of /** @type {[() => unknown, string][]} */ (calls)) {
      assert.throws(call, (error) => error instanceof Error && error.message.includes(message));
    }
    assert.equal(training.step(2).length, 2);
    assert.equal(training.steps, 2);
    training.dispose();
  });

  test('the core accepts both ends of every range the facade allows', () => {
    // The facade's limits repeat the core's: at each end the core builds the trainer, one past it
    // the facade refuses with the camelCase name (a refusal by the core would say d_model).
    /** @type {[object, object, string][]} inside the range, outside it, the option named */
    const ends = [];
    for (const name of ['dModel', 'dK', 'vocab', 'batch']) {
      const [low, high] = TRAINING_LIMITS[name];
      const below = name === 'dK' ? -1 : low - 1; // dK = 0 is allowed: it stands for dModel
      ends.push([{ [name]: low }, { [name]: below }, name]);
      ends.push([{ [name]: high }, { [name]: high + 1 }, name]);
    }
    ends.push(
      [{ minLength: 1, maxLength: 1 }, { minLength: 0, maxLength: 1 }, 'minLength'],
      [{ minLength: 32, maxLength: 32 }, { minLength: 32, maxLength: 33 }, 'maxLength'],
      [{ learningRate: 1 }, { learningRate: 1.01 }, 'learningRate'],
      [{ clip: 0 }, { clip: -0.01 }, 'clip'],
      [{ clip: 1000 }, { clip: 1000.5 }, 'clip'],
      [{ seed: 0 }, { seed: -1 }, 'seed'],
      [{ seed: 4294967295 }, { seed: 4294967296 }, 'seed'],
    );
    for (const [inside, outside, name] of ends) {
      engine.createTraining(inside).dispose();
      assert.throws(
        () => engine.createTraining(outside),
        (error) => error instanceof Error && error.message.startsWith(`training: ${name} `),
        `${JSON.stringify(outside)} is refused by the facade`,
      );
    }
  });

  test('dispose frees the trainer; later calls throw and a second dispose is harmless', () => {
    const training = engine.createTraining();
    training.step(1);
    training.dispose();
    for (const call of [
      () => training.step(1),
      () => training.evaluate([3]),
      () => training.attentionMap(3),
      () => training.steps,
    ]) {
      assert.throws(call, /training: \w+ after dispose\(\); create a new training/);
    }
    training.dispose();
    // A trainer with dModel 256 and dK 1024 holds about 10 MB (weights, gradients and Adam's two
    // moments); 300 of them would overflow wasm's 2 GB unless dispose() frees each.
    for (let i = 0; i < 300; i++) engine.createTraining({ dModel: 256, dK: 1024 }).dispose();
    assert.equal(engine.createTraining().step(1).length, 1);
  });
});
