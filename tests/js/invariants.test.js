// Properties that hold for any input, checked on the real engine with seeded random inputs made by
// the engine itself (unitNormal, glorotUniform), so every run sees the same numbers.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { loadEngine } from 'attention-lab';

import {
  FLOAT32_TOLERANCE,
  assertAllFinite,
  assertClose,
  permuteRows,
  randomQkv,
  rowSums,
  seededPermutation,
} from './helpers.js';

const engine = await loadEngine();

/** A row sum of float32 weights is 1 up to a few roundings per term. */
const SUM_TOLERANCE = 1e-5;

/**
 * Random multi-head weights with biases, d x d each, from distinct seeds.
 * @param {number} d
 * @param {number} seed
 */
function randomMultiHeadWeights(d, seed) {
  return {
    wq: engine.glorotUniform(d, d, seed),
    wk: engine.glorotUniform(d, d, seed + 1),
    wv: engine.glorotUniform(d, d, seed + 2),
    wo: engine.glorotUniform(d, d, seed + 3),
    bq: engine.unitNormal(1, d, seed + 4),
    bk: engine.unitNormal(1, d, seed + 5),
    bv: engine.unitNormal(1, d, seed + 6),
    bo: engine.unitNormal(1, d, seed + 7),
  };
}

/**
 * Asserts every row of a row-major matrix sums to 1.
 * @param {ArrayLike<number>} weights
 * @param {number} rows
 * @param {number} cols
 * @param {string} what
 */
function assertRowsSumToOne(weights, rows, cols, what) {
  rowSums(weights, rows, cols).forEach((sum, i) => {
    assert.ok(Math.abs(sum - 1) <= SUM_TOLERANCE, `${what}: row ${i} sums to ${sum}`);
  });
}

describe('attention weights', () => {
  const settings = [
    { nq: 4, nk: 7, dk: 8, dv: 3 },
    { nq: 6, nk: 6, dk: 16, dv: 5, causal: true },
    { nq: 5, nk: 9, dk: 4, dv: 4, keyPadding: [0, 1, 0, 0, 1, 1, 0, 0, 1] },
    { nq: 6, nk: 6, dk: 8, dv: 2, causal: true, keyPadding: [0, 0, 1, 0, 1, 1] },
    { nq: 3, nk: 12, dk: 32, dv: 8, scale: false, temperature: 0.3 },
    { nq: 8, nk: 8, dk: 5, dv: 5, temperature: 4 },
  ];

  test('every row of the attention weights sums to 1', () => {
    settings.forEach((options, n) => {
      const { nq, nk, dk, dv, ...rest } = options;
      for (let seed = 10; seed < 15; seed++) {
        const { weights } = engine.attention({
          ...randomQkv(engine, { nq, nk, dk, dv }, seed * 7),
          ...rest,
        });
        assertRowsSumToOne(weights, nq, nk, `setting ${n}, seed ${seed}`);
      }
    });
  });

  test('causally masked weights are exactly 0 and their masked scores are -Infinity', () => {
    const n = 7;
    const { weights, masked } = engine.attention({
      ...randomQkv(engine, { nq: n, nk: n, dk: 6, dv: 3 }, 40),
      causal: true,
    });
    let hidden = 0;
    for (let i = 0; i < n; i++) {
      for (let j = i + 1; j < n; j++) {
        assert.ok(
          weights[i * n + j] === 0,
          `weight of query ${i} on future key ${j} is ${weights[i * n + j]}`,
        );
        assert.equal(masked[i * n + j], -Infinity, `masked score of query ${i} on key ${j}`);
        hidden++;
      }
      assert.ok(weights[i * n + i] > 0, `query ${i} attends to itself`);
    }
    assert.equal(hidden, (n * (n - 1)) / 2);
  });

  test('weights on padded keys are exactly 0 for every query', () => {
    const padding = [false, true, false, true, true, false];
    const nq = 4;
    const nk = padding.length;
    const { weights } = engine.attention({
      ...randomQkv(engine, { nq, nk, dk: 4, dv: 2 }, 50),
      keyPadding: padding,
    });
    for (let i = 0; i < nq; i++) {
      for (let j = 0; j < nk; j++) {
        const w = weights[i * nk + j];
        if (padding[j]) assert.ok(w === 0, `weight of query ${i} on padded key ${j} is ${w}`);
        else assert.ok(w > 0, `weight of query ${i} on visible key ${j} is ${w}`);
      }
    }
  });

  test('multi-head weights are exactly 0 on causally masked and padded keys in every head', () => {
    const d = 8;
    const n = 6;
    const padding = Uint8Array.from([0, 0, 1, 0, 0, 1]);
    const x = engine.unitNormal(n, d, 60);
    const result = engine.multiHeadAttention({
      xq: x,
      xkv: x,
      nq: n,
      nk: n,
      dModel: d,
      heads: 4,
      ...randomMultiHeadWeights(d, 61),
      causal: true,
      keyPadding: padding,
    });
    result.heads.forEach(({ weights }, h) => {
      for (let i = 0; i < n; i++) {
        for (let j = 0; j < n; j++) {
          const w = weights[i * n + j];
          if (j > i || padding[j]) assert.ok(w === 0, `head ${h}: weight [${i}, ${j}] is ${w}`);
        }
      }
      assertRowsSumToOne(weights, n, n, `head ${h}`);
    });
  });

  test('scale=false leaves the scores alone and scale=true divides them by exactly sqrt(dk)', () => {
    // For dk = 4, 16, 64 the factor sqrt(dk) is a power of two, so float32 division is exact and
    // the two traces must agree bit for bit; for other dk they agree up to float32 rounding.
    for (const dk of [1, 3, 4, 10, 16, 33, 64]) {
      const inputs = randomQkv(engine, { nq: 3, nk: 5, dk, dv: 2 }, 70 + dk);
      const on = engine.attention({ ...inputs, scale: true });
      const off = engine.attention({ ...inputs, scale: false });
      assert.deepEqual(on.scores, off.scores, `dk = ${dk}: scores do not depend on scale`);
      assert.deepEqual(off.scaled, off.scores, `dk = ${dk}: unscaled 'scaled' equals the scores`);
      const root = Math.sqrt(dk);
      const exact = Number.isInteger(Math.log2(root));
      on.scaled.forEach((s, i) => {
        const want = off.scaled[i] / root;
        if (exact) assert.equal(s, want, `dk = ${dk}: scaled[${i}]`);
        else {
          assert.ok(
            Math.abs(s - want) <= 2 ** -21 * Math.abs(want),
            `dk = ${dk}: scaled[${i}] is ${s}, scores / sqrt(dk) is ${want}`,
          );
        }
      });
    }
  });

  test('extreme scores (about 1e4 apart) give finite weights that sum to 1', () => {
    const nq = 4;
    const nk = 6;
    const dk = 8;
    const big = (m, factor) => m.map((x) => x * factor);
    const inputs = randomQkv(engine, { nq, nk, dk, dv: 3 }, 80);
    for (const [factor, temperature] of [
      [60, 1],
      [60, 0.05],
      [1, 1e-3],
    ]) {
      const trace = engine.attention({
        ...inputs,
        q: big(inputs.q, factor),
        k: big(inputs.k, factor),
        scale: false,
        temperature,
      });
      assertAllFinite(trace.weights, `weights (factor ${factor}, temperature ${temperature})`);
      assertAllFinite(trace.output, `output (factor ${factor}, temperature ${temperature})`);
      assertRowsSumToOne(trace.weights, nq, nk, `factor ${factor}, temperature ${temperature}`);
    }
  });
});

describe('softmax', () => {
  test('adding a constant to every entry of a row changes no softmax weight', () => {
    const rows = 5;
    const cols = 8;
    // Logits on a 1/256 grid and integer shifts keep x + c exact in float32, so any difference
    // comes from softmax itself.
    const x = engine.unitNormal(rows, cols, 90).map((v) => Math.round(v * 256) / 256);
    x[3] = -Infinity; // a masked entry stays masked after any shift
    for (const temperature of [1, 0.5, 3]) {
      const base = engine.softmax(x, rows, cols, { temperature });
      for (const shifts of [
        [5, -5, 100, -100, 0],
        [1000, 3, -700, 12, -1],
      ]) {
        const shifted = x.map((v, idx) => v + shifts[Math.floor(idx / cols)]);
        const weights = engine.softmax(shifted, rows, cols, { temperature });
        assertClose(weights, base, `temperature ${temperature}, shifts ${shifts}`);
        assert.ok(weights[3] === 0, 'the -Infinity entry keeps weight exactly 0');
      }
    }
  });

  test('extreme logits (1e4, -1e4 and mixed) give no NaN and rows that sum to 1', () => {
    const rows = [
      [1e4, -1e4, 0, 1],
      [1e4, 1e4, 1e4, 1e4],
      [-1e4, -1e4, -1e4, -1e4],
      [-1e4, 1e4, -1e4, 9999],
      [1e4, -Infinity, -1e4, -1e4],
    ];
    const cols = rows[0].length;
    for (const temperature of [1, 1e-3, 100]) {
      const weights = engine.softmax(rows.flat(), rows.length, cols, { temperature });
      assertAllFinite(weights, `temperature ${temperature}`);
      assertRowsSumToOne(weights, rows.length, cols, `temperature ${temperature}`);
      rows.forEach((row, i) => {
        const max = Math.max(...row);
        row.forEach((logit, j) => {
          const w = weights[i * cols + j];
          // exp(-200) is far below the smallest float32, so such a weight must be exactly 0.
          if ((max - logit) / temperature >= 200) {
            assert.ok(w === 0, `row ${i}: weight ${j} underflows, got ${w}`);
          }
        });
      });
    }
  });
});

describe('permutation equivariance of self-attention', () => {
  const n = 7;
  const d = 8;
  const perm = seededPermutation(n, 2024);

  test('permuting the tokens of single-head self-attention (Q = K = V = X) permutes the output', () => {
    assert.notDeepEqual(
      perm,
      perm.map((_, i) => i),
      'the permutation moves tokens',
    );
    const x = engine.unitNormal(n, d, 100);
    const px = permuteRows(x, perm, d);
    const sizes = { nq: n, nk: n, dk: d, dv: d };
    const plain = engine.attention({ q: x, k: x, v: x, ...sizes });
    const permuted = engine.attention({ q: px, k: px, v: px, ...sizes });
    assertClose(permuted.output, permuteRows(plain.output, perm, d), 'output rows');
    // weights[i][j] follow both the query and the key permutation.
    const moved = new Float32Array(n * n);
    for (let i = 0; i < n; i++) {
      for (let j = 0; j < n; j++) moved[i * n + j] = plain.weights[perm[i] * n + perm[j]];
    }
    assertClose(permuted.weights, moved, 'weights');
  });

  test('permuting the tokens of multi-head self-attention permutes the output rows', () => {
    const x = engine.unitNormal(n, d, 110);
    const px = permuteRows(x, perm, d);
    const weights = randomMultiHeadWeights(d, 111);
    const run = (tokens) =>
      engine.multiHeadAttention({
        xq: tokens,
        xkv: tokens,
        nq: n,
        nk: n,
        dModel: d,
        heads: 2,
        ...weights,
      });
    const plain = run(x);
    const permuted = run(px);
    assertClose(
      permuted.output,
      permuteRows(plain.output, perm, d),
      'output rows',
      FLOAT32_TOLERANCE,
    );
    plain.heads.forEach((head, h) => {
      assertClose(
        permuted.heads[h].output,
        permuteRows(head.output, perm, d / 2),
        `head ${h} output`,
      );
    });
  });
});

describe('positional encoding', () => {
  test('every value lies in [-1, 1], PE(0, 2i) = 0 and PE(0, 2i + 1) = 1', () => {
    for (const [n, d] of [
      [1, 1],
      [5, 4],
      [9, 7],
      [64, 16],
      [200, 33],
    ]) {
      const pe = engine.positionalEncoding(n, d);
      assert.equal(pe.length, n * d, `n = ${n}, d = ${d}: length`);
      pe.forEach((value, idx) => {
        assert.ok(value >= -1 && value <= 1, `n = ${n}, d = ${d}: entry ${idx} is ${value}`);
      });
      for (let col = 0; col < d; col++) {
        assert.equal(pe[col], col % 2 === 0 ? 0 : 1, `n = ${n}, d = ${d}: PE(0, ${col})`);
      }
    }
  });

  test('different positions get different encodings', () => {
    const n = 50;
    const d = 8;
    const pe = engine.positionalEncoding(n, d);
    const seen = new Set();
    for (let pos = 0; pos < n; pos++)
      seen.add(Array.from(pe.subarray(pos * d, (pos + 1) * d)).join());
    assert.equal(seen.size, n);
  });
});

describe('scaling experiment', () => {
  const dks = [1, 4, 16, 64, 256];
  const results = dks.map((dk) => engine.scalingExperiment({ dk, samples: 4000, seed: 7 }));

  test('unscaled q.k has variance about dk and scaled q.k variance about 1', () => {
    results.forEach(({ dk, unscaled, scaled }, n) => {
      assert.equal(dk, dks[n]);
      assert.equal(unscaled.samples.length, 4000);
      assert.equal(scaled.samples.length, 4000);
      const ratio = unscaled.variance / dk;
      assert.ok(Math.abs(ratio - 1) < 0.15, `dk = ${dk}: unscaled variance ${unscaled.variance}`);
      assert.ok(
        Math.abs(scaled.variance - 1) < 0.15,
        `dk = ${dk}: scaled variance ${scaled.variance}`,
      );
      assert.ok(Math.abs(scaled.mean) < 0.1, `dk = ${dk}: scaled mean ${scaled.mean}`);
    });
  });

  test('the reported variance is the variance of the returned samples', () => {
    for (const { dk, unscaled, scaled } of results) {
      for (const [side, s] of [
        ['unscaled', unscaled],
        ['scaled', scaled],
      ]) {
        const mean = s.samples.reduce((a, b) => a + b, 0) / s.samples.length;
        const variance = s.samples.reduce((a, b) => a + (b - mean) ** 2, 0) / s.samples.length;
        assert.ok(
          Math.abs(mean - s.mean) <= 1e-4 * Math.sqrt(dk) + 1e-4,
          `dk = ${dk}: ${side} mean`,
        );
        assert.ok(
          Math.abs(variance - s.variance) <= 0.01 * s.variance,
          `dk = ${dk}: ${side} variance ${s.variance}, samples give ${variance}`,
        );
      }
    }
  });

  test('without scaling, growing dk sharpens softmax: max weight grows, entropy and gradient shrink', () => {
    for (let n = 1; n < results.length; n++) {
      const [before, after] = [results[n - 1].unscaled, results[n].unscaled];
      const dk = `dk ${dks[n - 1]} -> ${dks[n]}`;
      assert.ok(
        after.maxWeight > before.maxWeight,
        `${dk}: maxWeight ${before.maxWeight} -> ${after.maxWeight}`,
      );
      assert.ok(
        after.entropy < before.entropy,
        `${dk}: entropy ${before.entropy} -> ${after.entropy}`,
      );
      if (dks[n - 1] >= 4) {
        assert.ok(
          after.gradientNorm < before.gradientNorm,
          `${dk}: gradientNorm ${before.gradientNorm} -> ${after.gradientNorm}`,
        );
      }
    }
  });

  test('with scaling, softmax keeps about the same sharpness at every dk', () => {
    const entropies = results.map((r) => r.scaled.entropy);
    const spread = Math.max(...entropies) - Math.min(...entropies);
    assert.ok(spread < 0.25, `scaled entropies ${entropies.join(', ')} differ by ${spread} nats`);
    const { scaled, unscaled } = results.at(-1);
    assert.ok(
      scaled.gradientNorm > 2 * unscaled.gradientNorm,
      `at dk = 256 scaling keeps gradients alive: ${scaled.gradientNorm} vs ${unscaled.gradientNorm}`,
    );
  });

  test('every statistic stays finite when unscaled softmax saturates at large dk', () => {
    for (const [dk, seed] of [
      [256, 99],
      [1024, 1],
      [4096, 3],
    ]) {
      const result = engine.scalingExperiment({ dk, samples: 4000, seed });
      for (const side of ['unscaled', 'scaled']) {
        for (const key of ['mean', 'variance', 'maxWeight', 'entropy', 'gradientNorm']) {
          const value = result[side][key];
          assert.ok(Number.isFinite(value), `dk = ${dk}, seed ${seed}: ${side}.${key} is ${value}`);
        }
        assertAllFinite(result[side].samples, `dk = ${dk}, seed ${seed}: ${side}.samples`);
      }
    }
  });
});
