// The translation part of `npm run bench`: the page's English-to-German models (loadTranslator)
// in wasm, translate() of a fixed 20-word sentence (tokenizing, the core's encoder and decoder,
// the words, weights and scores copied out), median and p90 over single calls: lesson 1's two
// greedy against the goal of 10 ms and with a beam of 4 against 40 ms, lesson 2's Transformer
// (every layer's and head's cross-attention copied out too) greedy against 15 ms; and, natively (build/native/attn_translator_bench), the same
// sentence's translation and training speed in tokens per second at the committed batch size;
// and in wasm, a training step of lesson 1's attention translator and of the Transformer on the
// page's timing batch (engine.createTranslatorTiming, as lesson 2's recurrence slide times it),
// the two in turn, median over the steps. See bench/README.md.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** Timed training steps of each model in wasm, after one warm-up step each. */
export const WASM_TRAINING_STEPS = 5;

export const GOAL_TRANSLATE = { words: 20, ms: 10, beam: 4, beamMs: 40 };

/** The Transformer's goal for the same sentence, greedy (issue 47); its beam is timed, no goal. */
export const GOAL_TRANSFORMER_MS = 15;

/** The models timed, and each one's greedy goal in ms. */
const MODELS = /** @type {const} */ ([
  ['attention', GOAL_TRANSLATE.ms],
  ['fixed-vector', GOAL_TRANSLATE.ms],
  ['transformer', GOAL_TRANSFORMER_MS],
]);

/** 20 words and a full stop: 21 tokens. bench/translator_bench.cpp translates the same tokens. */
export const TRANSLATION_SENTENCE =
  'The old man said that he would open the small window in the kitchen because the room was ' +
  'too warm.';

/** Calls timed one by one after the warm-up. */
const RUNS = 200;

/**
 * Median and p90 (nearest rank) of single calls of `call`, in ms, after 0.3 s and at least 20
 * calls of warm-up.
 * @param {() => unknown} call
 */
function latency(call) {
  const warm = performance.now();
  for (let calls = 0; calls < 20 || performance.now() - warm < 300; calls++) call();
  const times = [];
  for (let i = 0; i < RUNS; i++) {
    const start = performance.now();
    call();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  const rank = (/** @type {number} */ share) => times[Math.ceil(share * times.length) - 1];
  return { median: rank(0.5), p90: rank(0.9) };
}

/**
 * @param {string} root the repository
 */
export async function measureTranslation(root) {
  const { loadTranslator } = await import('attention-lab');
  const wasm = [];
  for (const [model, goalMs] of MODELS) {
    const translator = await loadTranslator({ model });
    const result = translator.translate(TRANSLATION_SENTENCE);
    const words = result.source.filter((token) => /\p{L}/u.test(token)).length;
    if (words !== GOAL_TRANSLATE.words) {
      throw new Error(`the bench sentence has ${words} words, not ${GOAL_TRANSLATE.words}`);
    }
    const { median, p90 } = latency(() => translator.translate(TRANSLATION_SENTENCE));
    const beamOptions = { beam: GOAL_TRANSLATE.beam };
    const beamed = translator.translate(TRANSLATION_SENTENCE, beamOptions);
    const beam = latency(() => translator.translate(TRANSLATION_SENTENCE, beamOptions));
    wasm.push({
      model,
      goalMs,
      tokens: result.source.length,
      written: result.target.length,
      median,
      p90,
      beam: { written: beamed.target.length, median: beam.median, p90: beam.p90 },
    });
  }
  const binary = path.join(root, 'build', 'native', 'attn_translator_bench');
  const native = existsSync(binary) ? await runJsonLines(binary, ['5'], root) : null;
  return { wasm, native, training: await measureWasmTraining(root) };
}

/**
 * A training step of each translator in wasm, as the recurrence slide times it: both built from
 * seed 1 on the timing batch, one warm-up step each, then WASM_TRAINING_STEPS steps each, the two
 * in turn; each step's wall time around the engine's call.
 * @param {string} root the repository
 */
export async function measureWasmTraining(root) {
  const { loadEngine } = await import('attention-lab');
  const read = (/** @type {string} */ file) =>
    new Uint8Array(readFileSync(path.join(root, 'web', 'public', file)));
  const engine = await loadEngine();
  engine.loadEmbeddings(read('embeddings/en-20k-100d.bin'));
  const timing = engine.createTranslatorTiming(read('models/translation-timing.bin'));
  const models = /** @type {const} */ (['attention', 'transformer']);
  /** @type {number[][]} */
  const times = models.map(() => []);
  try {
    for (const model of models) timing.step(model);
    for (let i = 0; i < WASM_TRAINING_STEPS; i++) {
      models.forEach((model, m) => {
        const start = performance.now();
        timing.step(model);
        times[m].push(performance.now() - start);
      });
    }
    const { pairs, englishTokens, germanTokens } = timing.info;
    return models.map((model, m) => ({
      model,
      pairs,
      tokens: englishTokens + germanTokens + pairs,
      msPerStep: [...times[m]].sort((a, b) => a - b)[Math.floor(WASM_TRAINING_STEPS / 2)],
    }));
  } finally {
    timing.dispose();
  }
}

/**
 * @param {string} binary
 * @param {string[]} args
 * @param {string} cwd
 * @returns {Promise<any[]>} the JSON objects the program prints, one a line
 */
function runJsonLines(binary, args, cwd) {
  return new Promise((resolve, reject) => {
    const child = spawn(binary, args, { cwd, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) reject(new Error(`${path.basename(binary)} exited with ${code}`));
      else
        resolve(
          out
            .split('\n')
            .filter(Boolean)
            .map((line) => JSON.parse(line)),
        );
    });
  });
}

/**
 * Prints the part and returns its goal line.
 * @param {Awaited<ReturnType<typeof measureTranslation>>} result
 * @returns {string}
 */
export function printTranslation({ wasm, native, training }) {
  const ms = (/** @type {number} */ value) => `${value.toFixed(2)} ms`;
  console.log(
    `\nThe translation models, a ${GOAL_TRANSLATE.words}-word sentence ` +
      `(${wasm[0].tokens} tokens):`,
  );
  for (const { model, written, median, p90, beam } of wasm) {
    console.log(
      `  wasm, translate(), ${model.padEnd(12)} median ${ms(median).padStart(9)}, ` +
        `p90 ${ms(p90).padStart(9)} (${written} German words)`,
    );
    console.log(
      `  wasm, beam ${GOAL_TRANSLATE.beam},      ${model.padEnd(12)} median ` +
        `${ms(beam.median).padStart(9)}, p90 ${ms(beam.p90).padStart(9)} ` +
        `(${beam.written} German words)`,
    );
  }
  if (native) {
    for (const row of native.filter((r) => r.bench === 'translate')) {
      console.log(
        `  native, translate, ${row.model.padEnd(12)}  median ${ms(row.medianMs).padStart(9)}, ` +
          `p90 ${ms(row.p90Ms).padStart(9)}`,
      );
    }
    for (const row of native.filter((r) => r.bench === 'train')) {
      if (row.skipped) {
        console.log(`  native training: skipped, ${row.skipped}`);
        continue;
      }
      console.log(
        `  native training, ${row.model.padEnd(12)} ` +
          `${Math.round(row.tokensPerSecond).toLocaleString('en-US')} tokens/s wall, ` +
          `${Math.round(row.tokensPerCpuSecond).toLocaleString('en-US')} tokens/s of processor ` +
          `time (${row.steps} steps of ${row.batch} pairs, ${row.msPerStep.toFixed(0)} ms a step)`,
      );
    }
  } else {
    console.log(
      '  native: build/native/attn_translator_bench is missing (npm run bench builds it)',
    );
  }
  for (const { model, pairs, tokens, msPerStep } of training) {
    console.log(
      `  wasm training, ${model.padEnd(12)} median ${msPerStep.toFixed(0)} ms a step of ${pairs} ` +
        `pairs, ${(1000 / msPerStep).toFixed(2)} steps/s, ` +
        `${Math.round((tokens * 1000) / msPerStep).toLocaleString('en-US')} tokens/s ` +
        `(${WASM_TRAINING_STEPS} steps each, in turn, after one)`,
    );
  }
  const verdict = (/** @type {number} */ value, /** @type {number} */ goal) =>
    `${value <= goal ? 'met' : 'NOT met'} (${ms(value)})`;
  const recurrent = wasm.filter(({ model }) => model !== 'transformer');
  const greedy = recurrent.map(
    ({ model, median }) => `${model} ${verdict(median, GOAL_TRANSLATE.ms)}`,
  );
  const beams = recurrent.map(
    ({ model, beam }) => `${model} ${verdict(beam.median, GOAL_TRANSLATE.beamMs)}`,
  );
  const transformer = wasm.find(({ model }) => model === 'transformer');
  return (
    `  a ${GOAL_TRANSLATE.words}-word sentence is translated in wasm in at most ` +
    `${GOAL_TRANSLATE.ms} ms (median): ${greedy.join(', ')}\n` +
    `  ... and with a beam of ${GOAL_TRANSLATE.beam} in at most ${GOAL_TRANSLATE.beamMs} ms: ` +
    `${beams.join(', ')}\n` +
    `  ... and by the Transformer, greedily, in at most ${GOAL_TRANSFORMER_MS} ms: ` +
    (transformer ? verdict(transformer.median, GOAL_TRANSFORMER_MS) : 'not measured')
  );
}
