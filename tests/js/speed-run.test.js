// A run that times the translators' training, in the worker's registry, driven in Node with the
// real engine: the two models take turns, one step each; every report carries each model's steps
// and the median wall time of its steps so far, measured around the engine's call, with the batch
// and the models' sizes; a pause stops the steps, the plan's end finishes the run, and a spec
// without its data becomes a failed report instead of an exception.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';

import { loadEngine } from 'attention-lab';

import { TIMING_PAIRS_PATH } from '../../web/src/data-files.js';
import { createRegistry } from '../../web/src/train/registry.js';
import { TIMED, median } from '../../web/src/train/speed-run.js';

const engine = await loadEngine();

const PUBLIC = new URL('../../web/public/', import.meta.url);
const read = (/** @type {string} */ path) => new Uint8Array(readFileSync(new URL(path, PUBLIC)));

/** @type {import('../../web/src/train/speed-run.js').SpeedRunSpec} */
const SPEC = {
  kind: 'translator-speed',
  models: TIMED.map((model) => ({ model })),
  steps: 2,
  seed: 1,
  data: { vectors: read('embeddings/en-20k-100d.bin'), pairs: read(TIMING_PAIRS_PATH) },
};

/**
 * A registry whose turns the test runs by hand, the messages it posted, and a clock that moves
 * 10 ms at every reading: each step is then timed by two readings, whatever the machine.
 */
function harness() {
  /** @type {any[]} */
  const posted = [];
  /** @type {(() => void)[]} */
  const turns = [];
  let now = 0;
  const registry = createRegistry({
    engine,
    post: (message) => posted.push(message),
    clock: () => (now += 10),
    defer: (next) => turns.push(next),
  });
  const spin = (/** @type {() => boolean} */ until = () => false) => {
    for (let i = 0; i < 1000 && turns.length > 0 && !until(); i++) turns.shift()?.();
  };
  return { registry, posted, turns, spin };
}

describe('the median of the step times', () => {
  test('is the middle value, or the mean of the middle two, and 0 for none', () => {
    assert.equal(median([]), 0);
    assert.equal(median([5]), 5);
    assert.equal(median([9, 1, 5]), 5);
    assert.equal(median([4, 1, 9, 2]), 3);
  });
});

describe('a translator-speed run in the registry', () => {
  test('alternates the models a step each and reports their times to the plan', () => {
    const { registry, posted, turns, spin } = harness();
    registry.handle({ type: 'create', id: 1, generation: 1, spec: SPEC });
    const [ready] = posted;
    assert.equal(ready.status, 'ready');
    assert.deepEqual(
      ready.timing.models.map((/** @type {any} */ m) => [m.steps, m.medianMs]),
      [
        [0, 0],
        [0, 0],
      ],
    );
    assert.deepEqual(
      [ready.timing.pairs, ready.timing.englishTokens, ready.timing.germanTokens],
      [64, 742, 928],
    );
    assert.deepEqual(
      ready.timing.models.map((/** @type {any} */ m) => m.parameters),
      [1309156, 3640932],
    );
    assert.equal(ready.timing.transformer.dModel, 192);

    registry.handle({ type: 'start', id: 1 });
    spin();
    assert.equal(turns.length, 0, 'the run stops at its plan');
    const final = posted[posted.length - 1];
    assert.equal(final.status, 'done');
    assert.equal(final.steps, SPEC.steps);
    // Each step is timed between two readings of the clock, 10 ms apart.
    assert.deepEqual(
      final.timing.models.map((/** @type {any} */ m) => [m.steps, m.medianMs]),
      [
        [2, 10],
        [2, 10],
      ],
    );
    // The losses came one step at a time, the models in turn.
    const losses = [0, 1].map((i) => posted.flatMap((m) => Array.from(m.losses[i])));
    assert.equal(losses[0].length, 2);
    assert.equal(losses[1].length, 2);
    assert.ok(losses.flat().every(Number.isFinite));
    registry.handle({ type: 'dispose', id: 1 });
  });

  test('a pause stops it between steps, and start resumes it', () => {
    const { registry, posted, spin } = harness();
    registry.handle({
      type: 'create',
      id: 2,
      generation: 1,
      spec: { ...SPEC, data: { ...SPEC.data, vectors: null } },
    });
    registry.handle({ type: 'start', id: 2 });
    spin(() => posted.some((m) => m.timing?.models[0].steps === 1));
    registry.handle({ type: 'pause', id: 2 });
    spin();
    const paused = posted[posted.length - 1];
    assert.equal(paused.status, 'paused');
    const stepsAtPause = paused.timing.models.map((/** @type {any} */ m) => m.steps);
    assert.ok(stepsAtPause[0] >= 1);
    registry.handle({ type: 'start', id: 2 });
    spin();
    assert.equal(posted[posted.length - 1].status, 'done');
    registry.handle({ type: 'dispose', id: 2 });
  });

  test('a spec without its pairs, or with other models, is a failed report', () => {
    const { registry, posted } = harness();
    registry.handle({
      type: 'create',
      id: 3,
      generation: 1,
      spec: /** @type {any} */ ({ ...SPEC, data: undefined }),
    });
    assert.equal(posted[0].status, 'failed');
    assert.match(posted[0].error, /needs its word vectors and pairs/);
    registry.handle({
      type: 'create',
      id: 4,
      generation: 1,
      spec: /** @type {any} */ ({ ...SPEC, models: [{ model: 'transformer' }] }),
    });
    assert.match(posted[1].error, /times attention and transformer, in that order/);
    assert.equal(registry.size(), 0);
  });
});
