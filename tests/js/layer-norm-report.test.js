// docs/transformer.md, "Pre-LN against post-LN", and bench/reports/layer-norm.md state what
// npm run measure:layer-norm measured (bench/reports/layer-norm.json): every run's held-out
// perplexity at every check, and the validation and test perplexity of the weights it kept.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';

import { ROOT } from './helpers.js';

const read = (/** @type {string} */ file) => readFileSync(join(ROOT, file), 'utf8');
const REPORT = JSON.parse(read('bench/reports/layer-norm.json'));

describe('the layer-norm comparison is stated as measured', () => {
  test('the report holds the four runs, each with every check and a kept model', () => {
    const runs = REPORT.runs.map((/** @type {any} */ r) => `${r.norm} ${r.warmup}`);
    assert.deepEqual(runs, ['pre 1000', 'post 1000', 'pre 0', 'post 0']);
    for (const run of REPORT.runs) {
      assert.ok(run.heldOut.length > 0 && run.training.length > 0, `${run.norm} ${run.warmup}`);
      assert.ok(run.kept, `${run.norm} ${run.warmup} wrote its file`);
    }
  });

  for (const file of ['docs/transformer.md', 'bench/reports/layer-norm.md']) {
    test(`${file} gives every run's held-out perplexities and its kept model's`, () => {
      const text = read(file).replace(/\s+/g, ' ');
      for (const run of REPORT.runs) {
        const row = run.heldOut.map((/** @type {any} */ h) => h.perplexity.toFixed(1)).join(' | ');
        assert.ok(text.includes(`| ${row} |`), `${run.norm} ${run.warmup}: ${row}`);
        for (const value of [run.kept.validationPerplexity, run.kept.testPerplexity]) {
          assert.ok(text.includes(value.toFixed(1)), `${run.norm} ${run.warmup}: ${value}`);
        }
      }
    });
  }
});
