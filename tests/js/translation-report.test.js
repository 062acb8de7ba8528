// What the page and the README say about the translation models is what the committed file gives:
// both models in web/public/models/translation.bin translate the whole test split again, in the
// WebAssembly engine, by translate(text) as the figures call it, with the report's beam
// (tools/translation/report.js,
// on the corpus npm test builds), and the BLEU by length and the alignment score must equal the
// committed report; the README and docs/translation.md must state the report's numbers.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';

import { readDictionary } from '../../tools/translation/alignment-score.js';
import { readReferencePairs } from '../../tools/translation/evaluate.js';
import { PAGE_BEAM, measureModels, sourcesOf } from '../../tools/translation/report.js';
import { ROOT } from './helpers.js';

const CORPUS = join(ROOT, 'build/corpus/translation');
const REPORT = JSON.parse(readFileSync(join(ROOT, 'web/public/models/translation.json'), 'utf8'));
const pairs = readReferencePairs(readFileSync(join(CORPUS, 'test.tsv'), 'utf8'));
const dictionary = readDictionary(readFileSync(join(CORPUS, 'dictionary.tsv'), 'utf8'));
const weights = new Uint8Array(readFileSync(join(ROOT, 'web/public/models/translation.bin')));
const MEASURED = await measureModels(weights, REPORT, pairs, dictionary, {
  beam: REPORT.decoding.beam,
});

describe('the committed translation file gives the committed report', () => {
  test('the whole test split is measured', () => {
    assert.equal(pairs.length, REPORT.corpus.testPairs);
  });

  test('measured with the beam the page shows, from the train split the report names', () => {
    assert.equal(REPORT.decoding.beam, PAGE_BEAM);
    const train = readFileSync(join(CORPUS, 'train.tsv'), 'utf8');
    assert.equal(REPORT.corpus.trainPairs, readReferencePairs(train).length);
    assert.equal(REPORT.corpus.sources.length, sourcesOf(train).length);
  });

  for (const name of ['attention', 'fixed-vector']) {
    test(`${name}: BLEU overall and by English length, as committed`, () => {
      assert.deepEqual(MEASURED[name].bleu, REPORT.models[name].bleu);
    });
  }

  test('the share of <unk> in what each model writes, as committed', () => {
    for (const name of ['attention', 'fixed-vector']) {
      assert.deepEqual(MEASURED[name].unknownWords, REPORT.models[name].unknownWords);
    }
  });

  test('the scores on the everyday set, as committed', () => {
    for (const name of ['attention', 'fixed-vector']) {
      assert.deepEqual(MEASURED[name].everyday, REPORT.models[name].everyday);
    }
  });

  test('attention: the alignment score and the diagonal guess, as committed', () => {
    assert.deepEqual(MEASURED.attention.alignment, REPORT.models.attention.alignment);
    assert.equal(MEASURED['fixed-vector'].alignment, null);
  });
});

describe('the README and docs/translation.md state the report', () => {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const docs = readFileSync(join(ROOT, 'docs/translation.md'), 'utf8');
  const { attention, 'fixed-vector': fixed } = REPORT.models;
  const two = (x) => x.toFixed(2);

  test('overall BLEU of both models', () => {
    for (const text of [readme, docs]) {
      assert.ok(text.includes(two(attention.bleu.overall.bleu)));
      assert.ok(text.includes(two(fixed.bleu.overall.bleu)));
    }
  });

  test('every bucket in the docs\u2019 table, and the alignment score', () => {
    const rows = (model) => model.bleu.buckets.map((b) => two(b.bleu)).join(' | ');
    const squeeze = docs.replace(/ +/g, ' ');
    assert.ok(squeeze.includes(rows(fixed)), 'the fixed vector\u2019s row');
    assert.ok(squeeze.includes(rows(attention)), 'the attention model\u2019s row');
    const { aligned, checkable, score, diagonalScore } = attention.alignment;
    const flat = docs.replace(/\s+/g, ' ');
    const count = (x) => x.toLocaleString('en');
    assert.ok(flat.includes(`${count(aligned)} of ${count(checkable)}`), 'aligned of checkable');
    for (const text of [readme, docs]) {
      assert.ok(text.includes(score.toFixed(3)), `alignment ${score.toFixed(3)}`);
      assert.ok(text.includes(diagonalScore.toFixed(3)), `diagonal ${diagonalScore.toFixed(3)}`);
    }
  });

  test('the share of <unk> written and the step whose weights each model kept', () => {
    const flat = docs.replace(/\s+/g, ' ');
    for (const model of [attention, fixed]) {
      const share = `${(100 * model.unknownWords.share).toFixed(1)} %`;
      assert.ok(flat.includes(share), share);
    }
    const steps = `| ${fixed.keptStep.toLocaleString('en')} | ${attention.keptStep.toLocaleString('en')} |`;
    assert.ok(docs.replace(/ +/g, ' ').includes(`weights kept from step ${steps}`), steps);
  });
});

describe('docs/translation.md states the everyday scores', () => {
  const docs = readFileSync(join(ROOT, 'docs/translation.md'), 'utf8').replace(/ +/g, ' ');
  const { attention, 'fixed-vector': fixed } = REPORT.models;

  test('chrF, <unk> written and content words, fixed vector then attention', () => {
    const percent = (/** @type {number} */ x) => `${(100 * x).toFixed(1)} %`;
    const rows = [
      `| chrF | ${fixed.everyday.chrf.toFixed(1)} | ${attention.everyday.chrf.toFixed(1)} |`,
      `| \`<unk>\` among the words written | ${percent(fixed.everyday.unknownShare)} | ` +
        `${percent(attention.everyday.unknownShare)} |`,
      `| reference content words written | ${percent(fixed.everyday.contentWordRecall)} | ` +
        `${percent(attention.everyday.contentWordRecall)} |`,
    ];
    for (const row of rows) assert.ok(docs.includes(row), row);
  });
});
