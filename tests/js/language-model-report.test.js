// What the page and the README say about the trained language model is what the committed weights
// give: the core measures web/public/models/brown-lm.bin again (`attn_train language-model
// --measure`, natively, on the corpus splits npm test builds) and every number must match the
// committed report; the README and docs/language-model.md must state the report's numbers.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';

import { ROOT } from './helpers.js';

const REPORT = JSON.parse(readFileSync(join(ROOT, 'web/public/models/brown-lm.json'), 'utf8'));
const folder = mkdtempSync(join(tmpdir(), 'lm-measure-'));
after(() => rmSync(folder, { recursive: true, force: true }));

const remeasuredPath = join(folder, 'report.json');
execFileSync(
  join(ROOT, 'build/native/attn_train'),
  ['language-model', '--measure', 'web/public/models/brown-lm.bin', '--report', remeasuredPath],
  { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] },
);
const REMEASURED = JSON.parse(readFileSync(remeasuredPath, 'utf8'));

/** @param {number} a @param {number} b @param {number} relative */
function near(a, b, relative) {
  return Math.abs(a - b) <= relative * Math.abs(b);
}

describe('the committed weights give the committed report', () => {
  test('held-out perplexities within 1% (the whole validation and test splits)', () => {
    for (const split of ['validation', 'test']) {
      const { perplexity, tokens } = REMEASURED[split];
      assert.equal(tokens, REPORT[split].tokens, `${split}: the same tokens are predicted`);
      assert.ok(
        near(perplexity, REPORT[split].perplexity, 0.01),
        `${split}: ${perplexity} measured, ${REPORT[split].perplexity} committed`,
      );
    }
  });

  test('every head scores as committed (within 0.005) and gets the same kind', () => {
    assert.equal(REMEASURED.heads.length, REPORT.heads.length);
    for (const [i, head] of REMEASURED.heads.entries()) {
      const committed = REPORT.heads[i];
      for (const score of ['previousToken', 'firstToken', 'self', 'induction']) {
        assert.ok(
          Math.abs(head[score] - committed[score]) <= 0.005,
          `head ${head.layer}.${head.head} ${score}: ${head[score]} vs ${committed[score]}`,
        );
      }
      assert.equal(head.kind, committed.kind);
    }
  });

  test('the model beats the Kneser-Ney bigram on the same held-out split', () => {
    const bigram = REPORT.baselines.kneserNeyBigram.perplexity;
    assert.ok(REMEASURED.test.perplexity < bigram.test);
    assert.ok(REMEASURED.validation.perplexity < bigram.validation);
  });
});

describe('the documents state the measured numbers', () => {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const docs = readFileSync(join(ROOT, 'docs/language-model.md'), 'utf8');
  const one = (/** @type {number} */ x) => x.toFixed(1);

  test('the README gives the model and bigram perplexities on the test split', () => {
    assert.ok(readme.includes(one(REPORT.test.perplexity)), 'model perplexity');
    assert.ok(
      readme.includes(one(REPORT.baselines.kneserNeyBigram.perplexity.test)),
      'bigram perplexity',
    );
  });

  test("docs/language-model.md lists every head's scores as measured", () => {
    for (const head of REPORT.heads) {
      const row = `| ${head.layer + 1}.${head.head + 1} `;
      const line = docs.split('\n').find((l) => l.startsWith(row));
      assert.ok(line, `a table row for head ${head.layer + 1}.${head.head + 1}`);
      for (const score of ['previousToken', 'firstToken', 'self', 'induction']) {
        assert.ok(line.includes(head[score].toFixed(2)), `${row}${score}`);
      }
    }
  });
});
