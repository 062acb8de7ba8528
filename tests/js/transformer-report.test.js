// What the docs say about lesson 2's Transformer translator is what the committed file gives: the
// model in web/public/models/transformer.bin translates the whole test split and the everyday set
// again, in the WebAssembly engine, by translate(text) as a figure calls it, with the report's
// beam (tools/translation/report.js --model transformer, on the corpus npm test builds), and
// every measured score, each head's alignment and the encoder's stream and heads included, must
// equal the committed report; the report is measured on the same test pairs as lesson 1's models;
// docs/transformer.md states it.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';

import { readDictionary } from '../../tools/translation/alignment-score.js';
import { readReferencePairs } from '../../tools/translation/evaluate.js';
import { PAGE_BEAM, measureModels } from '../../tools/translation/report.js';
import { ROOT } from './helpers.js';

const CORPUS = join(ROOT, 'build/corpus/translation');
const json = (/** @type {string} */ file) => JSON.parse(readFileSync(join(ROOT, file), 'utf8'));
const REPORT = json('web/public/models/transformer.json');
const RECURRENT = json('web/public/models/translation.json');
const pairs = readReferencePairs(readFileSync(join(CORPUS, 'test.tsv'), 'utf8'));
const dictionary = readDictionary(readFileSync(join(CORPUS, 'dictionary.tsv'), 'utf8'));
const weights = new Uint8Array(readFileSync(join(ROOT, 'web/public/models/transformer.bin')));
const { transformer: MEASURED } = await measureModels(weights, REPORT, pairs, dictionary, {
  beam: REPORT.decoding.beam,
  transformer: true,
});
const COMMITTED = REPORT.models.transformer;

describe('the committed Transformer file gives the committed report', () => {
  test("measured on lesson 1's test split and corpus, with the page's beam", () => {
    assert.equal(pairs.length, REPORT.corpus.testPairs);
    assert.deepEqual(REPORT.corpus, RECURRENT.corpus);
    assert.equal(REPORT.decoding.beam, PAGE_BEAM);
    assert.equal(REPORT.decoding.beam, RECURRENT.decoding.beam);
  });

  test('BLEU overall and by English length, in the buckets of lesson 1', () => {
    assert.deepEqual(MEASURED.bleu, COMMITTED.bleu);
    const edges = (/** @type {any} */ model) =>
      model.bleu.buckets.map((/** @type {any} */ b) => [b.from, b.to, b.sentences]);
    assert.deepEqual(edges(COMMITTED), edges(RECURRENT.models.attention));
  });

  test('the alignment of the rows shown, and of every head', () => {
    assert.deepEqual(MEASURED.alignment, COMMITTED.alignment);
    assert.deepEqual(MEASURED.heads, COMMITTED.heads);
    const { decoderLayers, heads } = REPORT.sizes;
    assert.equal(COMMITTED.heads.length, decoderLayers * heads);
  });

  test('what the encoder does with the test sentences: its stream and its heads', () => {
    assert.deepEqual(MEASURED.encoder, COMMITTED.encoder);
    const { encoderLayers, heads } = REPORT.sizes;
    assert.equal(
      COMMITTED.encoder.tokens,
      pairs.reduce((sum, pair) => sum + pair.english.length, 0),
    );
    assert.equal(COMMITTED.encoder.stages.length, 2 * encoderLayers + 1);
    assert.equal(COMMITTED.encoder.heads.length, encoderLayers * heads);
  });

  test('the <unk> written and the everyday set, as committed', () => {
    assert.deepEqual(MEASURED.unknownWords, COMMITTED.unknownWords);
    assert.deepEqual(MEASURED.everyday, COMMITTED.everyday);
  });
});

describe("the README's line on the Transformer states the report", () => {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8').replace(/\s+/g, ' ');
  test('its BLEU beside the attention model\u2019s, its everyday chrF, its two best heads', () => {
    const bleu =
      `BLEU ${COMMITTED.bleu.overall.bleu.toFixed(2)} (the attention model's ` +
      `${RECURRENT.models.attention.bleu.overall.bleu.toFixed(2)})`;
    assert.ok(readme.includes(bleu), bleu);
    assert.ok(readme.includes(`chrF ${COMMITTED.everyday.chrf.toFixed(1)}`));
    const best = COMMITTED.heads.map((/** @type {any} */ h) => h.score).sort((a, b) => b - a);
    const heads = `(${best[0].toFixed(3)} and ${best[1].toFixed(3)})`;
    assert.ok(readme.includes(heads), heads);
  });
});

describe('docs/transformer.md states the report', () => {
  const docs = readFileSync(join(ROOT, 'docs/transformer.md'), 'utf8').replace(/\s+/g, ' ');
  const two = (/** @type {number} */ x) => x.toFixed(2);

  test('BLEU overall and by length, beside the attention model of lesson 1', () => {
    const row = (/** @type {any} */ model) =>
      [model.bleu.overall, ...model.bleu.buckets].map((b) => two(b.bleu)).join(' | ');
    assert.ok(docs.includes(row(COMMITTED)), `the Transformer's row: ${row(COMMITTED)}`);
    assert.ok(docs.includes(row(RECURRENT.models.attention)), "the attention model's row");
  });

  test('every head\u2019s alignment score, and the everyday chrF', () => {
    for (const { layer, head, aligned, checkable } of COMMITTED.heads) {
      // Layer and head counted from 1, as on the page (the report counts from 0); the share from
      // its counts: the report's score is rounded to four places already.
      const cell = `| ${layer + 1} | ${head + 1} | ${(aligned / checkable).toFixed(3)} |`;
      assert.ok(docs.includes(cell), cell);
    }
    assert.ok(docs.includes(`chrF ${COMMITTED.everyday.chrf.toFixed(1)}`));
  });
});
