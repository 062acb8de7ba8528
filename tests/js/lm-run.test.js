// A live language-model run in the worker's registry, driven in Node with the real engine: it
// measures every head of the untrained model, trains to its plan reporting exactly the losses,
// head scores and probe maps the engine gives for the same options, measuring every evalEvery
// steps; a pause stops the steps and measures where they stopped, and start resumes the same
// training; missing or corrupt data becomes a failed report instead of an exception; dispose ends
// the run; and it takes turns with a reversal run in the same registry.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';

import { loadEngine } from 'attention-lab';

import { createRegistry } from '../../web/src/train/registry.js';

const engine = await loadEngine();
const clock = () => performance.now();

const PUBLIC = new URL('../../web/public/', import.meta.url);
const read = (/** @type {string} */ path) => new Uint8Array(readFileSync(new URL(path, PUBLIC)));
const DATA = Object.freeze({
  vectors: read('embeddings/en-20k-100d.bin'),
  train: read('models/brown-live-train.bin'),
  heldOut: read('models/brown-live-heldout.bin'),
});

/** A model small enough that a step costs about a millisecond. */
const OPTIONS = Object.freeze({
  words: 200,
  dModel: 16,
  heads: 2,
  layers: 2,
  dMlp: 16,
  context: 8,
  batch: 4,
  steps: 50,
  minRun: 2,
  maxRun: 4,
  measureSequences: 4,
  probeLength: 3,
});
const HEADS = OPTIONS.layers * OPTIONS.heads;
const PROBE_WORDS = 2 * OPTIONS.probeLength;

/** @type {import('../../web/src/train/lm-run.js').LanguageModelRunSpec} */
const SPEC = {
  kind: 'language-model',
  models: [{ options: OPTIONS }],
  steps: 30,
  evalEvery: 10,
  data: DATA,
};

/** A registry whose turns the test runs by hand, and the messages it posted. */
function harness() {
  /** @type {any[]} */
  const posted = [];
  /** @type {(() => void)[]} */
  const turns = [];
  const registry = createRegistry({
    engine,
    post: (message) => posted.push(message),
    clock,
    defer: (next) => turns.push(next),
  });
  /** Runs the turns the registry asks for until `until` holds or it asks for none. */
  const spin = (/** @type {() => boolean} */ until = () => false, limit = 10_000) => {
    for (let i = 0; i < limit && turns.length > 0 && !until(); i++) turns.shift()?.();
  };
  const of = (/** @type {number} */ id) => posted.filter((m) => m.id === id);
  const last = (/** @type {number} */ id) => of(id).pop();
  return { registry, posted, turns, spin, of, last };
}

/** Every loss of the one model over the messages. */
const lossesOf = (/** @type {any[]} */ messages) =>
  messages.flatMap((m) => Array.from(/** @type {Float32Array} */ (m.losses[0])));

/** Every evaluation over the messages, in order. */
const evaluationsOf = (/** @type {any[]} */ messages) => messages.flatMap((m) => m.evaluations);

/**
 * Checks one evaluation: at `step`, every head once, layer-major, with its scores and kind.
 * @param {any} evaluation
 * @param {number} step
 */
function assertEvaluation(evaluation, step) {
  assert.equal(evaluation.step, step);
  assert.equal(evaluation.heads.length, HEADS, `every head at step ${step}`);
  evaluation.heads.forEach((/** @type {any} */ h, /** @type {number} */ i) => {
    assert.deepEqual([h.layer, h.head], [Math.floor(i / OPTIONS.heads), i % OPTIONS.heads]);
    for (const score of [h.previousToken, h.firstToken, h.self, h.induction]) {
      assert.ok(score >= 0 && score <= 1, `step ${step}, head ${i}: ${score}`);
    }
    assert.ok(['previous-token', 'first-token', 'self', 'induction', 'mixed'].includes(h.kind));
  });
}

/**
 * Checks one probe map: at `step`, every head's (n, n) weights.
 * @param {any} map
 * @param {number} step
 */
function assertMap(map, step) {
  assert.equal(map.step, step);
  assert.deepEqual([map.layers, map.heads], [OPTIONS.layers, OPTIONS.heads]);
  assert.equal(map.words.length, PROBE_WORDS);
  assert.ok(map.weights instanceof Float32Array);
  assert.equal(map.weights.length, HEADS * PROBE_WORDS * PROBE_WORDS);
}

describe('a language-model run in the registry', () => {
  test('trains to its plan with the engine\u2019s own losses, scores and map', () => {
    const { registry, posted, turns, spin } = harness();
    registry.handle({ type: 'create', id: 4, generation: 2, spec: SPEC });
    assert.equal(posted.length, 1, 'create reports at once');
    const [ready] = posted;
    assert.equal(ready.status, 'ready');
    assert.equal(ready.steps, 0);
    assert.equal(ready.planned, SPEC.steps);
    assert.equal(ready.losses.length, 1);
    assert.equal(ready.losses[0].length, 0);

    registry.handle({ type: 'start', id: 4 });
    spin();
    assert.equal(turns.length, 0, 'the registry stops asking for turns when the run is done');
    assert.ok(posted.every((m) => m.type === 'progress' && m.id === 4 && m.generation === 2));
    const final = posted[posted.length - 1];
    assert.equal(final.status, 'done');
    assert.equal(final.steps, SPEC.steps);
    assert.equal(final.evaluating, false);

    const losses = lossesOf(posted);
    assert.equal(losses.length, SPEC.steps, 'every step\u2019s loss, each reported once');
    assert.ok(losses.every(Number.isFinite));
    const evaluations = evaluationsOf(posted);
    assert.deepEqual(
      evaluations.map((e) => e.step),
      [0, 10, 20, 30],
      'measured at the start, every evalEvery steps and at the end, in order',
    );
    evaluations.forEach((e) => assertEvaluation(e, e.step));
    const maps = posted.filter((m) => m.map).map((m) => m.map);
    assert.ok(maps.length > 0, 'a map is reported');
    maps.forEach((map) => assertMap(map, map.step));
    assert.equal(maps[maps.length - 1].step, SPEC.steps, 'the last map is of the trained model');

    // The same options trained directly give the same numbers, bit for bit.
    const alone = engine.createLanguageModelTraining(DATA.train, DATA.heldOut, OPTIONS);
    const expected = { losses: /** @type {number[]} */ ([]), heads: [alone.measure()] };
    for (let step = 10; step <= SPEC.steps; step += 10) {
      expected.losses.push(...alone.step(10));
      expected.heads.push(alone.measure());
    }
    const probe = alone.probe();
    alone.dispose();
    assert.deepEqual(losses, expected.losses, 'the engine\u2019s losses');
    assert.deepEqual(
      evaluations.map((e) => e.heads),
      expected.heads,
      'the engine\u2019s head scores',
    );
    assert.deepEqual(maps[maps.length - 1].words, probe.words);
    assert.deepEqual(Array.from(maps[maps.length - 1].weights), Array.from(probe.weights));
  });

  test('the untrained model\u2019s heads and map are reported while the run is ready', () => {
    const { registry, posted, spin } = harness();
    registry.handle({ type: 'create', id: 1, generation: 1, spec: SPEC });
    spin();
    const ready = posted.filter((m) => m.status === 'ready');
    const atStart = evaluationsOf(ready);
    assert.equal(atStart.length, 1, 'one evaluation before start, at step 0');
    assertEvaluation(atStart[0], 0);
    const map = ready.find((m) => m.map)?.map;
    assert.ok(map, 'and the map at step 0');
    assertMap(map, 0);
    registry.handle({ type: 'dispose', id: 1 });
  });

  test('pause stops the steps and measures there; start resumes', () => {
    const { registry, posted, turns, spin, of, last } = harness();
    // A plan far longer than the few turns the test gives it.
    const spec = { ...SPEC, steps: 100_000, evalEvery: 100_000 };
    registry.handle({ type: 'create', id: 2, generation: 1, spec });
    registry.handle({ type: 'start', id: 2 });
    spin(() => false, 4);
    registry.handle({ type: 'pause', id: 2 });
    assert.equal(last(2)?.status, 'paused', 'the pause is reported at once');
    spin();
    assert.equal(turns.length, 0, 'a paused run asks for no turns once it is measured');

    const atPause = of(2);
    const stopped = last(2)?.steps;
    assert.ok(stopped > 0, `stopped at step ${stopped}`);
    assert.equal(last(2)?.status, 'paused');
    assert.equal(last(2)?.evaluating, false);
    assert.equal(lossesOf(atPause).length, stopped, 'every step taken is reported, no more');
    assert.deepEqual(
      evaluationsOf(atPause).map((e) => e.step),
      [0, stopped],
      'the untrained model, then one evaluation at the step where training stopped',
    );
    const carrier = atPause.find((m) => m.evaluations.some((e) => e.step === stopped));
    assert.equal(carrier?.status, 'paused', 'reported as paused');
    assertEvaluation(carrier.evaluations[carrier.evaluations.length - 1], stopped);
    assertMap(atPause.filter((m) => m.map).pop()?.map, stopped);

    // Pausing again while paused changes nothing: no step, no evaluation.
    const count = posted.length;
    registry.handle({ type: 'pause', id: 2 });
    spin();
    assert.equal(lossesOf(of(2)).length, stopped, 'no step while paused');
    assert.equal(evaluationsOf(posted.slice(count)).length, 0, 'and nothing measured again');
    assert.equal(last(2)?.steps, stopped);

    registry.handle({ type: 'start', id: 2 });
    assert.equal(last(2)?.status, 'running');
    spin(() => false, 3);
    registry.handle({ type: 'pause', id: 2 });
    spin();
    const again = last(2)?.steps;
    assert.ok(again > stopped, `resumed from step ${stopped} to ${again}`);
    assert.equal(last(2)?.status, 'paused');
    assert.deepEqual(
      evaluationsOf(of(2)).map((e) => e.step),
      [0, stopped, again],
    );

    // Across the pauses the losses are those of one training taking the same steps.
    const losses = lossesOf(of(2));
    assert.equal(losses.length, again, 'each step once, across the pauses');
    const alone = engine.createLanguageModelTraining(DATA.train, DATA.heldOut, OPTIONS);
    const expected = [];
    while (alone.steps < again) expected.push(...alone.step(Math.min(1000, again - alone.steps)));
    alone.dispose();
    assert.deepEqual(losses, expected);
    registry.handle({ type: 'dispose', id: 2 });
  });

  test('a run may leave out the word vectors an earlier run gave the engine', async () => {
    const { registry, spin, last } = harness();
    registry.handle({ type: 'create', id: 1, generation: 1, spec: SPEC });
    spin(() => last(1)?.evaluations.length > 0);
    const sent = last(1).evaluations[0];
    registry.handle({ type: 'dispose', id: 1 });
    const kept = { ...SPEC, data: { ...DATA, vectors: null } };
    registry.handle({ type: 'create', id: 2, generation: 1, spec: kept });
    spin(() => last(2)?.evaluations.length > 0);
    assert.equal(last(2).status, 'ready');
    assert.deepEqual(last(2).evaluations[0], sent);
    registry.handle({ type: 'dispose', id: 2 });

    // A fresh engine has none to keep.
    /** @type {any[]} */
    const posted = [];
    const fresh = createRegistry({
      engine: await loadEngine(),
      post: (message) => posted.push(message),
      clock,
      defer: () => {},
    });
    fresh.handle({ type: 'create', id: 3, generation: 1, spec: kept });
    assert.equal(posted.at(-1)?.status, 'failed');
    assert.match(posted.at(-1).error, /needs the word vectors: no earlier run gave them/);
  });

  test('missing or corrupt data gives a failed report with a message, not an exception', () => {
    const { registry, posted, last } = harness();
    const corrupt = Uint8Array.from({ length: 256 }, (_, i) => (i * 53 + 7) & 255);
    /** @type {[string, any, RegExp][]} */
    const cases = [
      ['no data', { ...SPEC, data: undefined }, /./],
      ['empty data', { ...SPEC, data: {} }, /bytes must be a Uint8Array or an ArrayBuffer/],
      ['corrupt vectors', { ...SPEC, data: { ...DATA, vectors: corrupt } }, /ATTNVECS/],
      ['corrupt train', { ...SPEC, data: { ...DATA, train: corrupt } }, /corpus/],
      [
        'cut held-out',
        { ...SPEC, data: { ...DATA, heldOut: DATA.heldOut.subarray(0, 50) } },
        /corpus/,
      ],
      ['no train', { ...SPEC, data: { ...DATA, train: undefined } }, /train must be a Uint8Array/],
      [
        'two models',
        { ...SPEC, models: [{ options: OPTIONS }, { options: OPTIONS }] },
        /trains one model/,
      ],
      [
        'bad options',
        { ...SPEC, models: [{ options: { ...OPTIONS, heads: 3 } }] },
        /heads \(3\) must divide dModel \(16\)/,
      ],
    ];
    for (const [id, [what, spec, message]] of cases.entries()) {
      assert.doesNotThrow(() => registry.handle({ type: 'create', id, generation: 5, spec }), what);
      const report = last(id);
      assert.equal(report?.status, 'failed', what);
      assert.equal(report.generation, 5);
      assert.equal(typeof report.error, 'string', what);
      assert.ok(report.error.length > 0, what);
      assert.match(report.error, message, what);
      // Nothing trained: no step, no loss of any model, no evaluation.
      assert.deepEqual(
        [report.steps, report.planned, report.losses.length, report.evaluations.length],
        [0, SPEC.steps, spec.models.length, 0],
        what,
      );
    }
    assert.equal(registry.size(), 0, 'no run is kept');
    assert.equal(posted.length, cases.length, 'one report each');

    // A run that could not be made replaces the one of its id, which is gone.
    registry.handle({ type: 'create', id: 9, generation: 1, spec: SPEC });
    assert.equal(registry.size(), 1);
    registry.handle({ type: 'create', id: 9, generation: 2, spec: { ...SPEC, data: {} } });
    assert.equal(last(9)?.status, 'failed');
    assert.equal(registry.size(), 0);
  });

  test('dispose ends a running run: no more turns, no more messages', () => {
    const { registry, posted, turns, spin } = harness();
    const spec = { ...SPEC, steps: 2000, evalEvery: 2000 };
    registry.handle({ type: 'create', id: 3, generation: 1, spec });
    registry.handle({ type: 'start', id: 3 });
    spin(() => false, 3);
    assert.ok(turns.length > 0, 'still training');
    registry.handle({ type: 'dispose', id: 3 });
    assert.equal(registry.size(), 0);
    const count = posted.length;
    spin();
    assert.equal(posted.length, count, 'nothing more from the disposed run');
    registry.handle({ type: 'dispose', id: 3 });
    registry.handle({ type: 'start', id: 3 });
    spin();
    assert.equal(posted.length, count, 'commands for it do nothing');
  });

  test('runs beside a reversal run, each to its own plan', () => {
    const { registry, spin, last } = harness();
    const reversal = {
      models: [{ options: { model: 'attention', seed: 4 } }],
      steps: 40,
      evalEvery: 20,
      lengths: [2, 5],
      samples: 20,
    };
    registry.handle({ type: 'create', id: 1, generation: 1, spec: SPEC });
    registry.handle({ type: 'create', id: 2, generation: 1, spec: reversal });
    registry.handle({ type: 'start', id: 1 });
    registry.handle({ type: 'start', id: 2 });
    spin();
    assert.deepEqual(
      [last(1)?.status, last(1)?.steps, last(2)?.status, last(2)?.steps],
      ['done', SPEC.steps, 'done', reversal.steps],
    );
    registry.handle({ type: 'dispose', id: 1 });
    registry.handle({ type: 'dispose', id: 2 });
    assert.equal(registry.size(), 0);
  });
});
