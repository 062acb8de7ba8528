// A training run and the worker's registry of runs, driven in Node with the real engine: models
// trained side by side take the same steps and report exactly the losses, accuracies and maps the
// engine gives for the same options; a slice stays near its budget; pause stops the steps and
// measures where they stopped; the run ends at its plan; reports come at most every 100 ms
// unless something the learner must see happens; the registry takes turns between runs, replaces
// and disposes them, and turns a bad option into a failed report instead of an exception.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { loadEngine } from 'attention-lab';

import { INTERVAL_MS } from '../../web/src/train/batcher.js';
import { createRegistry } from '../../web/src/train/registry.js';
import { createRun } from '../../web/src/train/run.js';

const engine = await loadEngine();
const clock = () => performance.now();

/** Two models side by side on a short plan: the smallest run that shows everything. */
const SPEC = {
  models: [{ options: { model: 'fixed', seed: 4 } }, { options: { model: 'attention', seed: 4 } }],
  steps: 40,
  evalEvery: 20,
  lengths: [2, 5],
  samples: 20,
};

/**
 * Works a run until `until` holds (or it has nothing to do), gathering every report.
 * @param {ReturnType<typeof createRun>} run
 * @param {() => boolean} [until]
 */
function drive(run, until = () => false) {
  const reports = [];
  for (let turn = 0; turn < 10_000 && run.busy() && !until(); turn++) {
    run.work(25, clock);
    const report = run.report(clock);
    if (report) reports.push(report);
  }
  const last = run.report(clock, true);
  if (last) reports.push(last);
  return reports;
}

/**
 * The engine, with a clock of its own that moves only as the models train: each step costs
 * `msPerStep`, on any machine and under any load, and every chunk of steps is logged.
 * @param {number} msPerStep
 */
function timedEngine(msPerStep) {
  const time = { now: 0, chunks: /** @type {number[]} */ ([]) };
  const bound = (target, key) => {
    const value = Reflect.get(target, key, target);
    return typeof value === 'function' ? value.bind(target) : value;
  };
  const timed = (training) =>
    new Proxy(training, {
      get(target, key) {
        if (key !== 'step') return bound(target, key);
        return (/** @type {number} */ count) => {
          const losses = target.step(count);
          time.now += count * msPerStep;
          time.chunks.push(count);
          return losses;
        };
      },
    });
  const proxy = new Proxy(engine, {
    get(target, key) {
      if (key !== 'createTraining') return bound(target, key);
      return (/** @type {any} */ options) => timed(target.createTraining(options));
    },
  });
  return { engine: proxy, time, clock: () => time.now };
}

/** Every loss of model `i` over the reports. */
const lossesOf = (reports, i) => reports.flatMap((report) => Array.from(report.losses[i]));

describe('a run', () => {
  test('trains its models side by side to the plan, with the engine\u2019s own numbers', () => {
    const run = createRun(engine, SPEC);
    assert.equal(run.status, 'ready');
    run.start();
    const reports = drive(run);
    assert.equal(run.status, 'done');
    assert.equal(run.steps, SPEC.steps);

    // The same options trained directly give the same losses and accuracies, bit for bit: each
    // model's seed fixes its weights and batches, whatever the chunks it was stepped in.
    for (const [i, model] of SPEC.models.entries()) {
      const alone = engine.createTraining(model.options);
      const first = alone.step(SPEC.evalEvery);
      const atFirst = alone.evaluate(SPEC.lengths, SPEC.samples);
      const rest = alone.step(SPEC.steps - SPEC.evalEvery);
      const atEnd = alone.evaluate(SPEC.lengths, SPEC.samples);
      alone.dispose();
      assert.deepEqual(lossesOf(reports, i), [...first, ...rest], `model ${i} losses`);
      const evaluations = reports.flatMap((r) => r.evaluations);
      assert.deepEqual(
        evaluations.map((e) => e.step),
        [SPEC.evalEvery, SPEC.steps],
        'measured every evalEvery steps and at the end',
      );
      assert.deepEqual(evaluations[0].models[i].sequence, Array.from(atFirst.sequenceAccuracy));
      assert.deepEqual(evaluations[1].models[i].sequence, Array.from(atEnd.sequenceAccuracy));
      assert.deepEqual(evaluations[1].models[i].symbol, Array.from(atEnd.symbolAccuracy));
    }
    assert.equal(reports[reports.length - 1].status, 'done');
    // Learning happened: the attention model's loss fell.
    const attention = lossesOf(reports, 1);
    assert.ok(attention[attention.length - 1] < attention[0]);
    run.dispose();
  });

  test('a slice stays near its budget: at most one chunk past it', () => {
    // A clock that moves 2 ms per step: what a slice does is then the same on any machine.
    const msPerStep = 2;
    const timed = timedEngine(msPerStep);
    const run = createRun(timed.engine, { ...SPEC, steps: 400, evalEvery: 400 });
    run.start();
    for (let slice = 0; slice < 15; slice++) {
      const start = timed.clock();
      const first = timed.time.chunks.length;
      run.work(25, timed.clock);
      const chunks = timed.time.chunks.slice(first);
      const spent = timed.clock() - start;
      assert.ok(chunks.length > 0, `slice ${slice} trains`);
      // Each slice checks the time before every chunk: only the last may end past the budget.
      const beforeLast = spent - chunks[chunks.length - 1] * msPerStep;
      assert.ok(beforeLast < 25, `slice ${slice}: its last chunk began at ${beforeLast} ms`);
      // And sizes a chunk to the time left, from the speed it has seen.
      assert.ok(spent <= 25 + 25, `slice ${slice} took ${spent} ms for a 25 ms budget`);
    }
    assert.ok(run.steps > 15, `${run.steps} steps in 15 slices: chunks grew past one step`);
    run.dispose();
  });

  test('pause stops the steps, levels the models and measures them there', () => {
    const run = createRun(engine, { ...SPEC, steps: 400, evalEvery: 400 });
    run.start();
    const reports = drive(run, () => run.steps >= 30);
    run.pause();
    assert.equal(run.status, 'paused');
    reports.push(...drive(run));
    const evaluation = reports.flatMap((r) => r.evaluations).pop();
    assert.ok(evaluation, 'an evaluation after the pause');
    assert.equal(evaluation.step, run.steps, 'at the step where training stopped');
    assert.deepEqual(
      [lossesOf(reports, 0).length, lossesOf(reports, 1).length],
      [run.steps, run.steps],
      'both models took every step, no more',
    );
    assert.equal(run.busy(), false, 'nothing more to do while paused');
    const stopped = run.steps;
    run.work(25, clock);
    assert.equal(run.steps, stopped, 'a paused run takes no step');
    run.start();
    drive(run, () => run.steps >= stopped + 5);
    assert.ok(run.steps > stopped, 'and resumes');
    run.dispose();
  });

  test('reports come at most every 100 ms, unless the status changes or one is forced', () => {
    let now = 0;
    const fake = () => now;
    const run = createRun(engine, { ...SPEC, steps: 400, evalEvery: 400 });
    assert.ok(run.report(fake), 'the first report says the run is ready');
    assert.equal(run.report(fake), null, 'and then nothing is new');
    run.start();
    assert.equal(run.report(fake)?.status, 'running', 'a status change goes out at once');
    run.work(25, clock);
    assert.equal(run.report(fake), null, 'new losses wait for the interval');
    now += INTERVAL_MS;
    const report = run.report(fake);
    assert.ok(report && report.losses[0].length > 0, 'and go out after it');
    run.work(25, clock);
    assert.ok(run.report(fake, true), 'unless forced');
    run.dispose();
  });

  test('evaluations that finish between two reports all go out with the next one', () => {
    const fake = () => 0; // a clock that never lets a report fall due
    const run = createRun(engine, { ...SPEC, evalEvery: 10, steps: 400 });
    run.report(fake, true);
    run.start();
    run.report(fake);
    while (run.steps < 25) run.work(25, clock);
    assert.equal(run.report(fake), null, 'nothing is due yet');
    const report = run.report(fake, true);
    const steps = report?.evaluations.map((e) => e.step) ?? [];
    assert.ok(steps.length >= 2, `evaluations at ${steps}`);
    assert.deepEqual(
      steps,
      steps.map((_, i) => 10 * (i + 1)),
      'every one of them, in order',
    );
    // Every loss so far, too: the model behind has taken exactly the run's steps.
    assert.equal(Math.min(...(report?.losses ?? []).map((losses) => losses.length)), run.steps);
    run.dispose();
  });

  test('a live map is the engine\u2019s map of the sample after the same steps', () => {
    const options = { scoring: 'additive', seed: 9 };
    const spec = { ...SPEC, models: [{ options }], map: { model: 0, length: 6, live: true } };
    const run = createRun(engine, spec);
    const first = run.report(clock, true);
    assert.equal(first?.map?.step, 0, 'the untrained model\u2019s map comes with the first report');
    run.start();
    const reports = drive(run, () => run.steps >= 10);
    run.pause();
    reports.push(...drive(run));
    const map = reports.filter((r) => r.map).pop()?.map;
    assert.ok(map);
    assert.equal(map.step, run.steps);
    const alone = engine.createTraining(options);
    alone.step(run.steps);
    const expected = alone.attentionMap(6);
    alone.dispose();
    assert.deepEqual(Array.from(map.weights), Array.from(expected.weights));
    assert.deepEqual(map.input, expected.input);
    assert.deepEqual(map.output, expected.output);

    run.setMapLength(4);
    const shorter = run.report(clock, true)?.map;
    assert.equal(shorter?.length, 4, 'another length is reported at once');
    assert.equal(shorter?.weights.length, 16);
    run.dispose();
  });

  test('a loss that is no longer finite, or an engine error, fails the run with a message', () => {
    const fakeEngine = (/** @type {() => Float32Array} */ step) =>
      /** @type {any} */ ({
        createTraining: () => {
          let steps = 0;
          return {
            step: (n) => {
              steps += n;
              return step();
            },
            get steps() {
              return steps;
            },
            evaluate: () => ({ sequenceAccuracy: [0], symbolAccuracy: [0] }),
            dispose() {},
          };
        },
      });
    const diverging = createRun(
      fakeEngine(() => Float32Array.of(NaN)),
      SPEC,
    );
    diverging.start();
    diverging.work(25, clock);
    assert.equal(diverging.status, 'failed');
    assert.match(diverging.report(clock, true)?.error ?? '', /learning rate is too large/);

    const throwing = createRun(
      fakeEngine(() => {
        throw new Error('out of memory');
      }),
      SPEC,
    );
    throwing.start();
    throwing.work(25, clock);
    assert.equal(throwing.status, 'failed');
    assert.equal(throwing.report(clock, true)?.error, 'out of memory');
  });
});

describe('the registry', () => {
  /**
   * A registry whose turns the test runs by hand, and the messages it posted.
   * @param {{ idle?: () => void }} [hooks]
   */
  function harness(hooks = {}) {
    const posted = [];
    const turns = [];
    const registry = createRegistry({
      engine,
      post: (message) => posted.push({ at: clock(), ...message }),
      clock,
      defer: (next) => turns.push(next),
      ...hooks,
    });
    const spin = (until) => {
      for (let i = 0; i < 10_000 && turns.length > 0 && !until?.(); i++) turns.shift()();
    };
    return { registry, posted, turns, spin };
  }
  const last = (posted, id) => posted.filter((m) => m.id === id).pop();

  test('runs a run to its end, each message tagged with its id and generation', () => {
    const { registry, posted, spin } = harness();
    registry.handle({ type: 'create', id: 7, generation: 3, spec: SPEC });
    assert.equal(last(posted, 7)?.status, 'ready');
    registry.handle({ type: 'start', id: 7 });
    spin();
    assert.equal(last(posted, 7)?.status, 'done');
    assert.ok(posted.every((m) => m.type === 'progress' && m.id === 7 && m.generation === 3));
    const steps = posted.reduce((sum, m) => sum + m.losses[0].length, 0);
    assert.equal(steps, SPEC.steps, 'every loss is reported once');
    // At most one report per interval, besides the ones a status change forces.
    const running = posted.filter((m) => m.status === 'running').map((m) => m.at);
    const spanMs = running[running.length - 1] - running[0];
    assert.ok(
      running.length <= 2 + spanMs / INTERVAL_MS,
      `${running.length} reports in ${spanMs.toFixed(0)} ms`,
    );
  });

  test('a pause between turns stops the steps at once', () => {
    const { registry, posted, spin } = harness();
    registry.handle({ type: 'create', id: 1, generation: 1, spec: { ...SPEC, steps: 2000 } });
    registry.handle({ type: 'start', id: 1 });
    spin(() => (last(posted, 1)?.steps ?? 0) >= 10);
    registry.handle({ type: 'pause', id: 1 });
    const atPause = last(posted, 1);
    assert.equal(atPause?.status, 'paused', 'the pause is reported at once');
    // Each model's steps so far: the losses it has reported.
    const stepsOf = (model) =>
      posted.filter((m) => m.id === 1).reduce((sum, m) => sum + m.losses[model].length, 0);
    const leader = Math.max(stepsOf(0), stepsOf(1));
    spin();
    const after = last(posted, 1);
    assert.equal(after?.status, 'paused');
    assert.equal(after.steps, leader, 'only the lagging model catches up, to the leader');
    assert.deepEqual([stepsOf(0), stepsOf(1)], [leader, leader], 'and no model steps further');
    assert.ok(
      posted.some((m) => m.evaluations.some((e) => e.step === after.steps)),
      'measured where it stopped',
    );
  });

  test('the loop says when it stops: after a pause, once the models are measured', () => {
    /** @type {number[]} how many messages were posted at each call of idle */
    const idles = [];
    const { registry, posted, turns, spin } = harness({ idle: () => idles.push(posted.length) });
    registry.handle({ type: 'create', id: 1, generation: 1, spec: { ...SPEC, steps: 2000 } });
    registry.handle({ type: 'start', id: 1 });
    spin(() => (last(posted, 1)?.steps ?? 0) >= 10);
    assert.deepEqual(idles, [], 'never while the run trains');
    registry.handle({ type: 'pause', id: 1 });
    spin();
    assert.equal(turns.length, 0, 'no turn is left');
    assert.deepEqual(idles, [posted.length], 'once, after the last report');
    const final = last(posted, 1);
    assert.equal(final.status, 'paused');
    assert.equal(final.evaluating, false, 'the models are measured');
  });

  test('runs take turns; create replaces a run; dispose ends it', () => {
    const { registry, posted, spin } = harness();
    const long = { ...SPEC, steps: 2000, evalEvery: 2000 };
    registry.handle({ type: 'create', id: 1, generation: 1, spec: long });
    registry.handle({ type: 'create', id: 2, generation: 1, spec: long });
    registry.handle({ type: 'start', id: 1 });
    registry.handle({ type: 'start', id: 2 });
    spin(() => (last(posted, 1)?.steps ?? 0) >= 20 && (last(posted, 2)?.steps ?? 0) >= 20);
    assert.ok(last(posted, 1).steps >= 20 && last(posted, 2).steps >= 20, 'both advanced');

    registry.handle({ type: 'create', id: 1, generation: 2, spec: long });
    assert.deepEqual(
      [last(posted, 1).generation, last(posted, 1).steps, last(posted, 1).status],
      [2, 0, 'ready'],
      'a new run from step 0 under the new generation',
    );
    registry.handle({ type: 'dispose', id: 2 });
    registry.handle({ type: 'dispose', id: 1 });
    assert.equal(registry.size(), 0);
    const count = posted.length;
    spin();
    assert.equal(posted.length, count, 'nothing more from disposed runs');
  });

  test('a run the engine refuses is reported failed with the engine\u2019s message', () => {
    const { registry, posted } = harness();
    const bad = { ...SPEC, models: [{ options: { dModel: 100000 } }] };
    registry.handle({ type: 'create', id: 5, generation: 1, spec: bad });
    const report = last(posted, 5);
    assert.equal(report?.status, 'failed');
    assert.match(report?.error ?? '', /dModel must be a whole number from 2 to 256/);
    assert.equal(registry.size(), 0);
  });
});
