// The chart views' pure parts: round ticks and domains, linear and log scales, bands, binning
// and number formatting, as the charts get them from d3 with the counts and rules of their own.
// The drawing itself is checked in the browser (tests/e2e/why-scale).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { binSamples, largestMagnitude, symmetricDomain } from '../../web/src/views/charts/bins.js';
import { formatNumber, formatPercent, formatTick } from '../../web/src/views/charts/format.js';
import { bands, linearScale, logScale, makeScale } from '../../web/src/views/charts/scale.js';
import {
  LINE_X_TICKS,
  decadeDomain,
  decadeTicks,
  linearTicks,
  niceDomain,
} from '../../web/src/views/charts/ticks.js';

/** @param {number[]} ticks @returns {number} the distance between neighbours */
const stepOf = (ticks) => ticks[1] - ticks[0];

describe('ticks', () => {
  test('a tick step is 1, 2 or 5 times a power of ten', () => {
    assert.equal(stepOf(linearTicks(0, 10, LINE_X_TICKS)), 2);
    assert.equal(stepOf(linearTicks(0, 1)), 0.5);
    assert.equal(stepOf(linearTicks(0, 113.3)), 50);
    assert.equal(stepOf(linearTicks(0, 0.07, LINE_X_TICKS)), 0.02);
  });

  test('linear ticks are the round multiples inside the range, without float noise', () => {
    assert.deepEqual(linearTicks(0, 1, LINE_X_TICKS), [0, 0.2, 0.4, 0.6, 0.8, 1]);
    assert.deepEqual(linearTicks(-40, 40), [-40, -20, 0, 20, 40]);
    assert.deepEqual(linearTicks(0.15, 0.95), [0.2, 0.4, 0.6, 0.8]);
    assert.deepEqual(linearTicks(0, 0.3, 3), [0, 0.1, 0.2, 0.3]);
    assert.deepEqual(linearTicks(5, 5), [5]);
  });

  test('the fixed ranges of the lesson’s charts get three or so labels', () => {
    assert.deepEqual(linearTicks(0, 1), [0, 0.5, 1], 'weights and scores');
    assert.deepEqual(linearTicks(0, 100), [0, 50, 100], 'accuracy in %');
    assert.deepEqual(linearTicks(0, 120), [0, 50, 100], 'the bottleneck’s % of chance');
  });

  test('a nice domain widens the range outwards to round numbers', () => {
    assert.deepEqual(niceDomain(0.19, 0.97), [0, 1]);
    assert.deepEqual(niceDomain(0.08, 2.47), [0, 3]);
    assert.deepEqual(niceDomain(-3.2, 7.9, LINE_X_TICKS), [-4, 8]);
    assert.deepEqual(niceDomain(2, 2), [1, 3]);
  });

  test('a nice domain starts and ends on a tick', () => {
    const domain = niceDomain(0.583, 0.758);
    assert.deepEqual(domain, [0.5, 0.8]);
    const ticks = linearTicks(...domain);
    assert.deepEqual([ticks[0], ticks.at(-1)], domain);
  });

  test('decade ticks are the powers of ten inside the range, ends included', () => {
    assert.deepEqual(decadeTicks(1, 1024), [1, 10, 100, 1000]);
    assert.deepEqual(decadeTicks(0.01, 1), [0.01, 0.1, 1]);
    assert.deepEqual(decadeTicks(2, 9), []);
  });

  test('a decade domain starts and ends on powers of ten, at least one decade apart', () => {
    assert.deepEqual(decadeDomain(0.043, 0.305), [0.01, 1]);
    assert.deepEqual(decadeDomain(1, 1024), [1, 10000]);
    assert.deepEqual(decadeDomain(0.1, 0.1), [0.1, 1]);
  });
});

describe('scales', () => {
  test('a linear scale maps the domain ends to the range ends, also reversed', () => {
    const y = linearScale([0, 1], [200, 10]);
    assert.equal(y(0), 200);
    assert.equal(y(1), 10);
    assert.equal(y(0.5), 105);
    assert.equal(linearScale([3, 3], [0, 100])(3), 50);
  });

  test('a log scale gives equal ratios equal distances', () => {
    const x = logScale([1, 1000], [0, 300]);
    assert.equal(x(1), 0);
    assert.ok(Math.abs(x(10) - 100) < 1e-9);
    assert.ok(Math.abs(x(1000) - 300) < 1e-9);
    assert.ok(Math.abs(x(4) - x(2) - (x(1024) - x(512))) < 1e-9);
    assert.throws(() => logScale([0, 10], [0, 1]), /domain must be positive/);
  });

  test('makeScale picks the log scale only when asked', () => {
    assert.equal(makeScale([0, 10], [0, 100])(5), 50);
    assert.ok(Math.abs(makeScale([1, 100], [0, 100], true)(10) - 50) < 1e-9);
  });

  test('bands split the range evenly and centre each bar in its step', () => {
    const slots = bands(4, [0, 100], 0.2);
    assert.equal(slots.length, 4);
    for (const [i, slot] of slots.entries()) {
      assert.equal(slot.step, 25);
      assert.equal(slot.width, 20);
      assert.equal(slot.start, i * 25 + 2.5);
    }
    assert.deepEqual(bands(0, [0, 100]), []);
  });
});

describe('bins', () => {
  test('each sample lands in the bin holding its left edge; the last bin holds the top end', () => {
    const { edges, counts, total } = binSamples([-1, -0.5, 0, 0.49, 0.5, 1, 2], [-1, 1], 4);
    assert.deepEqual(edges, [-1, -0.5, 0, 0.5, 1]);
    assert.deepEqual(counts, [1, 1, 2, 2]);
    assert.equal(total, 7);
  });

  test('a sample equal to an edge as written lands in the bin that edge starts', () => {
    // (-0.3 + 1) / 0.1 is 6.999999999999999 in floating point: dividing would put -0.3 a bin low.
    const { edges, counts } = binSamples([-0.3, 0.2], [-1, 1], 20);
    assert.equal(edges[7], -0.3);
    assert.equal(edges[12], 0.2);
    assert.deepEqual(
      counts.flatMap((n, i) => (n > 0 ? [i] : [])),
      [7, 12],
    );
  });

  test('the counts add up to the samples inside the domain', () => {
    const samples = Float32Array.from({ length: 1000 }, (_, i) => Math.sin(i * 7.1) * 5);
    const { counts } = binSamples(samples, [-4, 4], 40);
    const inside = samples.filter((x) => x >= -4 && x <= 4).length;
    assert.equal(
      counts.reduce((a, b) => a + b, 0),
      inside,
    );
  });

  test('a symmetric domain holds every sample and ends on a round tick', () => {
    assert.equal(largestMagnitude([[1, -7.4], [4.8]]), 7.4);
    assert.equal(largestMagnitude([[Number.NaN, -2]]), 2, 'a sample that is no number is skipped');
    assert.deepEqual(symmetricDomain([[1, -7.4], [4.8]]), [-8, 8]);
    assert.deepEqual(symmetricDomain([[-94.6, 113.3]]), [-150, 150]);
    assert.deepEqual(symmetricDomain([[]]), [-1, 1]);
  });
});

describe('formatting', () => {
  test('numbers get three significant figures and a true minus sign', () => {
    assert.equal(formatNumber(62.294), '62.3');
    assert.equal(formatNumber(0.30431), '0.304');
    assert.equal(formatNumber(999.01), '999');
    assert.equal(formatNumber(2.0), '2');
    assert.equal(formatNumber(-0.5), '\u22120.5');
    assert.equal(formatNumber(0), '0');
    assert.equal(formatNumber(0.000123), '1.23e-4');
    assert.equal(formatNumber(1234567), '1.23e+6');
  });

  test('ticks are written as they are, percentages with one decimal at most', () => {
    assert.equal(formatTick(-40), '\u221240');
    assert.equal(formatTick(0.01), '0.01');
    assert.equal(formatTick(1000), '1000');
    assert.equal(formatPercent(0.101), '10.1%');
    assert.equal(formatPercent(0.2), '20%');
    assert.equal(formatPercent(0), '0%');
    assert.equal(formatPercent(0.0004), '<0.1%');
  });
});
