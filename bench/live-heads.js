// `npm run bench:live`: the page's live training of the small language model, in wasm under Node
// (the same module and the same numbers as the page's worker, which tests/e2e/live-training.test.js
// checks): the default sibling (web/src/engine/lm-training.js) trains for its planned steps, its
// heads measured every 100 steps as the page measures them. Prints each measurement, the first
// step at which a head of layer 1 is a previous-token head (score >= 0.5) and one of layer 2 an
// induction head (>= 0.4), and the training time per step and tokens per second (measurements
// excluded). bench/README.md says how to read it; docs/language-model.md quotes it.
//
//   node bench/live-heads.js [--steps N] [--seed N]
import { readFile } from 'node:fs/promises';
import process from 'node:process';

import { loadEngine } from '../web/src/engine/node.js';
import { LM_TRAINING_DEFAULTS } from '../web/src/engine/lm-training.js';

const EVERY = 100;
const publicFile = (/** @type {string} */ path) =>
  readFile(new URL(`../web/public/${path}`, import.meta.url));

/** @param {string} name @param {number} fallback @returns {number} the flag's number, or fallback */
function flagValue(name, fallback) {
  const at = process.argv.indexOf(name);
  return at >= 0 ? Number(process.argv[at + 1]) : fallback;
}
const steps = flagValue('--steps', LM_TRAINING_DEFAULTS.steps);
if (!Number.isInteger(steps) || steps < EVERY) throw new Error(`--steps must be >= ${EVERY}`);
const seed = flagValue('--seed', LM_TRAINING_DEFAULTS.seed);

const engine = await loadEngine();
engine.loadEmbeddings(await publicFile('embeddings/en-20k-100d.bin'));
const training = engine.createLanguageModelTraining(
  await publicFile('models/brown-live-train.bin'),
  await publicFile('models/brown-live-heldout.bin'),
  { seed },
);
const { batch, context } = training.options;
console.log(`options ${JSON.stringify(training.options)}`);
console.log(`parameters ${training.info.parameters}, train tokens ${training.info.trainTokens}`);

/** @type {Record<string, number | null>} */
const first = { 'previous-token': null, induction: null };
let trainingMs = 0;
const name = (/** @type {{ layer: number, head: number }} */ h) => `${h.layer + 1}.${h.head + 1}`;
while (training.steps < steps) {
  const start = performance.now();
  const losses = training.step(Math.min(EVERY, steps - training.steps));
  trainingMs += performance.now() - start;
  const heads = training.measure();
  for (const head of heads) {
    const job = head.layer === 0 ? 'previous-token' : 'induction';
    if (head.kind === job && first[job] === null) first[job] = training.steps;
  }
  const mean = losses.reduce((sum, x) => sum + x, 0) / losses.length;
  console.log(
    `step ${String(training.steps).padStart(5)}  loss ${mean.toFixed(3)}  ` +
      heads
        .map(
          (h) =>
            `${name(h)} prev ${h.previousToken.toFixed(2)} ind ${h.induction.toFixed(2)} ${h.kind}`,
        )
        .join(' | '),
  );
}
training.dispose();
const msPerStep = trainingMs / steps;
console.log(
  `\nfirst previous-token head in layer 1: ${first['previous-token'] ?? 'none'}; ` +
    `first induction head in layer 2: ${first.induction ?? 'none'} (steps, measured every ${EVERY})`,
);
console.log(
  `training: ${msPerStep.toFixed(1)} ms a step of ${batch} x ${context} tokens, ` +
    `${Math.round((batch * context * 1000) / msPerStep).toLocaleString('en-US')} tokens/s ` +
    `(load average ${(await loadAverage()).toFixed(2)})`,
);

/** @returns {Promise<number>} the one-minute load average, NaN where unknown */
async function loadAverage() {
  const os = await import('node:os');
  return os.loadavg()[0];
}
