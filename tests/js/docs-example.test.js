// The examples in docs/engine-api.md run as written and print what their comments say.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';

import { ROOT } from './helpers.js';

test('the engine API example runs and prints causal weights and outputs', () => {
  const doc = readFileSync(join(ROOT, 'docs', 'engine-api.md'), 'utf8');
  const example = /```js\n([\s\S]*?)```/.exec(doc);
  assert.ok(example, 'docs/engine-api.md has a js code block');
  // Inside the repository, so that the package can import itself by name.
  mkdirSync(join(ROOT, 'build'), { recursive: true });
  const file = join(ROOT, 'build', 'docs-example.mjs');
  writeFileSync(file, example[1]);
  const printed = execFileSync(process.execPath, [file], { encoding: 'utf8' });
  const [weightsText, outputText] = printed.split('Float32Array').slice(1);
  assert.ok(weightsText.startsWith('(9)') && outputText.startsWith('(6)'), printed);
  const numbersIn = (text) =>
    text
      .slice(3)
      .match(/-?\d+(\.\d+)?(e-?\d+)?/g)
      .map(Number);
  const weights = numbersIn(weightsText);
  // Causal: the first token sees only itself, the second nothing after it; rows sum to 1.
  assert.deepEqual(weights.slice(0, 3), [1, 0, 0]);
  assert.equal(weights[5], 0);
  for (let i = 0; i < 3; i++) {
    const sum = weights[3 * i] + weights[3 * i + 1] + weights[3 * i + 2];
    assert.ok(Math.abs(sum - 1) < 1e-6, `row ${i} sums to ${sum}`);
  }
  assert.equal(numbersIn(outputText).length, 6);
});

test("the language model example runs and prints the model's perplexity and a next word", () => {
  const doc = readFileSync(join(ROOT, 'docs', 'engine-api.md'), 'utf8');
  const example = [...doc.matchAll(/```js\n([\s\S]*?)```/g)].find((block) =>
    block[1].includes('loadLanguageModel'),
  );
  assert.ok(example, 'docs/engine-api.md has a js code block that loads the language model');
  const file = join(ROOT, 'build', 'docs-language-model-example.mjs');
  writeFileSync(file, example[1]);
  const printed = execFileSync(process.execPath, [file], { encoding: 'utf8' });
  const report = JSON.parse(readFileSync(join(ROOT, 'web/public/models/brown-lm.json'), 'utf8'));
  const [first] = printed.split('\n');
  assert.equal(
    first,
    `${report.test.perplexity} ${report.baselines.kneserNeyBigram.perplexity.test}`,
  );
  assert.match(printed, /\{ word: '[^']+', probability: 0\.\d+ \}/);
});

test('the live-training example runs from the project folder and prints what its comment says', () => {
  const doc = readFileSync(join(ROOT, 'docs', 'engine-api.md'), 'utf8');
  const example = [...doc.matchAll(/```js\n([\s\S]*?)```/g)].find((block) =>
    block[1].includes('createLanguageModelTraining'),
  );
  assert.ok(example, 'docs/engine-api.md has a js code block that trains a language model');
  const file = join(ROOT, 'build', 'docs-lm-training-example.mjs');
  writeFileSync(file, example[1]);
  const printed = execFileSync(process.execPath, [file], { encoding: 'utf8', cwd: ROOT });
  assert.equal(printed, '20 4 mixed\n');
});

test('the translation example runs and prints BLEU scores, the tokens and no fixed-vector weights', () => {
  const doc = readFileSync(join(ROOT, 'docs', 'engine-api.md'), 'utf8');
  const example = [...doc.matchAll(/```js\n([\s\S]*?)```/g)].find((block) =>
    block[1].includes('loadTranslator('),
  );
  assert.ok(example, 'docs/engine-api.md has a js code block that loads a translator');
  const file = join(ROOT, 'build', 'docs-translator-example.mjs');
  writeFileSync(file, example[1]);
  const printed = execFileSync(process.execPath, [file], { encoding: 'utf8' }).trimEnd();
  const report = JSON.parse(readFileSync(join(ROOT, 'web/public/models/translation.json'), 'utf8'));
  const lines = printed.split('\n');
  const score = (/** @type {{ bleu: number, sentences: number }} */ s) =>
    `{ bleu: ${s.bleu}, sentences: ${s.sentences} }`;
  assert.equal(
    lines[0],
    `${score(report.models.attention.bleu.overall)} ${score(report.models['fixed-vector'].bleu.overall)}`,
  );
  assert.equal(lines[1], "[ 'the', 'house', 'is', 'small', '.' ]");
  // The English word the first German word looked at most (none when it wrote no word at all).
  const looked = lines[2] === '' ? ['undefined'] : ['the', 'house', 'is', 'small', '.'];
  assert.ok(looked.includes(lines.at(-2) ?? ''), printed);
  assert.equal(lines.at(-1), '0');
});

test('the timing example runs from the project folder and prints the sizes and a step', () => {
  const doc = readFileSync(join(ROOT, 'docs', 'engine-api.md'), 'utf8');
  const example = [...doc.matchAll(/```js\n([\s\S]*?)```/g)].find((block) =>
    block[1].includes('createTranslatorTiming'),
  );
  assert.ok(example, 'docs/engine-api.md has a js code block that times the translators');
  const file = join(ROOT, 'build', 'docs-timing-example.mjs');
  writeFileSync(file, example[1]);
  const printed = execFileSync(process.execPath, [file], { encoding: 'utf8', cwd: ROOT });
  const [sizes, step] = printed.trimEnd().split('\n');
  assert.equal(sizes, '1309156 3640932');
  const [loss, ms] = step.split(' ').map(Number);
  assert.ok(loss > 7 && loss < 11 && ms > 0, printed);
});
