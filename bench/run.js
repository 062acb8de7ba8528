// `npm run bench`: time per call and GFLOP/s of scaled dot-product attention,
// softmax(Q K^T / sqrt(d)) V, with n_q = n_k = n and d_k = d_v = d = 64, for three
// implementations: the native core (Eigen reference path and SIMD-shaped kernel, run as the
// separate binary build/native/attn_bench), the WebAssembly engine through its JavaScript facade,
// and a plain JavaScript baseline (bench/plain-attention.js). Flops are counted as 4 n^2 d per
// call. Then training steps per second, native and wasm, and the time the attention model needs
// in wasm to learn the reversal task (bench/training.js), the page's language model
// (bench/language-model.js) and its two translation models (bench/translation.js). See
// bench/README.md for how to read the output.

import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { createEngine } from '../web/src/engine/engine.js';
import createAttentionCore from '../web/src/engine/generated/attention-core.mjs';
import { plainAttention } from './plain-attention.js';
import { measureLanguageModel, printLanguageModel } from './language-model.js';
import { measureTraining, printTraining } from './training.js';
import { measureTranslation, printTranslation } from './translation.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const NATIVE_BENCH = path.join(ROOT, 'build', 'native', 'attn_bench');

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
const INTERLEAVED_ROUNDS = 9;

// The agreement the baseline must show with the engine before anything is timed.
const TOLERANCE = 1e-4;

// GFLOP/s the facade must reach at these sizes, with the trace and without it.
const GOAL_THROUGHPUT = { sizes: [256, 1024], trace: 30, lean: 35 };
const GOAL_LATENCY = { n: 16, us: 3 };

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
 * @returns {Record<string, { usPerCall: number, calls: number }>} the same keys
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
      { usPerCall: median(perCallUs), calls: perBatch * perCallUs.length },
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
 * Runs build/native/attn_bench and parses its JSON lines.
 *
 * @returns {Promise<{ results: object[], note: string }>} results as resultOf makes them, and the
 *   binary's note (compiler, checksum)
 */
function runNative() {
  return new Promise((resolve, reject) => {
    const child = spawn(NATIVE_BENCH, [], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code, signal) => {
      if (code !== 0) {
        reject(new Error(`${NATIVE_BENCH} failed (${signal ?? `exit code ${code}`}):\n${stderr}`));
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
 * What the facade's time is made of: the same engine in a core of its own, whose attention entry
 * points (the plain exports the facade calls, one per chunk of query rows) are then timed on their
 * own with the inputs already in wasm memory, nothing copied in or out. The difference to the facade's time is the facade's
 * share: argument checks, the copies in, and the copies out.
 *
 * @returns {Promise<(input: object, trace: boolean) => () => { output: Float32Array }>} a call of
 *   the core alone on these inputs, with or without the trace
 */
async function coreAloneCall() {
  const wasmBinary = readFileSync(
    path.join(ROOT, 'web', 'src', 'engine', 'generated', 'attention-core.wasm'),
  );
  const core = await createAttentionCore({ wasmBinary });
  const engine = createEngine(core);
  return (input, trace) => {
    engine.attention(input); // sizes the buffers and copies the inputs in, once
    const { nq, nk, dk, dv } = input;
    // The table of buffers (wasm/workspace.hpp): slot 4 holds the results' place in wasm memory
    // (the output of the first chunk follows its weights), slot 5 the query rows per chunk.
    const table = core.attentionPrepare(nq, nk, dk, dv) >> 2;
    const chunkRows = core.HEAPU32[table + 5];
    const outputAt = (core.HEAPU32[table + 4] >> 2) + chunkRows * nk;
    const result = { output: core.HEAPF32.subarray(outputAt, outputAt + 1) };
    const flag = trace ? 1 : 0;
    return () => {
      let failure = core._attn_attention_start(nq, nk, dk, dv, 1, 1, 0, 0, flag);
      for (let first = chunkRows; failure === 0 && first < nq; first += chunkRows) {
        failure = core._attn_attention_rows(first);
      }
      if (failure !== 0) throw new Error('the core refused the benchmark inputs');
      return result;
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
 * Prints the table: one row per n, µs/call and GFLOP/s per implementation, and the ratios.
 *
 * @param {object[]} results rows as resultOf makes them
 */
function printTable(results) {
  const impls = [
    ['native-ref', 'native ref'],
    ['native-fast', 'native fast'],
    ['wasm-facade', 'wasm facade'],
    ['wasm-lean', 'wasm, no trace'],
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
  header1 += `${'wasm vs'.padStart(ratioCell)}${'native fast'.padStart(ratioCell)}`;
  header2 += `${'plain JS'.padStart(ratioCell)}${'vs wasm'.padStart(ratioCell)}`;
  console.log(header1);
  console.log(header2);
  for (const n of SIZES) {
    let line = String(n).padStart(6);
    for (const [impl] of impls) {
      const r = find(impl, n);
      line += `${formatUs(r?.usPerCall).padStart(11)}${formatGflops(r?.gflops).padStart(9)}`;
    }
    const wasm = find('wasm-facade', n);
    const js = find('plain-js', n);
    const fast = find('native-fast', n);
    const wasmVsJs = wasm && js ? js.usPerCall / wasm.usPerCall : undefined;
    const nativeVsWasm = fast && wasm ? wasm.usPerCall / fast.usPerCall : undefined;
    line += formatRatio(wasmVsJs).padStart(ratioCell);
    line += formatRatio(nativeVsWasm).padStart(ratioCell);
    console.log(line);
  }
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
  let nativeNote = '';
  if (existsSync(NATIVE_BENCH)) {
    console.log('\nRunning the native benchmark...');
    const native = await runNative();
    results.push(...native.results);
    nativeNote = native.note;
  } else {
    console.error(
      `\n${path.relative(ROOT, NATIVE_BENCH)} is missing: build it with ` +
        '`cmake --preset native && cmake --build --preset native` (native columns show n/a).',
    );
    exitCode = 1;
  }

  console.log('Running the wasm facade and the plain JavaScript baseline...');
  const coreAlone = await coreAloneCall();
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
    // The same two calls refilling the arrays of an earlier result (`into`), as a figure that
    // recomputes while the learner types makes them: the copies out go into memory already in
    // use instead of a new array.
    const intoInput = { ...input, into: engine.attention(input) };
    const leanIntoInput = { ...leanInput, into: engine.attention(leanInput) };
    const timed = measureInterleaved({
      'wasm-facade': () => engine.attention(input),
      'wasm-lean': () => engine.attention(leanInput),
      'wasm-into': () => engine.attention(intoInput),
      'wasm-lean-into': () => engine.attention(leanIntoInput),
      'wasm-core': coreAlone(input, true),
      'wasm-core-lean': coreAlone(input, false),
    });
    for (const [impl, timing] of Object.entries(timed)) results.push(resultOf(impl, n, timing));
    const js = measure(() => plainAttention(input));
    results.push(resultOf('plain-js', n, js));
  }
  // The facade's fixed cost: the smallest call it accepts (n = d = 1) does all the per-call work
  // (argument checks, copies in and out, the crossing into wasm, one copy of the results and the
  // views into it) and almost no arithmetic.
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
  printTable(results);
  console.log('\nThe wasm facade refilling an earlier result (`into`) instead of new arrays, and');
  console.log('the core alone (the same entry point the facade calls, inputs already in wasm');
  console.log('memory, nothing copied in or out):');
  const columns = [
    ['wasm-into', 'into, trace'],
    ['wasm-lean-into', 'into, no trace'],
    ['wasm-core', 'core, trace'],
    ['wasm-core-lean', 'core, no trace'],
  ];
  console.log(`${'n'.padStart(6)}${columns.map(([, title]) => title.padStart(20)).join('')}`);
  console.log(`${''.padStart(6)}${columns.map(() => 'µs/call GFLOP/s'.padStart(20)).join('')}`);
  for (const n of SIZES) {
    let line = String(n).padStart(6);
    for (const [impl] of columns) {
      const r = results.find((row) => row.impl === impl && row.n === n);
      line += `${formatUs(r?.usPerCall).padStart(11)}${formatGflops(r?.gflops).padStart(9)}`;
    }
    console.log(line);
  }
  console.log('\nRatios compare times per call (above 1x: the first named is faster):');
  console.log(
    '  wasm vs plain JS = JS time / wasm time; native fast vs wasm = wasm / native time.',
  );

  const small = results.find((r) => r.impl === 'wasm-facade' && r.n === GOAL_LATENCY.n);
  const nativeSmall = results.find((r) => r.impl === 'native-fast' && r.n === GOAL_LATENCY.n);
  const splitRow = (/** @type {string} */ label, /** @type {number} */ us) =>
    console.log(`  ${label.padEnd(44)}${formatUs(us).padStart(8)} µs`);
  console.log(`\nFacade call at n = ${GOAL_LATENCY.n}, split:`);
  splitRow('whole call', small.usPerCall);
  splitRow('fixed cost (the same call with n = d = 1)', fixed.usPerCall);
  splitRow('size-dependent part (the difference)', small.usPerCall - fixed.usPerCall);
  const coreSmall = results.find((r) => r.impl === 'wasm-core' && r.n === GOAL_LATENCY.n);
  if (coreSmall) splitRow('of which the core alone (no copies)', coreSmall.usPerCall);
  console.log('    (the size-dependent part is the arithmetic plus the copies in and out that');
  console.log('    grow with n and d; the fixed part is argument checks, the calls into wasm and');
  console.log('    making the new result arrays)');
  if (nativeSmall) splitRow('native fast path, whole call, for comparison', nativeSmall.usPerCall);

  const trainingGoal = printTraining(training, results);
  const languageModelGoal = printLanguageModel(await measureLanguageModel(ROOT));
  const translationGoal = printTranslation(await measureTranslation(ROOT));

  console.log('\nGoals:');
  for (const n of GOAL_THROUGHPUT.sizes) {
    for (const [impls, label, goal] of [
      [['wasm-facade', 'wasm-into'], 'with the trace', GOAL_THROUGHPUT.trace],
      [['wasm-lean', 'wasm-lean-into'], 'without the trace (trace: false)', GOAL_THROUGHPUT.lean],
    ]) {
      const [fresh, into] = impls.map((impl) => results.find((r) => r.impl === impl && r.n === n));
      const verdict = (/** @type {{ gflops: number }} */ row) =>
        `${row.gflops >= goal ? 'met' : 'NOT met'} (${formatGflops(row.gflops)} GFLOP/s)`;
      console.log(
        `  wasm engine reaches ${goal} GFLOP/s at n = ${n} ${label}: ` +
          `into new arrays ${verdict(fresh)}, refilling a result ${verdict(into)}`,
      );
    }
  }
  const smallInto = results.find((r) => r.impl === 'wasm-into' && r.n === GOAL_LATENCY.n);
  const latencyVerdict = (/** @type {{ usPerCall: number }} */ row) =>
    `${row.usPerCall <= GOAL_LATENCY.us ? 'met' : 'NOT met'} (${formatUs(row.usPerCall)} µs)`;
  console.log(
    `  a facade call at n = ${GOAL_LATENCY.n} takes at most ${GOAL_LATENCY.us} µs: ` +
      `into new arrays ${latencyVerdict(small)}, refilling a result ${latencyVerdict(smallInto)}`,
  );
  const leanSmall = results.find((r) => r.impl === 'wasm-lean' && r.n === GOAL_LATENCY.n);
  console.log(
    `  (the same call with trace: false: ${formatUs(leanSmall.usPerCall)} µs at n = ` +
      `${GOAL_LATENCY.n})`,
  );

  console.log(trainingGoal);
  console.log(languageModelGoal);
  console.log(translationGoal);

  const notes = [`checksum ${checksum.toPrecision(9)}`];
  if (nativeNote) notes.push(`native: ${nativeNote}`);
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
