// Gathers the four runs of scripts/measure-layer-norm.sh (npm run measure:layer-norm) into one
// JSON report: per run (pre- or post-layer-norm, with the committed warm-up or none) the training
// loss every --log-every steps (the mean over those steps, label-smoothed as trained), the
// held-out loss and perplexity every --eval-every steps, whether every loss stayed finite, and
// from the run's summary the validation and test perplexity of the weights it kept, read back
// from its 8-bit file. docs/transformer.md, "Pre-LN against post-LN", reads it.
//   node bench/layer-norm.js DIR OUT "RECIPE"
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import process from 'node:process';

const RUNS = [
  { norm: 'pre', warmup: 1000 },
  { norm: 'post', warmup: 1000 },
  { norm: 'pre', warmup: 0 },
  { norm: 'post', warmup: 0 },
];

/**
 * The JSON lines of a run's log; attn_train writes a loss that is not finite as nan or inf, which
 * JSON has no word for: they come back as null.
 * @param {string} file
 */
function logLines(file) {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.startsWith('{') && line.endsWith('}'))
    .map((line) => JSON.parse(line.replace(/:-?(nan|inf)\b/gi, ':null')));
}

/** @param {number | null} x @param {number} digits */
const round = (x, digits) => (x === null ? null : Number(x.toFixed(digits)));

/** @param {string} dir @param {{ norm: string, warmup: number }} run */
function readRun(dir, run) {
  const name = `${run.norm}-warmup-${run.warmup}`;
  const lines = logLines(path.join(dir, `${name}.log`));
  const training = lines.filter((l) => 'loss' in l && 'step' in l);
  const heldOut = lines.filter((l) => 'validationLoss' in l);
  const trained = lines.find((l) => l.event === 'trained');
  const summaryFile = path.join(dir, `${name}.json`);
  const summary = existsSync(summaryFile) ? JSON.parse(readFileSync(summaryFile, 'utf8')) : null;
  const losses = [...training.map((l) => l.loss), ...heldOut.map((l) => l.validationLoss)];
  const lowest = heldOut.reduce(
    (best, l) =>
      l.validationLoss !== null && (!best || l.validationLoss < best.validationLoss) ? l : best,
    null,
  );
  return {
    norm: run.norm,
    warmup: run.warmup,
    finite: losses.every((x) => x !== null && Number.isFinite(x)),
    stepsTaken: trained ? trained.steps : (training.at(-1)?.step ?? 0),
    secondsPerStep: trained ? trained.secondsPerStep : null,
    cpuSecondsPerStep: trained ? trained.cpuSecondsPerStep : null,
    training: training.map((l) => ({
      step: l.step,
      loss: round(l.loss, 4),
      gradNorm: round(l.gradNorm, 3),
      lr: l.lr,
    })),
    heldOut: heldOut.map((l) => ({
      step: l.step,
      loss: round(l.validationLoss, 4),
      perplexity: round(l.validationPerplexity, 2),
    })),
    lowestHeldOut: lowest
      ? { step: lowest.step, perplexity: round(lowest.validationPerplexity, 2) }
      : null,
    kept: summary
      ? {
          step: summary.model.keptStep,
          validationPerplexity: summary.model.validationPerplexity,
          testPerplexity: summary.model.testPerplexity,
        }
      : null,
  };
}

function main() {
  const [dir, out, recipe] = process.argv.slice(2);
  if (!dir || !out) {
    console.error('usage: node bench/layer-norm.js DIR OUT "RECIPE"');
    process.exit(2);
  }
  const runs = RUNS.map((run) => readRun(dir, run));
  const first = runs.find((r) => r.heldOut.length);
  const git = (/** @type {string[]} */ ...args) =>
    execFileSync('git', args, { encoding: 'utf8' }).trim();
  const report = {
    format: 'attn-layer-norm-comparison',
    date: new Date().toISOString().slice(0, 10),
    commit: git('rev-parse', '--short', 'HEAD'),
    machine: `${os.cpus().length} cores, ${os.cpus()[0]?.model.trim() ?? 'unknown'}`,
    loadAverage: os.loadavg().map((x) => round(x, 1)),
    command: `attn_train transformer ${recipe ?? ''} --norm pre|post --warmup 1000|0`,
    heldOutTokens: first
      ? (logLines(path.join(dir, `${first.norm}-warmup-${first.warmup}.log`)).find(
          (l) => 'validationTokens' in l,
        )?.validationTokens ?? null)
      : null,
    runs,
  };
  writeFileSync(out, `${JSON.stringify(report, null, 2)}\n`);
  for (const r of runs) {
    const last = r.heldOut.at(-1);
    console.log(
      `${r.norm}-LN, warm-up ${r.warmup}: ${r.finite ? 'finite' : 'NOT finite'}, held-out perplexity ` +
        `${last ? `${last.perplexity} at step ${last.step}` : 'none'}, kept ${r.kept ? `${r.kept.step}: validation ${r.kept.validationPerplexity}, test ${r.kept.testPerplexity}` : 'none'}`,
    );
  }
  console.log(`wrote ${out}`);
}

main();
