// `npm run bench:compare -- DIR`: what a learner waits for, timed in this checkout and in another
// one at DIR (an earlier commit, its engine built), in interleaved rounds, so that a change is
// reported as a ratio against the state before it on the same machine at the same moment:
//   1. engine.attention() at n = 16, 64 and 256, d = 64, with the trace (the page's figures);
//   2. the trained language model's run() of 64 tokens, read whole and after a letter typed at
//      the end;
//   3. a training step of the reversal models (attention and fixed vector) and of the language
//      model's live sibling, in wasm.
// Each round runs one batch of every side in turn, the two sides' order alternating from round to
// round; each side gets the median of its batches. bench/README.md has the method.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

import { benchTexts, loadLiveCorpus, runsInTurn } from './language-model.js';
import { percentile } from './ui-report.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const ROUNDS = 15;
// A batch lasts about this long; a round about twice it.
const BATCH_MS = 60;
const D = 64;

/**
 * The engine, the language model and the live corpus of the checkout at `root`.
 * @param {string} root
 */
async function loadSide(root) {
  const entry = path.join(root, 'web', 'src', 'engine', 'node.js');
  const wasm = path.join(root, 'web', 'src', 'engine', 'generated', 'attention-core.wasm');
  if (!existsSync(wasm)) {
    throw new Error(`${root} has no built engine: run \`bash scripts/setup.sh serve\` there`);
  }
  const { loadEngine, loadLanguageModel } = await import(pathToFileURL(entry).href);
  const engine = await loadEngine();
  const model = await loadLanguageModel();
  const live = await loadLiveCorpus(engine, root);
  return { engine, model, live };
}

/**
 * The calls to time on one side, by name; each returns something that depends on its work.
 * @param {Awaited<ReturnType<typeof loadSide>>} side
 * @returns {{ calls: Record<string, () => unknown>, dispose: () => void }}
 */
function callsOf({ engine, model, live }) {
  /** @type {Record<string, () => unknown>} */
  const calls = {};
  for (const n of [16, 64, 256]) {
    const input = {
      q: engine.unitNormal(n, D, 1),
      k: engine.unitNormal(n, D, 2),
      v: engine.unitNormal(n, D, 3),
      nq: n,
      nk: n,
      dk: D,
      dv: D,
    };
    calls[`attention, n = ${n}`] = () => engine.attention(input).output[0];
  }
  const texts = benchTexts(64);
  calls['language model run(), 64 tokens read whole'] = runsInTurn(model, texts.whole);
  calls['language model run(), a letter typed at the end'] = runsInTurn(model, texts.typed);
  const reversal = {
    attention: engine.createTraining({ model: 'attention' }),
    fixed: engine.createTraining({ model: 'fixed' }),
  };
  calls['reversal step, attention'] = () => reversal.attention.step(1);
  calls['reversal step, fixed vector'] = () => reversal.fixed.step(1);
  const lm = engine.createLanguageModelTraining(live.train, live.heldOut, {});
  calls['live language model step'] = () => lm.step(1);
  return {
    calls,
    dispose: () => {
      reversal.attention.dispose();
      reversal.fixed.dispose();
      lm.dispose();
    },
  };
}

/**
 * Calls in a batch of about BATCH_MS, after about that long of warm-up.
 * @param {() => unknown} call
 */
function batchSize(call) {
  const start = performance.now();
  let calls = 0;
  while (calls < 3 || performance.now() - start < BATCH_MS) {
    call();
    calls++;
  }
  return Math.max(1, Math.round((BATCH_MS * calls) / (performance.now() - start)));
}

/**
 * Milliseconds per call over one batch.
 * @param {() => unknown} call
 * @param {number} size
 */
function timeBatch(call, size) {
  const start = performance.now();
  for (let i = 0; i < size; i++) call();
  return (performance.now() - start) / size;
}

/** @param {number} ms */
function formatTime(ms) {
  if (ms < 0.01) return `${(ms * 1e3).toFixed(2)} µs`;
  if (ms < 1) return `${(ms * 1e3).toFixed(1)} µs`;
  return `${ms.toFixed(2)} ms`;
}

async function main() {
  const before = process.argv[2];
  if (!before) {
    console.error('usage: npm run bench:compare -- DIR (another checkout, its engine built)');
    return 2;
  }
  const beforeRoot = path.resolve(before);
  console.log(`Interleaved rounds: this checkout (after) against ${beforeRoot} (before)`);
  const sides = {
    before: callsOf(await loadSide(beforeRoot)),
    after: callsOf(await loadSide(ROOT)),
  };
  console.log(`  ${ROUNDS} rounds of a ~${BATCH_MS} ms batch a side; medians of the batches`);
  console.log(
    `\n  ${'call'.padEnd(34)}${'before'.padStart(12)}${'after'.padStart(12)}` +
      `${'after/before'.padStart(14)}`,
  );
  try {
    for (const name of Object.keys(sides.after.calls)) {
      const pair = [sides.before.calls[name], sides.after.calls[name]];
      if (!pair[0]) {
        console.log(`  ${name.padEnd(34)}${'n/a'.padStart(12)}`);
        continue;
      }
      const sizes = pair.map(batchSize);
      const times = [/** @type {number[]} */ ([]), /** @type {number[]} */ ([])];
      for (let round = 0; round < ROUNDS; round++) {
        const order = round % 2 === 0 ? [0, 1] : [1, 0];
        for (const i of order) times[i].push(timeBatch(pair[i], sizes[i]));
      }
      // ROUNDS is odd, so the nearest-rank 50th percentile is the middle batch.
      const [was, is] = times.map((batches) => percentile(batches, 50));
      console.log(
        `  ${name.padEnd(34)}${formatTime(was).padStart(12)}${formatTime(is).padStart(12)}` +
          `${(is / was).toFixed(3).padStart(14)}`,
      );
    }
  } finally {
    sides.before.dispose();
    sides.after.dispose();
  }
  console.log('\n  after/before below 1: this checkout is faster.');
  return 0;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error) => {
    console.error(`bench:compare failed: ${error.message}`);
    process.exitCode = 1;
  },
);
