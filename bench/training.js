// The training part of `npm run bench`: steps per second of the reversal models (native from
// build/native/attn_bench, wasm through engine.createTraining), and how many steps and seconds the
// attention model needs in wasm to reverse every length from 2 to 12 with at least 95%
// whole-sequence accuracy, with the fixed-vector model's accuracy after as many steps. See
// bench/README.md.

// The lengths the default task trains on, the accuracy to reach on each, and the time to reach it
// in (measured as training time, evaluation excluded).
const LENGTHS = [2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12];
export const GOAL_TRAINING = { accuracy: 0.95, seconds: 20 };
// Steps between evaluations, held-out sequences per length, and the most steps to try.
const CHUNK = 25;
const SAMPLES = 200;
const MAX_STEPS = 4000;

const MODELS = [
  ['attention', 'attention (scaled dot)'],
  ['fixed', 'fixed vector'],
];

/**
 * Median microseconds per training step of the default model of one kind, in wasm: warm up for
 * 0.3 s, then time 7 batches of about 0.1 s each.
 * @param {import('../web/src/engine/index.js').Engine} engine
 * @param {'attention' | 'fixed'} model
 * @returns {{ usPerStep: number, steps: number }}
 */
function wasmStepTime(engine, model) {
  const training = engine.createTraining({ model });
  let steps = 0;
  const warmupStart = performance.now();
  while (performance.now() - warmupStart < 300) steps += training.step(5).length;
  const perBatch = Math.max(1, Math.round((100 * steps) / (performance.now() - warmupStart)));
  const times = [];
  let timed = 0;
  for (let b = 0; b < 7; b++) {
    const start = performance.now();
    timed += training.step(perBatch).length;
    times.push(((performance.now() - start) * 1e3) / perBatch);
  }
  training.dispose();
  times.sort((a, b) => a - b);
  return { usPerStep: times[3], steps: timed };
}

/**
 * Trains the default attention model in chunks of CHUNK steps, evaluating after each, until every
 * length reaches the goal's accuracy; then the fixed-vector model for as many steps.
 * @param {import('../web/src/engine/index.js').Engine} engine
 */
function timeToAccuracy(engine) {
  const training = engine.createTraining();
  let trainingMs = 0;
  let evaluatingMs = 0;
  let result = null;
  while (training.steps < MAX_STEPS) {
    let start = performance.now();
    training.step(CHUNK);
    trainingMs += performance.now() - start;
    start = performance.now();
    result = training.evaluate(LENGTHS, SAMPLES);
    evaluatingMs += performance.now() - start;
    if (result.sequenceAccuracy.every((a) => a >= GOAL_TRAINING.accuracy)) break;
  }
  const steps = training.steps;
  const reached = result.sequenceAccuracy.every((a) => a >= GOAL_TRAINING.accuracy);
  training.dispose();

  const fixed = engine.createTraining({ model: 'fixed' });
  fixed.step(steps);
  const fixedResult = fixed.evaluate(LENGTHS, SAMPLES);
  fixed.dispose();
  return { steps, reached, trainingMs, evaluatingMs, attention: result, fixed: fixedResult };
}

/**
 * Runs the wasm measurements. Call it before anything else runs training code, so that the time
 * to accuracy starts cold, as a learner's first click does (the engine compiles hot functions
 * further while they run).
 * @param {import('../web/src/engine/index.js').Engine} engine
 */
export function measureTraining(engine) {
  const accuracy = timeToAccuracy(engine);
  const wasm = Object.fromEntries(MODELS.map(([model]) => [model, wasmStepTime(engine, model)]));
  return { accuracy, wasm };
}

/**
 * Prints the training section of the report and its goal.
 * @param {ReturnType<typeof measureTraining>} measured
 * @param {object[]} nativeResults attn_bench's lines, native and wasm; those with impl
 *   'native-train' and 'wasm-train' are used
 */
export function printTraining({ accuracy, wasm }, nativeResults) {
  console.log(
    '\nTraining: the reversal task (lengths 2 to 12, 8 symbols, batches of 32, d_model 32)',
  );
  console.log(
    `  ${'steps per second'.padEnd(26)}${'native'.padStart(10)}${'wasm core'.padStart(11)}` +
      `${'wasm facade'.padStart(13)}`,
  );
  for (const [model, label] of MODELS) {
    const row = (/** @type {string} */ impl) =>
      nativeResults.find((r) => r.impl === impl && r.model === model);
    const perSecond = (/** @type {number | undefined} */ us) =>
      us === undefined ? 'n/a' : Math.round(1e6 / us).toLocaleString('en-US');
    console.log(
      `  ${label.padEnd(26)}${perSecond(row('native-train')?.usPerStep).padStart(10)}` +
        `${perSecond(row('wasm-train')?.usPerStep).padStart(11)}` +
        `${perSecond(wasm[model].usPerStep).padStart(13)}`,
    );
  }

  const seconds = accuracy.trainingMs / 1e3;
  console.log(
    `\n  attention model, wasm, from a cold start: ${accuracy.reached ? '' : 'NOT '}at least ` +
      `${GOAL_TRAINING.accuracy * 100}% whole-sequence accuracy on every length after ` +
      `${accuracy.steps} steps, ${seconds.toFixed(2)} s of training ` +
      `(+ ${(accuracy.evaluatingMs / 1e3).toFixed(2)} s evaluating every ${CHUNK} steps)`,
  );
  console.log(
    `  held-out whole-sequence accuracy after ${accuracy.steps} steps (${SAMPLES} per length):`,
  );
  const cell = (/** @type {number} */ a) => a.toFixed(2).padStart(6);
  console.log(`  ${'length'.padEnd(12)}${LENGTHS.map((n) => String(n).padStart(6)).join('')}`);
  console.log(
    `  ${'attention'.padEnd(12)}${Array.from(accuracy.attention.sequenceAccuracy, cell).join('')}`,
  );
  console.log(
    `  ${'fixed vector'.padEnd(12)}${Array.from(accuracy.fixed.sequenceAccuracy, cell).join('')}`,
  );
  console.log(
    `  ${'(per symbol)'.padEnd(12)}${Array.from(accuracy.fixed.symbolAccuracy, cell).join('')}`,
  );

  const met = accuracy.reached && seconds <= GOAL_TRAINING.seconds;
  return (
    `  the attention model reaches ${GOAL_TRAINING.accuracy * 100}% on lengths 2 to 12 within ` +
    `${GOAL_TRAINING.seconds} s of training in wasm: ${met ? 'met' : 'NOT met'} ` +
    `(${accuracy.steps} steps, ${seconds.toFixed(2)} s)`
  );
}
