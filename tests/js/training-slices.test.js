// The training worker's timing parts, as plain modules: the slicer sizes chunks of steps to a
// time budget from what it measured, the meter turns step counts over time into steps per second,
// and the batcher gathers losses and lets a report out at most every 100 ms. The last test drives
// the slicer with the real engine: chunks grow from one step to fill the budget.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { loadEngine } from 'attention-lab';

import { INTERVAL_MS, createBatcher } from '../../web/src/train/batcher.js';
import { createMeter } from '../../web/src/train/meter.js';
import { createSlicer } from '../../web/src/train/slicer.js';

describe('the slicer', () => {
  test('takes one step before it has measured anything', () => {
    const slicer = createSlicer();
    assert.equal(slicer.msPerStep(), 0);
    assert.equal(slicer.next(100, 25), 1);
  });

  test('fits the budget with what it measured, within the steps still wanted', () => {
    const slicer = createSlicer();
    slicer.record(2, 10); // 5 ms a step
    assert.equal(slicer.msPerStep(), 5);
    assert.equal(slicer.next(100, 25), 5);
    assert.equal(slicer.next(3, 25), 3, 'never more than the limit');
    assert.equal(slicer.next(100, 2), 1, 'at least one step, even when the budget is short');
    assert.equal(slicer.next(0, 25), 0, 'nothing when nothing is wanted');
  });

  test('takes in a slower measurement at once and a faster one gradually', () => {
    const slicer = createSlicer();
    slicer.record(1, 4);
    slicer.record(1, 10);
    assert.equal(slicer.msPerStep(), 10, 'a slow slice raises the estimate to it');
    slicer.record(10, 20); // 2 ms a step
    const eased = slicer.msPerStep();
    assert.ok(eased < 10 && eased > 2, `one fast slice moves the estimate part way: ${eased}`);
    for (let i = 0; i < 30; i++) slicer.record(10, 20);
    assert.ok(Math.abs(slicer.msPerStep() - 2) < 0.01, 'and repeated ones all the way');
  });

  test('ignores measurements that are not measurements', () => {
    const slicer = createSlicer();
    slicer.record(0, 5);
    slicer.record(3, NaN);
    assert.equal(slicer.msPerStep(), 0);
  });
});

describe('the meter', () => {
  test('gives the steps per second over the marks', () => {
    const meter = createMeter();
    assert.equal(meter.perSecond(), 0);
    meter.mark(0, 0);
    assert.equal(meter.perSecond(), 0, 'one mark spans no time');
    meter.mark(500, 40);
    meter.mark(1000, 100);
    assert.equal(meter.perSecond(), 100);
  });

  test('forgets marks older than its window, and everything on clear', () => {
    const meter = createMeter();
    meter.mark(0, 0);
    meter.mark(1000, 1000); // 1000 steps/s in the first second
    meter.mark(2000, 1010);
    meter.mark(3000, 1020); // then 10 steps/s
    assert.equal(meter.perSecond(), 10, 'only the last window counts');
    meter.clear();
    assert.equal(meter.perSecond(), 0);
    meter.mark(4000, 1020);
    meter.mark(4500, 1030);
    assert.equal(meter.perSecond(), 20);
  });
});

describe('the batcher', () => {
  test('gathers each model\u2019s losses in order and hands them over once', () => {
    const batcher = createBatcher(2);
    assert.equal(batcher.empty(), true);
    batcher.add(0, Float32Array.of(3, 2.5));
    batcher.add(1, [1.5]);
    batcher.add(0, [2]);
    assert.equal(batcher.empty(), false);
    const [first, second] = batcher.take(0);
    assert.deepEqual(Array.from(first), [3, 2.5, 2]);
    assert.deepEqual(Array.from(second), [1.5]);
    assert.ok(first instanceof Float32Array);
    assert.equal(batcher.empty(), true);
    assert.deepEqual(
      batcher.take(500).map((losses) => losses.length),
      [0, 0],
    );
  });

  test('lets a report out at most once per interval', () => {
    const batcher = createBatcher(1);
    assert.equal(INTERVAL_MS, 100, 'about ten reports a second');
    assert.equal(batcher.due(0), true, 'the first report may go at once');
    batcher.take(1000);
    assert.equal(batcher.due(1000 + INTERVAL_MS - 1), false);
    assert.equal(batcher.due(1000 + INTERVAL_MS), true);
  });

  test('clear drops what waits', () => {
    const batcher = createBatcher(1);
    batcher.add(0, [1, 2]);
    batcher.clear();
    assert.equal(batcher.empty(), true);
  });
});

describe('the slicer with the real engine', () => {
  test('chunks grow from one step to fill a 25 ms budget, sized from the speed seen', async () => {
    const engine = await loadEngine();
    const training = engine.createTraining({ seed: 2 });
    const slicer = createSlicer();
    // The engine's real steps, timed by a clock of the test's own: 2 ms a step, on any machine
    // and under any load, so the sizes the slicer picks can be checked exactly.
    const msPerStep = 2;
    const chunks = [];
    for (let slice = 0; slice < 12; slice++) {
      const k = slicer.next(1000, 25);
      const losses = training.step(k);
      assert.equal(losses.length, k, 'the engine took the chunk');
      slicer.record(k, k * msPerStep);
      chunks.push(k);
    }
    training.dispose();
    assert.equal(chunks[0], 1);
    assert.ok(Math.max(...chunks) > 1, `chunks ${chunks}`);
    // Each chunk is sized from the steps measured before it: the budget over the estimate. Once
    // the estimate has settled, a chunk fills the budget without going past it.
    const settled = chunks.slice(-4);
    for (const k of settled) {
      assert.ok(k * msPerStep <= 25, `chunks ${chunks}: ${k} steps overrun 25 ms`);
      assert.ok(k * msPerStep > 25 / 2, `chunks ${chunks}: ${k} steps leave the budget half empty`);
    }
  });
});
