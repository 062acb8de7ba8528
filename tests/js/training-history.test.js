// The page's record of a run: reports add up to every loss of every model, the evaluations in
// order and the latest map; the loss curves are bucket means over the steps all models have
// taken. The last test feeds the history from a real run and checks the curves against the
// engine's losses for the same options.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { loadEngine } from 'attention-lab';

import { applyReport, emptyHistory, lossCurves } from '../../web/src/train/history.js';
import { createRun } from '../../web/src/train/run.js';

/** A report with the fields a run always sends. */
const report = (fields) => ({
  status: 'running',
  steps: 0,
  planned: 100,
  evaluating: false,
  losses: [new Float32Array(0), new Float32Array(0)],
  stepsPerSecond: 0,
  evaluations: [],
  ...fields,
});

describe('applyReport', () => {
  test('appends losses per model and says what changed', () => {
    const history = emptyHistory(2, 100);
    assert.equal(history.status, 'starting');
    const changes = applyReport(
      history,
      report({ steps: 2, losses: [Float32Array.of(2, 1.5), Float32Array.of(2.5, 2)] }),
    );
    assert.deepEqual(changes, { losses: true, evaluation: false, map: false });
    applyReport(history, report({ steps: 3, losses: [Float32Array.of(1), Float32Array.of(1.75)] }));
    assert.deepEqual(history.losses, [
      [2, 1.5, 1],
      [2.5, 2, 1.75],
    ]);
    assert.equal(history.steps, 3);
    assert.equal(history.status, 'running');
  });

  test('keeps every evaluation, the latest map, the status and the error', () => {
    const history = emptyHistory(2, 100);
    const evaluation = { step: 20, lengths: [2], models: [{ sequence: [0.5], symbol: [0.75] }] };
    const map = { length: 2, input: [1, 2], target: [2, 1], output: [2, 1], weights: [], step: 20 };
    const changes = applyReport(history, report({ steps: 20, evaluations: [evaluation], map }));
    assert.deepEqual(changes, { losses: false, evaluation: true, map: true });
    const later = [40, 60].map((step) => ({ ...evaluation, step }));
    applyReport(history, report({ steps: 60, evaluations: later }));
    assert.deepEqual(
      history.evaluations.map((e) => e.step),
      [20, 40, 60],
    );
    assert.equal(history.map, map, 'a report without a map keeps the last one');
    applyReport(history, report({ status: 'failed', error: 'diverged' }));
    assert.deepEqual([history.status, history.error], ['failed', 'diverged']);
  });
});

describe('lossCurves', () => {
  test('averages each bucket of steps; the last bucket may be partial', () => {
    const { x, series } = lossCurves([[4, 2, 3, 1, 5]], 2);
    assert.deepEqual(x, [2, 4, 5]);
    assert.deepEqual(series, [[3, 2, 5]]);
  });

  test('covers only the steps every model has taken', () => {
    const { x, series } = lossCurves(
      [
        [1, 1, 1, 1],
        [2, 2, 2],
      ],
      2,
    );
    assert.deepEqual(x, [2, 3]);
    assert.deepEqual(series, [
      [1, 1],
      [2, 2],
    ]);
  });

  test('is empty before the first step', () => {
    assert.deepEqual(lossCurves([[], []], 5), { x: [], series: [[], []] });
  });
});

test('a real run\u2019s reports give the curves of the engine\u2019s losses', async () => {
  const engine = await loadEngine();
  const options = { seed: 11, model: 'attention' };
  const spec = {
    models: [{ options }, { options: { ...options, model: 'fixed' } }],
    steps: 30,
    evalEvery: 30,
    lengths: [3],
    samples: 10,
  };
  const run = createRun(engine, spec);
  const history = emptyHistory(2, spec.steps);
  run.start();
  for (let turn = 0; turn < 1000 && run.busy(); turn++) {
    run.work(10, () => performance.now());
    const next = run.report(() => performance.now());
    if (next) applyReport(history, next);
  }
  const last = run.report(() => performance.now(), true);
  if (last) applyReport(history, last);
  run.dispose();
  assert.equal(history.status, 'done');
  assert.equal(history.evaluations.length, 1);

  const alone = engine.createTraining(options);
  const losses = alone.step(spec.steps);
  alone.dispose();
  const { x, series } = lossCurves(history.losses, 10);
  assert.deepEqual(x, [10, 20, 30]);
  for (let b = 0; b < 3; b++) {
    const slice = Array.from(losses.subarray(b * 10, b * 10 + 10));
    const mean = slice.reduce((sum, loss) => sum + loss, 0) / 10;
    assert.equal(series[0][b], mean, `bucket ${b}`);
  }
});
