// `npm run bench`: time per call and GFLOP/s of scaled dot-product attention,
// softmax(Q K^T / sqrt(d)) V, with n_q = n_k = n and d_k = d_v = d = 64: the core's own calls,
// timed inside the core natively and in wasm (bench/attention_bench.cpp, built as
// build/native/attn_bench and build/wasm/attn_bench.cjs), the WebAssembly engine through its
// JavaScript facade, and a plain JavaScript baseline (bench/plain-attention.js). The facade's own
// cost is its time less the wasm core's. Flops are counted as 4 n^2 d per call. Then training steps per second, native and wasm, and the time the attention model needs
// in wasm to learn the reversal task (bench/training.js), the page's language model
// (bench/language-model.js) and its two translation models (bench/translation.js). See
// bench/README.md for how to read the output.

import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import createAttentionCore from '../web/src/engine/generated/attention-core.mjs';
import { plainAttention } from './plain-attention.js';
import { measureLanguageModel, printLanguageModel } from './language-model.js';
import { measureTraining, printTraining } from './training.js';
import { measureTranslation, printTranslation } from './translation.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const NATIVE_BENCH = path.join(ROOT, 'build', 'native', 'attn_bench');
const WASM_BENCH = path.join(ROOT, 'build', 'wasm', 'attn_bench.cjs');

const SIZES = [16, 64, 256, 1024];
const D = 64;
// The same seeds as bench/attention_bench.cpp, so that all three see the same numbers.
const SEED_Q = 1;
const SEED_K = 2;
const SEED_V = 3;

// Timing, the same method as the native binary: warm up, size a batch to MIN_SECONDS / MIN_BATCHES,
// run batches until MIN_SECONDS have elapsed and MIN_BATCHES batches ran, take the median.
const MIN_SECONDS = 0.3;
const MIN_BATCHES = 5;
// Longer than natively: the JavaScript compiler needs a few calls to optimise a function.
const WARMUP_SECONDS = 0.1;
const WARMUP_CALLS = 5;
// Rounds of measureInterleaved: one batch of each function per round.
const INTERLEAVED_ROUNDS = 15;

// The agreement the baseline must show with the engine before anything is timed.
const TOLERANCE = 1e-4;

// The core's own attention call in wasm (the core alone: its binding, nothing copied) at n = 256
// reaches 30 GFLOP/s; the facade adds at most 1 µs to it at n = 16.
const GOAL_CORE = { n: 256, gflops: 30 };
const GOAL_FACADE = { n: 16, us: 1 };

/**
 * Floating-point operations of one call: 2 n^2 d for Q K^T and 2 n^2 d for W V.
 *
 * @param {number} n sequence length (n_q = n_k)
 * @param {number} d width (d_k = d_v)
 * @returns {number}
 */
function flopsPerCall(n, d) {
  return 4 * n * n * d;
}

// Folded into after every timed call and printed at the end, so that no call is dead code.
let checksum = 0;

/**
 * Warms a function up for WARMUP_CALLS calls and WARMUP_SECONDS, and sizes a batch of it to last
 * about MIN_SECONDS / MIN_BATCHES.
 *
 * @param {() => { output: Float32Array }} call one attention call; its output feeds the checksum
 * @returns {number} calls per batch
 */
function warmUp(call) {
  let warmupCalls = 0;
  const warmupStart = performance.now();
  while (warmupCalls < WARMUP_CALLS || performance.now() - warmupStart < WARMUP_SECONDS * 1e3) {
    checksum += call().output[0];
    warmupCalls++;
  }
  const estimateMs = (performance.now() - warmupStart) / warmupCalls;
  return Math.max(1, Math.ceil(((MIN_SECONDS / MIN_BATCHES) * 1e3) / estimateMs));
}

/**
 * Runs one batch of a function.
 *
 * @param {() => { output: Float32Array }} call
 * @param {number} perBatch calls in the batch
 * @returns {number} microseconds per call
 */
function timeBatch(call, perBatch) {
  const batchStart = performance.now();
  for (let c = 0; c < perBatch; c++) checksum += call().output[0];
  return ((performance.now() - batchStart) * 1e3) / perBatch;
}

/**
 * Times a function as described at MIN_SECONDS.
 *
 * @param {() => { output: Float32Array }} call one attention call; its output feeds the checksum
 * @returns {{ usPerCall: number, calls: number }} median microseconds per call, timed calls
 */
function measure(call) {
  const perBatch = warmUp(call);
  const perCallUs = [];
  const start = performance.now();
  while (perCallUs.length < MIN_BATCHES || performance.now() - start < MIN_SECONDS * 1e3) {
    perCallUs.push(timeBatch(call, perBatch));
  }
  return { usPerCall: median(perCallUs), calls: perBatch * perCallUs.length };
}

/**
 * Times several functions as measure() does, but in rounds: each round runs one batch of each in
 * turn, and each gets the median of its batches. The machine's slow spells, which here last
 * seconds, then fall on all of them alike instead of on whichever happened to be running, so the
 * columns can be compared with each other.
 *
 * @param {Record<string, () => { output: Float32Array }>} calls one attention call each
 * @returns {Record<string, { usPerCall: number, calls: number, rounds: number[] }>} the same
 *   keys; rounds: the µs per call of each round's batch
 */
function measureInterleaved(calls) {
  const entries = Object.entries(calls).map(([name, call]) => ({
    name,
    call,
    perBatch: warmUp(call),
    perCallUs: /** @type {number[]} */ ([]),
  }));
  for (let round = 0; round < INTERLEAVED_ROUNDS; round++) {
    for (const entry of entries) entry.perCallUs.push(timeBatch(entry.call, entry.perBatch));
  }
  return Object.fromEntries(
    entries.map(({ name, perBatch, perCallUs }) => [
      name,
      { usPerCall: median(perCallUs), calls: perBatch * perCallUs.length, rounds: perCallUs },
    ]),
  );
}

/**
 * @param {number[]} values non-empty
 * @returns {number}
 */
function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/**
 * A result row in the format the native binary prints.
 *
 * @param {string} impl
 * @param {number} n
 * @param {{ usPerCall: number, calls: number }} timing
 * @returns {{ impl: string, n: number, d: number, usPerCall: number, gflops: number,
 *   calls: number }}
 */
function resultOf(impl, n, timing) {
  const gflops = flopsPerCall(n, D) / (timing.usPerCall * 1e3);
  return { impl, n, d: D, usPerCall: timing.usPerCall, gflops, calls: timing.calls };
}

/**
 * Runs attn_bench (the native binary, or its wasm build under this Node) and parses its JSON
 * lines.
 *
 * @param {string} file build/native/attn_bench or build/wasm/attn_bench.cjs
 * @returns {Promise<{ results: object[], note: string }>} results as resultOf makes them, and the
 *   binary's note (compiler, checksum)
 */
function runCoreBench(file) {
  const [command, args] = file.endsWith('.cjs') ? [process.execPath, [file]] : [file, []];
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code, signal) => {
      if (code !== 0) {
        reject(new Error(`${file} failed (${signal ?? `exit code ${code}`}):\n${stderr}`));
        return;
      }
      const results = stdout
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line));
      const note = stderr
        .split('\n')
        .filter((line) => line.startsWith('# '))
        .map((line) => line.slice(2))
        .join('; ');
      resolve({ results, note });
    });
  });
}

/**
 * Loads the engine through the package's own name, as a user would, with a clear message when
 * it has not been built yet.
 *
 * @returns {Promise<object>} the engine facade
 */
async function loadFacade() {
  let loadEngine;
  try {
    ({ loadEngine } = await import('attention-lab'));
  } catch (error) {
    throw new Error(
      `could not load the engine (${error.message}); build it with \`npm run build\``,
      { cause: error },
    );
  }
  return loadEngine();
}

/**
 * The core alone, as the facade calls it: the binding `attention` (wasm/bindings.cpp) of a core of
 * its own, whose buffers already hold the inputs, with nothing copied in or out. The facade's time
 * less this one is the facade's own cost: argument checks, the copies in and out and the result's
 * array. (The call into wasm counts here, with the kernel.)
 *
 * @returns {Promise<(input: { nq: number, nk: number, dk: number, dv: number, q: Float32Array,
 *   k: Float32Array, v: Float32Array }) => () => { output: Float32Array }>}
 */
async function coreAloneCall() {
  const wasmBinary = readFileSync(
    path.join(ROOT, 'web', 'src', 'engine', 'generated', 'attention-core.wasm'),
  );
  const core = await createAttentionCore({ wasmBinary });
  return ({ nq, nk, dk, dv, q, k, v }) => {
    const at = core.attentionBuffers(nq, nk, dk, dv);
    core.HEAPF32.set(q, at.q >> 2);
    core.HEAPF32.set(k, at.k >> 2);
    core.HEAPF32.set(v, at.v >> 2);
    // The output follows the weights (nq, nk) in the results.
    const outputAt = (at.results >> 2) + nq * nk;
    return () => {
      core.attention(nq, nk, dk, dv, true, 1, false, false, true);
      return { output: core.HEAPF32.subarray(outputAt, outputAt + 1) };
    };
  };
}

/**
 * Throws unless the plain baseline and the engine agree within TOLERANCE on every array of the
 * trace, for q: (nq, dk), k: (nk, dk), v: (nk, dv) drawn from the engine's seeded normals.
 *
 * @param {object} engine
 * @param {{ nq: number, nk: number, dk: number, dv: number }} sizes
 */
function checkAgreement(engine, { nq, nk, dk, dv }) {
  const input = {
    q: engine.unitNormal(nq, dk, 11),
    k: engine.unitNormal(nk, dk, 12),
    v: engine.unitNormal(nk, dv, 13),
    nq,
    nk,
    dk,
    dv,
  };
  const expected = engine.attention(input);
  const actual = plainAttention(input);
  for (const name of ['scores', 'scaled', 'masked', 'weights', 'output']) {
    const a = actual[name];
    const e = expected[name];
    if (a.length !== e.length) {
      throw new Error(
        `plain JS and engine disagree on the length of ${name} (${a.length} vs ${e.length}) ` +
          `for nq=${nq}, nk=${nk}, dk=${dk}, dv=${dv}`,
      );
    }
    for (let i = 0; i < a.length; i++) {
      if (!(Math.abs(a[i] - e[i]) <= TOLERANCE)) {
        throw new Error(
          `plain JS and engine disagree on ${name}[${i}]: ${a[i]} vs ${e[i]} (tolerance ` +
            `${TOLERANCE}) for nq=${nq}, nk=${nk}, dk=${dk}, dv=${dv}`,
        );
      }
    }
  }
}

/**
 * @returns {{ node: string, cpu: string, cores: number, load: string }}
 */
function machineInfo() {
  let cpu = os.cpus()[0]?.model ?? 'unknown';
  let cores = os.cpus().length;
  try {
    const cpuinfo = readFileSync('/proc/cpuinfo', 'utf8');
    const model = cpuinfo.match(/^model name\s*:\s*(.*)$/m);
    if (model) cpu = model[1].trim();
    const processors = cpuinfo.match(/^processor\s*:/gm);
    if (processors) cores = processors.length;
  } catch {
    // No /proc (not Linux): keep what os reports.
  }
  const load = os
    .loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');
  return { node: process.version, cpu, cores, load };
}

/**
 * @param {number | undefined} us
 * @returns {string}
 */
function formatUs(us) {
  if (us === undefined) return 'n/a';
  if (us < 10) return us.toFixed(2);
  if (us < 100) return us.toFixed(1);
  return Math.round(us).toLocaleString('en-US');
}

/**
 * @param {number | undefined} gflops
 * @returns {string}
 */
function formatGflops(gflops) {
  if (gflops === undefined) return 'n/a';
  return gflops < 10 ? gflops.toFixed(2) : gflops.toFixed(1);
}

/**
 * @param {number | undefined} ratio
 * @returns {string}
 */
function formatRatio(ratio) {
  if (ratio === undefined || !Number.isFinite(ratio)) return 'n/a';
  return `${ratio < 10 ? ratio.toFixed(2) : ratio.toFixed(1)}x`;
}

/**
 * Prints the table: one row per n, µs/call and GFLOP/s per implementation, then the facade's own
 * cost and the ratios.
 *
 * @param {object[]} results rows as resultOf makes them
 * @param {Map<number, number>} ownUs the facade's own µs per call, by n
 */
function printTable(results, ownUs) {
  const impls = [
    ['native-trace', 'native, new trace'],
    ['native-fast', 'native kernel'],
    ['wasm-fast', 'wasm kernel'],
    ['wasm-core', 'wasm core alone'],
    ['wasm-facade', 'wasm facade'],
    ['wasm-lean', 'facade, no trace'],
    ['plain-js', 'plain JS'],
  ];
  const find = (impl, n) => results.find((r) => r.impl === impl && r.n === n);
  const cell = 20;
  const ratioCell = 12;
  let header1 = ''.padStart(6);
  let header2 = 'n'.padStart(6);
  for (const [, label] of impls) {
    header1 += `  ${label.padStart(cell - 2)}`;
    header2 += `${'µs/call'.padStart(11)}${'GFLOP/s'.padStart(9)}`;
  }
  header1 += `${'facade'.padStart(ratioCell)}${'wasm vs'.padStart(ratioCell)}`;
  header1 += `${'native vs'.padStart(ratioCell)}`;
  header2 += `${'own µs'.padStart(ratioCell)}${'plain JS'.padStart(ratioCell)}`;
  header2 += `${'wasm'.padStart(ratioCell)}`;
  console.log(header1);
  console.log(header2);
  for (const n of SIZES) {
    let line = String(n).padStart(6);
    for (const [impl] of impls) {
      const r = find(impl, n);
      line += `${formatUs(r?.usPerCall).padStart(11)}${formatGflops(r?.gflops).padStart(9)}`;
    }
    const facade = find('wasm-facade', n);
    const core = find('wasm-fast', n);
    const js = find('plain-js', n);
    const fast = find('native-fast', n);
    line += formatUs(ownUs.get(n)).padStart(ratioCell);
    line += formatRatio(facade && js ? js.usPerCall / facade.usPerCall : undefined).padStart(
      ratioCell,
    );
    line += formatRatio(fast && core ? core.usPerCall / fast.usPerCall : undefined).padStart(
      ratioCell,
    );
    console.log(line);
  }
}

/**
 * Runs attn_bench from `file`, or says how to build it and returns no rows.
 *
 * @param {string} file
 * @param {string} build the command that builds it
 * @returns {Promise<{ results: object[], note: string } | null>}
 */
async function coreBenchOrNull(file, build) {
  if (existsSync(file)) return runCoreBench(file);
  console.error(`\n${path.relative(ROOT, file)} is missing: build it with \`${build}\`.`);
  return null;
}

/**
 * Runs everything and prints the report. Resolves to the process exit code.
 *
 * @returns {Promise<number>}
 */
async function main() {
  const info = machineInfo();
  console.log('Scaled dot-product attention benchmark: softmax(Q K^T / sqrt(d)) V');
  console.log(`  n_q = n_k = n, d_k = d_v = d = ${D}; GFLOP/s count 4 n^2 d flops per call`);
  console.log(`  node ${info.node}; CPU ${info.cpu}; ${info.cores} logical cores`);
  console.log(`  load average ${info.load} (other work on the machine slows every column)`);

  const engine = await loadFacade();
  // Before timing anything: the baseline must compute the same thing as the engine.
  checkAgreement(engine, { nq: 5, nk: 7, dk: 3, dv: 4 });
  checkAgreement(engine, { nq: 16, nk: 16, dk: D, dv: D });
  console.log(`  plain JS agrees with the engine within ${TOLERANCE} (checked on 5x7 and 16x16)`);

  // Training first, while its code is still cold in this engine (see bench/training.js).
  console.log('\nTraining the reversal models in wasm...');
  const training = measureTraining(engine);

  let exitCode = 0;
  const results = [];
  const notes = [];
  for (const [file, build] of [
    [NATIVE_BENCH, 'cmake --preset native && cmake --build --preset native'],
    [WASM_BENCH, 'bash scripts/build.sh wasm:attn_bench'],
  ]) {
    console.log(`Running ${path.relative(ROOT, file)}...`);
    const core = await coreBenchOrNull(file, build);
    if (core === null) {
      exitCode = 1;
      continue;
    }
    results.push(...core.results);
    notes.push(`${path.basename(path.dirname(file))}: ${core.note}`);
  }

  console.log('Running the wasm facade and the plain JavaScript baseline...');
  const coreAlone = await coreAloneCall();
  /** @type {Map<number, number>} */
  const ownUs = new Map();
  for (const n of SIZES) {
    const input = {
      q: engine.unitNormal(n, D, SEED_Q),
      k: engine.unitNormal(n, D, SEED_K),
      v: engine.unitNormal(n, D, SEED_V),
      nq: n,
      nk: n,
      dk: D,
      dv: D,
    };
    // The same call returning only weights and output, as a caller that needs no trace makes it.
    // Its arguments are made once, as for the call above: spreading them into a new object on
    // every call would time the spread as well, which at n = 16 costs more than the trace.
    const leanInput = { ...input, trace: false };
    const timed = measureInterleaved({
      'wasm-facade': () => engine.attention(input),
      'wasm-lean': () => engine.attention(leanInput),
      'wasm-core': coreAlone(input),
    });
    for (const [impl, timing] of Object.entries(timed)) results.push(resultOf(impl, n, timing));
    // The facade's own cost: the median over the rounds of its time less the core's in the same
    // round, which a slow spell of the machine shifts less than a difference of two medians.
    const core = timed['wasm-core'].rounds;
    ownUs.set(n, median(timed['wasm-facade'].rounds.map((us, round) => us - core[round])));
    const js = measure(() => plainAttention(input));
    results.push(resultOf('plain-js', n, js));
  }
  // The facade's fixed cost: the smallest call it accepts (n = d = 1) does all the per-call work
  // (argument checks, the crossing into wasm, the copies in and out, the views onto the result)
  // and almost no arithmetic.
  const one = {
    q: Float32Array.of(0.5),
    k: Float32Array.of(0.25),
    v: Float32Array.of(2),
    nq: 1,
    nk: 1,
    dk: 1,
    dv: 1,
  };
  const fixed = measure(() => engine.attention(one));

  console.log('');
  printTable(results, ownUs);
  console.log('\nThe kernels write the whole trace into buffers kept from call to call, timed');
  console.log('inside the core; the core alone is the same kernel called from JavaScript through');
  console.log("its binding, inputs already in place. The facade's own µs are its time less the");
  console.log("core alone's, round by round (the median): argument checks, the copies in and out,");
  console.log("the result's array. Ratios compare times per call (above 1x: the first named is");
  console.log('faster).');

  const find = (/** @type {string} */ impl, /** @type {number} */ n) =>
    results.find((r) => r.impl === impl && r.n === n);
  const small = find('wasm-facade', GOAL_FACADE.n);
  const coreSmall = find('wasm-core', GOAL_FACADE.n);
  const kernelSmall = find('wasm-fast', GOAL_FACADE.n);
  const splitRow = (/** @type {string} */ label, /** @type {number} */ us) =>
    console.log(`  ${label.padEnd(44)}${formatUs(us).padStart(8)} µs`);
  console.log(`\nFacade call at n = ${GOAL_FACADE.n}, split:`);
  splitRow('whole call', small.usPerCall);
  splitRow('the core alone (the binding, nothing copied)', coreSmall.usPerCall);
  if (kernelSmall) splitRow('the wasm kernel (timed inside wasm)', kernelSmall.usPerCall);
  splitRow('the facade at n = d = 1 (almost no arithmetic)', fixed.usPerCall);

  const trainingGoal = printTraining(training, results);
  const languageModelGoal = printLanguageModel(await measureLanguageModel(ROOT));
  const translationGoal = printTranslation(await measureTranslation(ROOT));

  console.log('\nGoals:');
  const core = find('wasm-core', GOAL_CORE.n);
  console.log(
    `  the core's own attention call in wasm reaches ${GOAL_CORE.gflops} GFLOP/s at n = ` +
      `${GOAL_CORE.n}: ` +
      (core
        ? `${core.gflops >= GOAL_CORE.gflops ? 'met' : 'NOT met'} (${formatGflops(core.gflops)})`
        : 'not measured'),
  );
  const own = /** @type {number} */ (ownUs.get(GOAL_FACADE.n));
  console.log(
    `  the facade adds at most ${GOAL_FACADE.us} µs to the core alone at n = ${GOAL_FACADE.n}: ` +
      `${own <= GOAL_FACADE.us ? 'met' : 'NOT met'} (${formatUs(own)} µs)`,
  );

  console.log(trainingGoal);
  console.log(languageModelGoal);
  console.log(translationGoal);

  notes.unshift(`checksum ${checksum.toPrecision(9)}`);
  console.log(`\n(${notes.join('; ')})`);
  return exitCode;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error) => {
    console.error(`\nbench failed: ${error.message}`);
    process.exitCode = 1;
  },
);
