// The language-model part of `npm run bench`: the page's trained model (loadLanguageModel) in
// wasm, one run() of 16 and of 64 tokens read whole (tokenizing, the forward pass with the last
// position's logits, every head's weights and the top 5 next words copied out), against the goal
// of 3 ms for 64 tokens, and a run of 64 tokens after a letter typed at the end (the model reads
// only the positions from the first changed token on); training in wasm (engine.createLanguageModelTraining on the page's corpus sample),
// as tokens per second, for the small sibling the page trains live and for the trained model's
// own shape; and, natively (build/native/attn_lm_bench), one training step of 32 x 64 tokens as
// training tokens per second and the core's own 64-token forward pass. See bench/README.md.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';

export const GOAL_FORWARD = { tokens: 64, ms: 3 };

/** 64 ordinary words: the longest text the model reads at once. */
export const TEXT = (
  'the old man walked down to the river bank and sat there for a long time watching the ' +
  'water go by while the sun set slowly behind the hills and the birds flew home to their ' +
  'nests in the tall trees near the edge of the quiet town where he had lived all his life ' +
  'with his wife and three children until the end of the summer'
)
  .split(' ')
  .slice(0, 64);

/**
 * A call that runs the model on each text in turn. A run reuses the rows of the run before up to
 * the first token that differs, so texts that differ in their first token are each read whole,
 * and texts that differ in their last letter time a keystroke at the end.
 * @param {{ run: (text: string) => { tokens: string[] } }} model
 * @param {string[]} texts
 * @returns {() => number} runs the next text, and returns its token count
 */
export function runsInTurn(model, texts) {
  let next = 0;
  return () => model.run(texts[next++ % texts.length]).tokens.length;
}

/**
 * The bench's texts of `tokens` tokens: two read whole in turn (their first words differ), and
 * two a letter apart at the end.
 * @param {number} tokens
 */
export function benchTexts(tokens) {
  const words = TEXT.slice(0, tokens);
  const text = words.join(' ');
  return { whole: [text, ['a', ...words.slice(1)].join(' ')], typed: [text, `${text}s`] };
}

/**
 * Median milliseconds of `call`: 0.3 s of warm-up, then 9 batches of about 0.1 s each.
 * @param {() => unknown} call
 */
function medianMs(call) {
  const warm = performance.now();
  let calls = 0;
  while (performance.now() - warm < 300) {
    call();
    calls++;
  }
  const perBatch = Math.max(1, Math.round((100 * calls) / (performance.now() - warm)));
  const times = [];
  for (let b = 0; b < 9; b++) {
    const start = performance.now();
    for (let i = 0; i < perBatch; i++) call();
    times.push((performance.now() - start) / perBatch);
  }
  times.sort((a, b) => a - b);
  return times[4];
}

/**
 * Training in wasm: the median time of a step after `warm` steps, over `steps` steps (one call
 * each), for the options given (the rest the page's live sibling's).
 * @param {any} engine with the page's word vectors loaded
 * @param {{ train: Uint8Array, heldOut: Uint8Array }} files
 * @param {string} name
 * @param {object} options
 * @param {{ warm: number, steps: number }} counts
 */
function wasmTraining(engine, files, name, options, { warm, steps }) {
  const training = engine.createLanguageModelTraining(files.train, files.heldOut, options);
  try {
    training.step(warm);
    const times = [];
    for (let i = 0; i < steps; i++) {
      const start = performance.now();
      training.step(1);
      times.push(performance.now() - start);
    }
    times.sort((a, b) => a - b);
    const ms = times[Math.floor(times.length / 2)];
    const { batch, context } = training.options;
    return { name, batch, context, ms, tokensPerSecond: (batch * context * 1000) / ms };
  } finally {
    training.dispose();
  }
}

/**
 * Loads the page's word vectors into `engine` and reads the live model's corpus sample, both from
 * the checkout at `root`: what the live language model trains on.
 * @param {any} engine the facade
 * @param {string} root
 * @returns {Promise<{ train: Buffer, heldOut: Buffer }>}
 */
export async function loadLiveCorpus(engine, root) {
  const publicFile = (/** @type {string} */ name) =>
    readFile(path.join(root, 'web', 'public', name));
  engine.loadEmbeddings(await publicFile('embeddings/en-20k-100d.bin'));
  return {
    train: await publicFile('models/brown-live-train.bin'),
    heldOut: await publicFile('models/brown-live-heldout.bin'),
  };
}

/**
 * @param {string} root the repository
 * @returns {Promise<{ wasm: { tokens: number, ms: number }[], typed: { tokens: number, ms: number }, training: ReturnType<typeof wasmTraining>[], native: object | null }>}
 */
export async function measureLanguageModel(root) {
  const { loadLanguageModel } = await import('attention-lab');
  const model = await loadLanguageModel();
  const wasm = [16, 64].map((tokens) => {
    const { whole } = benchTexts(tokens);
    for (const text of whole) {
      const read = model.run(text).tokens.length;
      if (read !== tokens) throw new Error(`the bench text gave ${read} tokens, not ${tokens}`);
    }
    return { tokens, ms: medianMs(runsInTurn(model, whole)) };
  });
  const typed = { tokens: 64, ms: medianMs(runsInTurn(model, benchTexts(64).typed)) };
  const { loadEngine } = await import('attention-lab');
  const engine = await loadEngine();
  const files = await loadLiveCorpus(engine, root);
  const training = [
    wasmTraining(
      engine,
      files,
      'the live sibling (2 x 2 heads, d_model 64, 2,001 words)',
      {},
      {
        warm: 5,
        steps: 21,
      },
    ),
    wasmTraining(
      engine,
      files,
      "the trained model's shape (2 x 4 heads, d_model 128, 20,059 words)",
      { words: 20058, dModel: 128, heads: 4, dMlp: 512, context: 64, batch: 32, maxRun: 32 },
      { warm: 1, steps: 3 },
    ),
  ];
  const binary = path.join(root, 'build', 'native', 'attn_lm_bench');
  const native = existsSync(binary) ? await runJson(binary, ['5']) : null;
  return { wasm, typed, training, native };
}

/**
 * @param {string} binary
 * @param {string[]} args
 * @returns {Promise<any>} the JSON object the program prints
 */
function runJson(binary, args) {
  return new Promise((resolve, reject) => {
    const child = spawn(binary, args, { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) reject(new Error(`${path.basename(binary)} exited with ${code}`));
      else resolve(JSON.parse(out));
    });
  });
}

/**
 * Prints the part and returns its goal line.
 * @param {Awaited<ReturnType<typeof measureLanguageModel>>} result
 * @returns {string}
 */
export function printLanguageModel({ wasm, typed, training, native }) {
  console.log("\nThe page's language model (2 layers x 4 heads, d_model 128, vocab 20,059):");
  const row = (/** @type {string} */ label, /** @type {number} */ ms) =>
    console.log(`  ${label.padEnd(52)}${ms.toFixed(2).padStart(7)} ms`);
  for (const { tokens, ms } of wasm) row(`wasm, run() of ${tokens} tokens read whole`, ms);
  row(`wasm, run() of ${typed.tokens} tokens, a letter typed at the end`, typed.ms);
  if (native) {
    const tokensPerStep = native.batch * native.context;
    const perSecond = (ms) => Math.round((tokensPerStep * 1000) / ms).toLocaleString('en-US');
    console.log(
      `  native, the core's 64-token forward pass (last logits)${native.forward64Last.wallMs
        .toFixed(2)
        .padStart(7)} ms wall, ${native.forward64Last.cpuMs.toFixed(2)} ms processor`,
    );
    console.log(
      `  native training: ${perSecond(native.step.wallMs)} tokens/s wall, ` +
        `${perSecond(native.step.cpuMs)} tokens/s of processor time ` +
        `(one step of ${native.batch} x ${native.context} tokens: ${native.step.wallMs.toFixed(0)} ms wall)`,
    );
  } else {
    console.log('  native: build/native/attn_lm_bench is missing (npm run build)');
  }
  for (const t of training) {
    console.log(
      `  wasm training, ${t.name}: ${Math.round(t.tokensPerSecond).toLocaleString('en-US')} ` +
        `tokens/s (a step of ${t.batch} x ${t.context} tokens: ${t.ms.toFixed(1)} ms, median)`,
    );
  }
  const long = wasm.find((w) => w.tokens === GOAL_FORWARD.tokens);
  const met = long.ms <= GOAL_FORWARD.ms;
  return (
    `  a ${GOAL_FORWARD.tokens}-token run() of the language model in wasm takes at most ` +
    `${GOAL_FORWARD.ms} ms: ${met ? 'met' : 'NOT met'} (measured ${long.ms.toFixed(2)} ms)`
  );
}
