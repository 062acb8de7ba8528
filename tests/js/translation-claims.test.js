// What the slides say about the translation models is what was measured on them: every number
// their notes and article quote is recomputed here, from the models' report and from the models
// themselves, so a retrained model with other numbers fails this test until the words change too.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { loadTranslator } from 'attention-lab';

const read = (path) => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');
const report = JSON.parse(read('web/public/models/translation.json'));
const slides = {
  bottleneck: read('slides/attention/02-bottleneck.md'),
  bahdanau: read('slides/attention/03-weighted-retrieval.md'),
  cross: read('slides/attention/09-cross-attention.md'),
};
const attention = await loadTranslator();
// The comparison and alignment views search with the report's beam; the steps view is greedy.
const PAGE = { beam: attention.info.measuredBeam };
const one = (x) => x.toFixed(1);
const percent = (x) => `${Math.round(x * 100)}%`;

/**
 * @param {string} text
 * @param {string} claim
 */
function says(text, claim) {
  assert.ok(text.includes(claim), `the slide says \u201c${claim}\u201d`);
}

describe('the slides quote the translation models\u2019 report', () => {
  const { attention: a, 'fixed-vector': f } = report.models;
  const first = 0;
  const last = a.bleu.buckets.length - 1;

  test('overall BLEU, by length, and the lead on short and long sentences', () => {
    const text = slides.bottleneck;
    says(text, `scores ${one(a.bleu.overall.bleu)} overall`);
    says(text, `fixed-vector model ${one(f.bleu.overall.bleu)}`);
    says(text, `from ${one(f.bleu.buckets[first].bleu)} to ${one(f.bleu.buckets[last].bleu)}`);
    says(text, `from ${one(a.bleu.buckets[first].bleu)} to ${one(a.bleu.buckets[last].bleu)}`);
    const lead = (i) => a.bleu.buckets[i].bleu - f.bleu.buckets[i].bleu;
    says(text, `by ${one(lead(first))} BLEU on sentences of 1 to 5 words`);
    says(text, `by ${one(lead(3))} on those of 16 to 20`);
    says(text, `by ${one(lead(last - 1))} and ${one(lead(last))} on those of 21 to 30`);
    // "the gap is wider on every length past 10 words than on any up to 10"
    const past = [2, 3, 4, 5].map(lead);
    assert.ok(Math.min(...past) > Math.max(lead(0), lead(1)), 'longer sentences, wider gap');
    says(text, 'the gap is wider on every length past 10 words than on any up to 10');
    const lost = (m) => percent(1 - m.bleu.buckets[last].bleu / m.bleu.buckets[first].bleu);
    says(text, `losing ${lost(f)} of its score`);
    says(text, `losing ${lost(a)}`);
    // What copying an English word in place of <unk> adds to the attention model's score.
    says(text, `without it the attention model scores ${one(a.writtenBleu)}`);
    assert.ok(a.writtenBleu < a.bleu.overall.bleu, 'the copying adds to the score');
    assert.equal(f.writtenBleu, f.bleu.overall.bleu, 'the fixed-vector model copies nothing');
    says(text, `over ${report.training.steps.toLocaleString('en')} steps`);
    says(text, `${report.corpus.trainPairs.toLocaleString('en')} pairs of sentences`);
    says(text, `${report.corpus.testPairs.toLocaleString('en')} held-out sentences`);
    const millions = (m) => (m.parameters / 1e6).toFixed(2);
    says(text, `These models have ${millions(a)} and ${millions(f)} million parameters`);
  });

  test('the everyday set\u2019s scores and its example', () => {
    const text = slides.bottleneck;
    says(text, `On ${a.everyday.sentences} everyday sentences`);
    says(text, `the attention model scores ${one(a.everyday.chrf)} and the fixed-vector model`);
    says(text, `fixed-vector model ${one(f.everyday.chrf)}, and their German`);
    says(
      text,
      `holds ${percent(a.everyday.contentWordRecall)} and ` +
        `${percent(f.everyday.contentWordRecall)} of the content words`,
    );
    const cat = attention.translate('The cat sat on the mat.', PAGE);
    says(text, `"The cat sat on the mat." comes out as "${cat.output.join(' ')}"`);
    for (const word of ['katze', 'hängt', 'kiste']) {
      assert.ok(cat.output.includes(word), `the example shows the model writing "${word}"`);
    }
    assert.ok(!cat.output.includes('die'), 'the wrong article: not "die katze"');
    says(text, 'finds "katze" for "cat" but gives it the wrong article');
    says(text, 'writes "hängt", hangs, for "sat" and "kiste", box, for "mat"');
  });

  test('the alignment score and its diagonal guess', () => {
    for (const text of [slides.bahdanau, slides.cross]) {
      says(text, `${percent(a.alignment.score)} of the time`);
      says(text, `${percent(a.alignment.diagonalScore)}`);
    }
  });
});

describe('the slides quote what the models do on their sentences', () => {
  /**
   * @param {string} sentence
   * @returns {(german: string, english: string) => string} the weight of a German word (its first
   *   occurrence) on an English token, as the slides write it
   */
  function weightsOf(sentence, options = {}) {
    const run = attention.translate(sentence, options);
    const n = run.source.length;
    return (german, english) => {
      const t = run.target.indexOf(german);
      const j = run.source.indexOf(english);
      assert.ok(t >= 0 && j >= 0, `${german} / ${english}`);
      return run.weights[t * n + j].toFixed(2);
    };
  }

  /**
   * @param {string} sentence
   * @param {string} german a word of its translation (its first occurrence)
   * @param {number} k
   * @returns {string[]} the k English tokens that word's row weighs most, largest first
   */
  function largest(sentence, german, k, options = {}) {
    const run = attention.translate(sentence, options);
    const n = run.source.length;
    const t = run.target.indexOf(german);
    const row = Array.from(run.weights.subarray(t * n, (t + 1) * n));
    return row
      .map((w, j) => /** @type {[number, string]} */ ([w, run.source[j]]))
      .sort((x, y) => y[0] - x[0])
      .slice(0, k)
      .map(([, token]) => token);
  }

  test('the Bahdanau slide\u2019s sentence', () => {
    // The steps view writes greedily.
    const sentence = 'The document can not be printed.';
    says(slides.bahdanau, attention.translate(sentence).target.join(' '));
    const weight = weightsOf(sentence);
    says(slides.bahdanau, `"dokument", ${weight('dokument', 'document')} of the weight`);
    says(slides.bahdanau, `"kann", ${weight('kann', 'can')} is on "can"`);
    says(slides.bahdanau, `writing "kann" ${weight('kann', 'can')} on "can"`);
    says(slides.bahdanau, `writing "nicht", ${weight('nicht', 'not')} on "not"`);
    says(slides.bahdanau, `writing "dokument" it puts ${weight('dokument', 'document')}`);
    assert.deepEqual(largest(sentence, 'nicht', 1), ['not']);
    assert.deepEqual(largest(sentence, 'gedruckt', 2), ['printed', 'not']);
    says(
      slides.bahdanau,
      `"gedruckt" splits its weight between "printed" (${weight('gedruckt', 'printed')}) and ` +
        `"not" (${weight('gedruckt', 'not')})`,
    );
    assert.deepEqual(largest(sentence, 'werden', 2), ['printed', '.']);
    says(
      slides.bahdanau,
      `"werden", which has no single English word, puts only ${weight('werden', 'printed')} ` +
        `on "printed" and ${weight('werden', '.')} on the full stop`,
    );
    assert.ok(Number(weight('werden', 'printed')) < 0.5, '"werden": no word gets half its weight');
  });

  test('the cross-attention slide\u2019s sentence', () => {
    const sentence = 'Enter the name of the new file.';
    says(slides.cross, attention.translate(sentence, PAGE).target.join(' '));
    const weight = weightsOf(sentence, PAGE);
    says(slides.cross, '"des" where German needs "der"');
    says(slides.cross, `"geben" puts ${weight('geben', 'enter')} on "enter"`);
    says(slides.cross, `"neuen" ${weight('neuen', 'new')} on "new"`);
    says(slides.cross, `"datei" ${weight('datei', 'file')} on "file"`);
    assert.deepEqual(largest(sentence, 'geben', 1, PAGE), ['enter']);
    assert.deepEqual(largest(sentence, 'datei', 1, PAGE), ['file']);
    assert.deepEqual(
      largest(sentence, 'ein', 2, PAGE),
      ['.', 'file'],
      '"ein": the full stop first',
    );
    says(
      slides.cross,
      `"ein" puts only ${weight('ein', 'enter')} on "enter", ${weight('ein', '.')} on the ` +
        `full stop and ${weight('ein', 'file')} on "file"`,
    );
    says(
      slides.cross,
      `puts ${weight('ein', '.')} of that row on the full stop, ${weight('ein', 'file')} on ` +
        `"file" and ${weight('ein', 'enter')} on "enter"`,
    );
  });
});
