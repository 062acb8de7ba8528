// What lesson 2's slides say about the Transformer and lesson 1's translators is what was measured
// on them: every number their bodies, notes, articles and quiz quote is recomputed here from the
// models' reports (web/public/models/transformer.json, translation.json), so a retrained model
// with other numbers fails this test until the words change too.
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { describe, test } from 'node:test';

const read = (path) => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');
const TRANSFORMER = JSON.parse(read('web/public/models/transformer.json'));
const RECURRENT = JSON.parse(read('web/public/models/translation.json'));
const model = TRANSFORMER.models.transformer;
const attention = RECURRENT.models.attention;
const fixedVector = RECURRENT.models['fixed-vector'];
const slide = (name) => read(`slides/transformer/${name}`);
const quiz = slide('quiz.yaml');
const wholeLesson = readdirSync(new URL('../../slides/transformer/', import.meta.url))
  .map((name) => slide(name))
  .join('\n');

/** Three places of a share, from its counts (the report's score is already rounded to four). */
const share = ({ aligned, checkable }) => (aligned / checkable).toFixed(3);
const two = (x) => x.toFixed(2);
const thousands = (x) => x.toLocaleString('en');
const millions = (x) => (x / 1e6).toFixed(1);

/**
 * @param {string} text
 * @param {string} claim
 */
function says(text, claim) {
  assert.ok(text.includes(claim), `the text says \u201c${claim}\u201d`);
}

describe("lesson 2 quotes the Transformer's report", () => {
  test("every head's alignment score, the averaged rows' and the diagonal guess", () => {
    const heads = slide('07-heads.md');
    for (let layer = 0; layer < TRANSFORMER.sizes.decoderLayers; layer++) {
      const scores = model.heads.filter((h) => h.layer === layer).map(share);
      says(heads, `Layer ${layer + 1}, heads 1 to 4: ${scores.join(', ')}.`);
    }
    const best = [...model.heads].sort((a, b) => b.aligned - a.aligned);
    says(heads, `two heads align (${share(model.heads[0])} and ${share(model.heads[5])})`);
    assert.deepEqual(
      [best[0], best[1]].map((h) => `${h.layer}.${h.head}`).sort(),
      ['0.0', '1.1'],
      'the two best heads are the first of layer 1 and the second of layer 2',
    );
    assert.ok(
      best.slice(2).every((h) => h.aligned / h.checkable < 0.6),
      'only two reach 0.6',
    );
    const worst = best.at(-1);
    assert.equal(`${worst.layer}.${worst.head}`, '0.2', 'the third head of layer 1 is the lowest');
    says(heads, `one does not (${share(worst)})`);
    says(heads, `the third head of layer 1 scores ${share(worst)}, below the diagonal guess`);
    assert.ok(worst.aligned < model.alignment.diagonalAligned, 'below the diagonal guess');
    says(heads, `align best: ${share(model.alignment)}`);
    says(heads, `score ${share(model.alignment)}, better than any one of them`);
    assert.ok(
      best.every((h) => h.aligned < model.alignment.aligned),
      'the mean beats every head',
    );
    const diagonal = {
      aligned: model.alignment.diagonalAligned,
      checkable: model.alignment.checkable,
    };
    says(heads, `scores ${share(diagonal)}`);
    says(heads, `(${thousands(model.alignment.checkable)} of them)`);
    says(heads, `scored ${share(attention.alignment)} by the same rule`);
    says(heads, `the ${thousands(RECURRENT.corpus.testPairs)} sentences of the test split`);
    const last = model.heads.filter((h) => h.layer === 1).map(share);
    says(quiz, `score ${last.join(', ').replace(/, ([^,]*)$/, ' and $1')} alone`);
    says(quiz, `their average weights score ${share(model.alignment)}`);
    says(quiz, `scores ${share(worst)} on the alignment test, below the ${share(diagonal)}`);
  });

  test('BLEU by length beside lesson 1\u2019s translators, on the same test pairs', () => {
    assert.equal(TRANSFORMER.corpus.testPairs, RECURRENT.corpus.testPairs);
    const text = slide('10-three-translators.md');
    says(text, `Same ${thousands(TRANSFORMER.corpus.testPairs)} test sentences`);
    const overall = [fixedVector, attention, model].map((m) => two(m.bleu.overall.bleu));
    says(text, `Fixed vector ${overall[0]}, attention ${overall[1]}, Transformer ${overall[2]}`);
    says(
      text,
      `the fixed-vector translator scores ${overall[0]}, the attention translator ${overall[1]} and the Transformer ${overall[2]}`,
    );
    const buckets = model.bleu.buckets.map((b) => two(b.bleu));
    says(text, `the Transformer scores ${buckets.slice(0, -1).join(', ')} and ${buckets.at(-1)}`);
    const leads = model.bleu.buckets.map((b, i) => b.bleu - attention.bleu.buckets[i].bleu);
    const [low, high] = [Math.min(...leads), Math.max(...leads)];
    says(text, `by between ${two(low)} and ${two(high)} points in every group`);
    says(quiz, `between ${two(low)} and ${two(high)} points more`);
    says(text, `by ${Math.round(low)} to ${Math.round(high)} points at every length`);
    // "Its lead does not grow with length": the longest sentences' lead is not the largest.
    assert.ok(leads.at(-1) < high && leads.at(-1) < leads[0], 'the lead does not grow');
    says(text, `the same ${thousands(RECURRENT.corpus.trainPairs)} pairs`);
    says(text, `with a beam of ${TRANSFORMER.decoding.beam}`);
    assert.equal(RECURRENT.decoding.beam, TRANSFORMER.decoding.beam);
    const chrf = [model, attention, fixedVector].map((m) => m.everyday.chrf.toFixed(1));
    says(text, `chrF is ${chrf[0]} against ${chrf[1]} and ${chrf[2]}`);
    const recall = [model, attention, fixedVector].map(
      (m) => `${Math.round(m.everyday.contentWordRecall * 100)}%`,
    );
    says(
      text,
      `${recall[0]} of the reference's content words against ${recall[1]} and ${recall[2]}`,
    );
    says(text, `set of ${model.everyday.sentences} everyday sentences`);
    const params = [model, attention, fixedVector].map((m) => millions(m.parameters));
    says(
      text,
      `the Transformer has ${params[0]} million parameters, the recurrent translators ${params[1]} and ${params[2]} million`,
    );
    says(quiz, `${params[0]} million parameters against ${params[1]} and ${params[2]} million`);
    const summary = slide('12-summary.md');
    says(summary, `BLEU ${overall[2]} against ${overall[1]}`);
  });

  test('training: steps, batch, schedule, smoothing, perplexities and speed', () => {
    const text = slide('08-training.md');
    const t = TRANSFORMER.training;
    says(text, `warmed up for ${thousands(t.warmup)} of its ${thousands(t.steps)} steps`);
    says(text, `to a peak of ${t.learningRate}`);
    says(text, `down to a tenth of that, with dropout ${t.dropout}`);
    assert.equal(t.finalLrFraction, 0.1);
    says(text, `$\\varepsilon=${t.labelSmoothing}$`);
    says(text, `${thousands(t.steps)} batches of ${t.batch} sentence pairs`);
    says(text, `about ${((t.steps * t.batch) / t.trainPairs).toFixed(1)} passes`);
    says(text, `the ${thousands(t.trainPairs)} training pairs`);
    const ppl = (x) => x.toFixed(2);
    says(text, `ended at ${ppl(model.validationPerplexity)} per German piece`);
    says(text, `and ${ppl(model.testPerplexity)} on the test sentences`);
    says(
      text,
      `against ${ppl(attention.validationPerplexity)} and ${ppl(attention.testPerplexity)}`,
    );
    const speed = slide('02-recurrence.md');
    says(speed, `attention translator (${millions(attention.parameters)} million parameters)`);
    says(speed, `the Transformer (${millions(model.parameters)} million)`);
    says(speed, `attention translator processed ${thousands(attention.tokensPerSecond)}`);
    says(speed, `pieces a second and the Transformer ${thousands(model.tokensPerSecond)}`);
    const decoder = slide('06-decoder-layer.md');
    const tied = TRANSFORMER.sizes.targetWords * TRANSFORMER.sizes.dModel;
    says(
      decoder,
      `(${millions(tied)} million of the page's model's ${millions(model.parameters)} million sit in it)`,
    );
  });

  test('layer norm: the measured pre-LN and post-LN twins', () => {
    const { runs } = JSON.parse(read('bench/reports/layer-norm.json'));
    const run = (norm, warmup) => runs.find((r) => r.norm === norm && r.warmup === warmup);
    const ppl = (r) => r.kept.validationPerplexity.toFixed(1);
    const text = slide('05-add-and-norm.md');
    says(text, `${ppl(run('post', 1000))} against ${ppl(run('pre', 1000))} with the 1,000-step`);
    says(text, `${ppl(run('post', 0))} against ${ppl(run('pre', 0))} with none`);
    assert.ok(
      runs.every((r) => r.finite && r.stepsTaken === 2000),
      'no run diverged',
    );
    says(text, 'neither run diverged without warm-up');
    says(text, '2,000 steps');
  });

  test("the encoder's residual stream and heads on the test sentences", () => {
    const { encoder } = model;
    const percent = (x) => `${Math.round(x * 100)}%`;
    const norm = slide('05-add-and-norm.md');
    says(
      norm,
      `On the ${thousands(encoder.sentences)} test sentences (${thousands(encoder.tokens)} words)`,
    );
    const sizes = encoder.stages.map((stage) => two(stage.streamRms));
    says(norm, `${sizes.slice(0, -1).join(', ')} and ${sizes.at(-1)}`);
    const [, feedForward] = encoder.sublayers;
    says(
      norm,
      `a vector of mean size ${two(feedForward.writeRms)} added to a stream of ` +
        `${two(encoder.stages[1].streamRms)}`,
    );
    const writes = encoder.sublayers.map((sublayer) => sublayer.writeRms);
    assert.equal(Math.max(...writes), feedForward.writeRms, 'the first feed-forward writes most');
    const spreads = (key) => encoder.sublayers.map((sublayer) => sublayer[key]);
    const span = (values) =>
      `${percent(Math.min(...values)).slice(0, -1)}% to ${percent(Math.max(...values))}`;
    says(norm, `differ in size by ${span(spreads('streamSpread'))}`);
    says(norm, `differ by ${span(spreads('readSpread'))}`);
    says(norm, `cosine with the word's input is ${two(encoder.stages.at(-1).inputCosine)}`);

    const layer = slide('04-encoder-layer.md');
    says(
      layer,
      `for the ${thousands(encoder.tokens)} words of the ${thousands(encoder.sentences)}`,
    );
    const largest = (h) => Math.max(h.previous, h.self, h.next);
    const [first, second, ...rest] = [...encoder.heads].sort((a, b) => b.previous - a.previous);
    assert.deepEqual([first.layer, first.head], [1, 0], 'the previous-word head is 2.1');
    says(layer, `just before for ${percent(first.previous)} of the words`);
    assert.deepEqual([second.layer, second.head], [0, 3]);
    says(layer, `the fourth head of layer 1, on the word before for ${percent(second.previous)}`);
    says(layer, `for at most ${percent(Math.max(...rest.map(largest)))} of words`);
  });

  test('sizes: layers, heads and widths', () => {
    const s = TRANSFORMER.sizes;
    assert.deepEqual([s.encoderLayers, s.decoderLayers, s.heads], [2, 2, 4]);
    says(slide('04-encoder-layer.md'), `${s.dMlp} against ${s.dModel} in the page's model`);
    says(slide('01-title.md'), 'Its decoder has two layers, each with four cross-attention heads');
    says(slide('07-heads.md'), 'Two decoder layers × four heads');
  });

  test('no other number of the report is quoted wrong: every BLEU with two places is one of theirs', () => {
    const known = new Set(
      [model, attention, fixedVector].flatMap((m) =>
        [m.bleu.overall, ...m.bleu.buckets].map((b) => two(b.bleu)),
      ),
    );
    const quoted =
      wholeLesson.match(/\b[1-9]\d?\.\d{2}\b(?= (?:overall|against|and|points|,|\.))/g) ?? [];
    const ppl = new Set(
      [model, attention].flatMap((m) => [m.validationPerplexity, m.testPerplexity]).map(two),
    );
    const leads = model.bleu.buckets.map((b, i) => two(b.bleu - attention.bleu.buckets[i].bleu));
    const stream = new Set(model.encoder.stages.map((stage) => two(stage.streamRms)));
    for (const number of quoted) {
      assert.ok(
        known.has(number) || ppl.has(number) || leads.includes(number) || stream.has(number),
        `${number} is a BLEU, perplexity or lead of the reports, or a size of the encoder's stream`,
      );
    }
  });
});
