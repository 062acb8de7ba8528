// The cost panel's pure parts: the median, the least-squares slope of log(time) on log(n), the n²
// guide and the words for a slope; and the measuring loop, first with a made-up engine whose calls
// take a known time on a made-up clock (so every number is known exactly), then with the real
// engine, where only the shape of the result can be checked (timing is not deterministic).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { loadEngine } from 'attention-lab';

import {
  fitSlope,
  growthWords,
  logLogSlope,
  median,
  powerGuide,
} from '../../web/src/widgets/self-attention-pair/cost-math.js';
import {
  FIT_FROM,
  REPEATS,
  RUN_MS,
  SIZES,
  WIDTH,
  kernelInput,
  measureLater,
  timeRun,
} from '../../web/src/widgets/self-attention-pair/cost-timing.js';

const engine = await loadEngine();

/** Sums of a few logarithms in double precision: far below anything a slope is read to. */
const CLOSE = 1e-12;

/**
 * @param {number} actual
 * @param {number} expected
 * @param {string} [what]
 * @param {number} [tolerance] relative
 */
function assertNear(actual, expected, what, tolerance = CLOSE) {
  assert.ok(
    Math.abs(actual - expected) <= tolerance * Math.max(1, Math.abs(expected)),
    `${what ?? 'value'}: ${actual} is not ${expected}`,
  );
}

describe('median', () => {
  test('it is the middle value of an odd count, the mean of the middle two of an even one', () => {
    assert.equal(median([5, 1, 3]), 3);
    assert.equal(median([4, 1, 3, 2]), 2.5);
    assert.equal(median([7]), 7);
  });

  test('one wild run does not move it, and the runs are left in their order', () => {
    const runs = [2, 2.1, 1.9, 2, 90];
    assert.equal(median(runs), 2);
    assert.deepEqual(runs, [2, 2.1, 1.9, 2, 90]);
  });

  test('no runs is an error', () => {
    assert.throws(() => median([]), /no values/);
  });
});

describe('the slope of log(time) on log(n)', () => {
  const n = [128, 256, 512, 1024];

  test('an exact power law gives its power, whatever its constant', () => {
    for (const power of [0.5, 1, 2, 3]) {
      for (const c of [1e-6, 3, 250]) {
        const t = n.map((x) => c * x ** power);
        assertNear(logLogSlope(n, t), power, `c n^${power}`);
      }
    }
  });

  test('it is the least-squares fit: equal and opposite errors at the ends cancel', () => {
    // log t = 2 log n, with the first point raised and the last lowered by the same factor: the
    // centre of the points is unchanged and the slope drops by a known amount.
    const lx = n.map(Math.log);
    const mean = lx.reduce((s, v) => s + v, 0) / lx.length;
    const e = 0.1;
    const t = n.map((x, i) => x ** 2 * Math.exp(i === 0 ? e : i === n.length - 1 ? -e : 0));
    const sxx = lx.reduce((s, v) => s + (v - mean) ** 2, 0);
    const expected = 2 + (e * (lx[0] - mean) - e * (lx[3] - mean)) / sxx;
    assertNear(logLogSlope(n, t), expected, 'perturbed fit');
    assert.ok(logLogSlope(n, t) < 2);
  });

  test('it refuses what has no slope', () => {
    assert.throws(() => logLogSlope([128], [1]), /at least two points/);
    assert.throws(() => logLogSlope([128, 256], [1]), /2 x values for 1 y values/);
    assert.throws(() => logLogSlope([128, 256], [1, 0]), /positive/);
    assert.throws(() => logLogSlope([128, 256], [1, Infinity]), /positive/);
    assert.throws(() => logLogSlope([128, 128], [1, 2]), /all the same/);
  });

  test('the fit uses only the lengths from FIT_FROM up, where a fixed cost per call fades', () => {
    // A fixed cost per call plus n² work: over every length the slope is flattened by the
    // fixed cost; from 128 up it is much closer to 2.
    const t = SIZES.map((x) => 0.2 + 1e-5 * x ** 2);
    const all = logLogSlope(SIZES, t);
    const fit = fitSlope(SIZES, t, FIT_FROM);
    assert.deepEqual(fit.sizes, [128, 256, 512, 1024]);
    assertNear(fit.slope, logLogSlope(fit.sizes, t.slice(2)), 'fit over the large lengths');
    assert.ok(all < fit.slope && fit.slope < 2, `${all} < ${fit.slope} < 2`);
  });

  test('with fewer than two lengths to fit there is no slope yet', () => {
    assert.equal(fitSlope([32, 64, 128], [1, 2, 3], 128), null);
    assert.equal(fitSlope([], [], 128), null);
  });
});

describe('the guide and the words', () => {
  test('the n² guide passes through the last point and quadruples per doubling', () => {
    const guide = powerGuide([32, 64, 128], [0.1, 0.2, 0.8], 2);
    assert.equal(guide[2], 0.8);
    assertNear(guide[1], 0.2);
    assertNear(guide[0], 0.05);
  });

  test('a slope near a whole number is read as that power, else as itself', () => {
    assert.deepEqual(growthWords(1.94), { slope: '1.9', power: '2', doubling: '3.8' });
    assert.deepEqual(growthWords(2.2), { slope: '2.2', power: '2', doubling: '4.6' });
    assert.deepEqual(growthWords(1.6), { slope: '1.6', power: '1.6', doubling: '3.0' });
    assert.deepEqual(growthWords(1.02), { slope: '1.0', power: '1', doubling: '2.0' });
  });
});

/**
 * A made-up engine whose attention call at length n takes `perCall(n)` ms on a made-up clock.
 * @param {(n: number) => number} perCall
 */
function fakeEngine(perCall) {
  const clock = { now: 0 };
  const calls = [];
  return {
    clock,
    calls,
    unitNormal: (rows, cols, seed) => new Float32Array(rows * cols).fill(seed),
    attention(input) {
      calls.push(input.nq);
      clock.now += perCall(input.nq);
      return { weights: new Float32Array(0), output: new Float32Array(0) };
    },
  };
}

/**
 * Runs measureLater to the end with a queue of deferred tasks run one by one.
 * @param {object} fake an engine
 * @param {() => number} clock
 */
function runQueued(fake, clock) {
  const queue = [];
  const seen = { lengths: [], runs: [], done: 0, failed: [], tasks: 0 };
  measureLater(fake, {
    onLength: (n, runs) => {
      seen.lengths.push(n);
      seen.runs.push(runs);
    },
    done: () => seen.done++,
    fail: (error) => seen.failed.push(error),
    clock,
    defer: (task) => queue.push(task),
    cancel: () => {},
  });
  while (queue.length > 0) {
    seen.tasks++;
    queue.shift()();
  }
  return seen;
}

describe('measuring', () => {
  test('every length gets REPEATS runs, each the exact time per call, one run per task', () => {
    const cost = (n) => 1e-5 * n * n;
    const fake = fakeEngine(cost);
    const seen = runQueued(fake, () => fake.clock.now);
    assert.deepEqual(seen.lengths, SIZES);
    assert.equal(seen.done, 1);
    assert.deepEqual(seen.failed, []);
    seen.runs.forEach((runs, i) => {
      assert.equal(runs.length, REPEATS);
      for (const ms of runs) assertNear(ms, cost(SIZES[i]), `n = ${SIZES[i]}`, 1e-9);
    });
    // One task makes the inputs and an untimed run; then one task per timed run.
    assert.equal(seen.tasks, SIZES.length * (REPEATS + 1));
    const medians = seen.runs.map(median);
    assertNear(fitSlope(SIZES, medians, FIT_FROM).slope, 2, 'slope of n² work', 1e-9);
  });

  test('a run repeats a short call until RUN_MS have passed, and stops soon after', () => {
    const fake = fakeEngine(() => 0.3);
    const ms = timeRun(fake, kernelInput(fake, 32), () => fake.clock.now);
    assertNear(ms, 0.3, 'per call', 1e-9);
    assert.equal(fake.calls.length, Math.ceil(RUN_MS / 0.3));
  });

  test('stop ends the measurement: no handler is called after it', () => {
    const fake = fakeEngine(() => 1);
    const queue = [];
    const cancelled = [];
    const calls = [];
    const stop = measureLater(fake, {
      onLength: () => calls.push('length'),
      done: () => calls.push('done'),
      fail: () => calls.push('fail'),
      clock: () => fake.clock.now,
      defer: (task) => queue.push(task) - 1,
      cancel: (handle) => cancelled.push(handle),
    });
    for (let i = 0; i < REPEATS + 1; i++) queue.shift()();
    assert.deepEqual(calls, ['length'], 'the first length is done');
    stop();
    assert.equal(cancelled.length, 1, 'the pending task is cancelled');
    while (queue.length > 0) queue.shift()();
    assert.deepEqual(calls, ['length'], 'nothing after stop');
  });

  test('an engine error ends the measurement with fail, once', () => {
    const fake = fakeEngine(() => 1);
    fake.attention = () => {
      throw new Error('attention: broken');
    };
    const seen = runQueued(fake, () => 0);
    assert.equal(seen.failed.length, 1);
    assert.match(seen.failed[0].message, /broken/);
    assert.deepEqual(seen.lengths, []);
    assert.equal(seen.done, 0);
  });
});

describe('measuring the real engine', () => {
  test('the inputs are seeded unit normals of width 64, Q, K and V each their own', () => {
    const input = kernelInput(engine, 32);
    assert.equal(WIDTH, 64);
    assert.deepEqual(
      [input.nq, input.nk, input.dk, input.dv, input.trace],
      [32, 32, WIDTH, WIDTH, false],
    );
    assert.deepEqual(input.q, engine.unitNormal(32, WIDTH, 1));
    assert.deepEqual(input.k, engine.unitNormal(32, WIDTH, 2));
    assert.notDeepEqual(input.q, input.k);
  });

  test('every length gets positive times, and 1024 tokens take longer than 128', async () => {
    const seen = await new Promise((resolve, reject) => {
      const lengths = [];
      const times = [];
      measureLater(engine, {
        onLength: (n, runs) => {
          lengths.push(n);
          times.push(median(runs));
          assert.equal(runs.length, REPEATS);
          for (const ms of runs) assert.ok(ms > 0 && Number.isFinite(ms), `n = ${n}: ${ms} ms`);
        },
        done: () => resolve({ lengths, times }),
        fail: reject,
        defer: (task) => setImmediate(task),
        cancel: (handle) => clearImmediate(/** @type {any} */ (handle)),
      });
    });
    assert.deepEqual(seen.lengths, SIZES);
    const at = (n) => seen.times[SIZES.indexOf(n)];
    // 1024 tokens is 64 times the n² work of 128: no noise turns that around.
    assert.ok(at(1024) > at(128), `${at(1024)} ms at 1024, ${at(128)} ms at 128`);
    const { slope } = fitSlope(SIZES, seen.times, FIT_FROM);
    assert.ok(Number.isFinite(slope), `slope ${slope}`);
  });
});
