// The bottleneck experiment through the engine facade: attention reads back every stored fact
// while one fixed vector loses them as their number grows past its width; the numbers agree with
// an independent simulation written here; a seed gives the same numbers every time, in wasm and
// natively (build/native/attn_seeded), whichever counts are asked for together; bad options throw
// clear Errors.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';

import { loadEngine } from 'attention-lab';

import { ROOT } from './helpers.js';

const engine = await loadEngine();

const COUNTS = [1, 2, 4, 8, 16, 32, 64, 128, 256];
const WIDTHS = [32, 64, 128, 256];

/**
 * A small seeded generator (mulberry32) with normal samples by Box-Muller: the simulation below
 * draws its own facts, independently of the engine's generator.
 * @param {number} seed
 */
function generator(seed) {
  let state = seed >>> 0;
  const uniform = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
  const normal = () => Math.sqrt(-2 * Math.log(1 - uniform())) * Math.cos(2 * Math.PI * uniform());
  return { uniform, normal };
}

/**
 * The experiment as the engine's documentation states it, written plainly: n facts with +-1 keys
 * of width d and values from m codebook vectors of length sqrt(d); each read answered by the
 * codebook vector with the largest dot product.
 * @param {{ n: number, d: number, m: number, trials: number, seed: number }} settings
 * @returns {{ fixedVector: number, attention: number }} shares of right answers
 */
function simulate({ n, d, m, trials, seed }) {
  const rng = generator(seed);
  /** @type {(a: ArrayLike<number>, b: ArrayLike<number>) => number} */
  const dot = (a, b) => {
    let sum = 0;
    for (let k = 0; k < d; k++) sum += a[k] * b[k];
    return sum;
  };
  /** @type {(codebook: Float64Array[], x: Float64Array) => number} */
  const nearest = (codebook, x) => {
    const scores = codebook.map((c) => dot(c, x));
    return scores.indexOf(Math.max(...scores));
  };
  let fixed = 0;
  let attended = 0;
  for (let t = 0; t < trials; t++) {
    const codebook = Array.from({ length: m }, () => {
      const c = Float64Array.from({ length: d }, rng.normal);
      const length = Math.sqrt(dot(c, c));
      return c.map((x) => (x * Math.sqrt(d)) / length);
    });
    const keys = Array.from({ length: n }, () =>
      Float64Array.from({ length: d }, () => (rng.uniform() < 0.5 ? -1 : 1)),
    );
    const values = Array.from({ length: n }, () => codebook[Math.floor(rng.uniform() * m)]);
    const right = (/** @type {number} */ i, /** @type {Float64Array} */ read) =>
      codebook[nearest(codebook, read)] === values[i];
    // (a) one vector: memory = sum_j k_j * v_j, read k_i * memory.
    const memory = new Float64Array(d);
    keys.forEach((key, j) => key.forEach((s, k) => (memory[k] += s * values[j][k])));
    keys.forEach(
      (key, i) =>
        (fixed += right(
          i,
          key.map((s, k) => s * memory[k]),
        )
          ? 1
          : 0),
    );
    // (b) attention: softmax(k_i K^T / sqrt(d)) V.
    keys.forEach((query, i) => {
      const scores = keys.map((key) => dot(query, key) / Math.sqrt(d));
      const top = Math.max(...scores);
      const e = scores.map((s) => Math.exp(s - top));
      const total = e.reduce((a, b) => a + b, 0);
      const output = new Float64Array(d);
      e.forEach((w, j) => {
        for (let k = 0; k < d; k++) output[k] += (w / total) * values[j][k];
      });
      attended += right(i, output) ? 1 : 0;
    });
  }
  return { fixedVector: fixed / (n * trials), attention: attended / (n * trials) };
}

describe('bottleneck experiment', () => {
  const results = WIDTHS.map((width) => engine.bottleneckExperiment({ counts: COUNTS, width }));

  test('it returns one accuracy per count, for both ways of reading', () => {
    for (const result of results) {
      assert.deepEqual(result.counts, COUNTS);
      for (const key of /** @type {const} */ (['fixedVector', 'attention'])) {
        assert.ok(result[key] instanceof Float32Array, `${key} is a Float32Array`);
        assert.equal(result[key].length, COUNTS.length);
        for (const share of result[key]) assert.ok(share >= 0 && share <= 1, `${key} ${share}`);
      }
    }
  });

  test('attention reads back every fact, at every count and width', () => {
    results.forEach((result, w) => {
      result.attention.forEach((share, i) =>
        assert.ok(share >= 0.99, `width ${WIDTHS[w]}, N = ${COUNTS[i]}: attention ${share}`),
      );
    });
  });

  test('one fixed vector holds a few facts but loses most once N reaches its width', () => {
    results.forEach(({ fixedVector }, w) => {
      const d = WIDTHS[w];
      const at = (n) => fixedVector[COUNTS.indexOf(n)];
      assert.equal(at(1), 1, `width ${d}: one fact comes back whole`);
      assert.ok(at(d / 16) >= 0.9, `width ${d}: N = ${d / 16} gives ${at(d / 16)}`);
      assert.ok(at(d) < 0.5, `width ${d}: N = ${d} gives ${at(d)}`);
      // From N = d/16 on, every fourfold increase in N loses more.
      for (let n = d / 16; n * 4 <= 256; n *= 4) {
        assert.ok(at(4 * n) < at(n), `width ${d}: N = ${n} -> ${4 * n}: ${at(n)} -> ${at(4 * n)}`);
      }
    });
    // A wider vector holds more facts: at N = 64 the accuracy grows with the width.
    const at64 = results.map((r) => r.fixedVector[COUNTS.indexOf(64)]);
    for (let w = 1; w < WIDTHS.length; w++) assert.ok(at64[w] > at64[w - 1], at64.join(', '));
  });

  test('the engine agrees with an independent simulation of the same experiment', () => {
    // Over seeds, each of these shares spreads by about +-0.02 on either side (the reads of one
    // trial share a codebook, so they are not independent). The bounds leave room for that, while
    // a wrong binding, read-out or softmax scale moves a share by 0.1 or more: without the
    // 1/sqrt(d), attention at width 16 and N = 128 would read back nearly everything, not 90%.
    const cases = [
      { n: 16, d: 64, trials: 64, within: 0.08 },
      { n: 64, d: 64, trials: 16, within: 0.08 },
      // At width 16, attention itself starts to blur 128 keys.
      { n: 128, d: 16, trials: 32, within: 0.05 },
    ];
    for (const { n, d, trials, within } of cases) {
      const result = engine.bottleneckExperiment({ counts: [n], width: d, trials });
      const simulated = simulate({ n, d, m: 16, trials, seed: n * 1000 + d });
      for (const key of /** @type {const} */ (['fixedVector', 'attention'])) {
        const [share] = result[key];
        assert.ok(
          Math.abs(share - simulated[key]) < within,
          `N = ${n}, d = ${d}: ${key} ${share}, simulated ${simulated[key]}`,
        );
      }
    }
  });

  test('the same seed gives the same numbers, and another seed other facts', () => {
    const options = { counts: [4, 16, 64, 128], width: 32, seed: 7 };
    const a = engine.bottleneckExperiment(options);
    const b = engine.bottleneckExperiment(options);
    assert.deepEqual(a, b);
    const c = engine.bottleneckExperiment({ ...options, seed: 8 });
    assert.notDeepEqual(Array.from(c.fixedVector), Array.from(a.fixedVector));
  });

  test('a count gives the same numbers asked alone or with others, so work can be split', () => {
    const all = engine.bottleneckExperiment({ counts: COUNTS, width: 64, seed: 3 });
    COUNTS.forEach((n, i) => {
      const one = engine.bottleneckExperiment({ counts: Int32Array.of(n), width: 64, seed: 3 });
      assert.equal(one.fixedVector[0], all.fixedVector[i], `N = ${n}: fixed vector`);
      assert.equal(one.attention[0], all.attention[i], `N = ${n}: attention`);
    });
  });

  test('wasm gives bit for bit the numbers of the native build', () => {
    const tool = join(ROOT, 'build', 'native', 'attn_seeded');
    if (!existsSync(tool)) throw new Error(`${tool} is missing: run npm run build`);
    for (const [width, codebook, seed] of [
      [32, 16, 1],
      [64, 16, 4294967295],
      [128, 5, 0],
    ]) {
      const lines = execFileSync(
        tool,
        ['bottleneck', String(width), String(codebook), String(seed)],
        {
          encoding: 'utf8',
        },
      )
        .trim()
        .split('\n');
      const { fixedVector, attention } = engine.bottleneckExperiment({
        counts: COUNTS,
        width,
        codebook,
        seed,
      });
      const bits = (values) =>
        Array.from(new Uint32Array(values.buffer, values.byteOffset, values.length), (x) =>
          x.toString(16).padStart(8, '0'),
        );
      assert.deepEqual([...bits(fixedVector), ...bits(attention)], lines, `width ${width}`);
    }
  });
});

describe('bottleneck experiment errors', () => {
  const good = { counts: [1, 4], width: 16 };
  /** @type {[string, object, RegExp][]} */
  const cases = [
    ['no counts', { width: 16 }, /bottleneck experiment: counts must be an array/],
    ['counts that are not an array', { ...good, counts: 8 }, /counts must be an array/],
    ['an empty list of counts', { ...good, counts: [] }, /counts must list 1 to 64/],
    ['a count of 0', { ...good, counts: [0, 4] }, /counts\[0\] must be a whole number >= 1/],
    ['a fractional count', { ...good, counts: [1, 2.5] }, /counts\[1\] must be a whole number/],
    ['a count given as text', { ...good, counts: [1, '4'] }, /counts\[1\] must be a whole number/],
    ['counts out of order', { ...good, counts: [8, 2] }, /counts must increase.*counts\[1\] = 2/],
    ['a count too large', { ...good, counts: [5000] }, /counts\[0\] must be between 1 and 4096/],
    ['no width', { counts: [1] }, /width must be a whole number >= 1, got undefined/],
    ['a width too large', { ...good, width: 4096 }, /width must be between 1 and 1024/],
    ['a codebook of one entry', { ...good, codebook: 1 }, /codebook must be between 2 and 1024/],
    ['no trials', { ...good, trials: 0 }, /trials must be a whole number >= 1/],
    ['a negative seed', { ...good, seed: -1 }, /seed must be a whole number from 0/],
    ['too much work', { counts: [4096], width: 1024, trials: 100 }, /million operations/],
  ];
  test('no options at all throws an Error naming counts', () => {
    assert.throws(
      () => /** @type {any} */ (engine).bottleneckExperiment(),
      /bottleneck experiment: counts must be an array of whole numbers >= 1, got undefined/,
    );
  });

  for (const [what, options, message] of cases) {
    test(`${what} throws an Error saying so`, () => {
      assert.throws(
        () => engine.bottleneckExperiment(/** @type {any} */ (options)),
        (error) => error instanceof Error && message.test(error.message),
      );
    });
  }

  test('the engine keeps working after a failure', () => {
    const before = engine.bottleneckExperiment(good);
    assert.throws(() => engine.bottleneckExperiment({ ...good, counts: [3, 3] }));
    assert.deepEqual(engine.bottleneckExperiment(good), before);
  });
});
