// What the self-attention and multi-head slides say about the trained language model is what was
// measured on it: each number their notes and article quote is recomputed here, from the model's
// report and from the model itself, so a retrained model with other numbers fails this test until
// the words change too (as tests/js/translation-claims.test.js does for the translators).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { loadLanguageModel } from 'attention-lab';

const read = (path) => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');
const slides = {
  self: read('slides/attention/07-self-attention.md'),
  multi: read('slides/attention/08-multi-head.md'),
};
const model = await loadLanguageModel();
const { info } = model;
const two = (x) => x.toFixed(2);

/**
 * @param {string} text
 * @param {string} claim
 */
function says(text, claim) {
  assert.ok(text.includes(claim), `the slide says \u201c${claim}\u201d`);
}

/**
 * The weight head `name` ("layer.head", from 1) gives, from the last `from` of `sentence`, to
 * the last `to` before it.
 * @param {string} sentence
 * @param {string} name
 * @param {string} from
 * @param {string} to
 */
function weight(sentence, name, from, to) {
  const run = model.run(sentence);
  const [layer, head] = name.split('.').map(Number);
  const found = run.heads.find((h) => h.layer === layer - 1 && h.head === head - 1);
  assert.ok(found, `head ${name}`);
  const n = run.tokens.length;
  const row = run.tokens.lastIndexOf(from);
  const column = run.tokens.lastIndexOf(to, row);
  assert.ok(row >= 0 && column >= 0, `"${from}" and "${to}" in "${sentence}"`);
  return found.weights[row * n + column];
}

/** The report's scores of head `name` ("layer.head", from 1). @param {string} name */
function scores(name) {
  const [layer, head] = name.split('.').map(Number);
  const found = info.heads.find((h) => h.layer === layer - 1 && h.head === head - 1);
  assert.ok(found, `head ${name}`);
  return found.scores;
}

describe('the slides quote the language model', () => {
  test('self-attention: the bank sentences, as the model weighs them', () => {
    const loan = 'I took a loan from the bank';
    const river = 'I sat on the river bank';
    says(slides.self, `"loan" ${two(weight(loan, '2.3', 'bank', 'loan'))} of the weight of "bank"`);
    assert.ok(weight(loan, '2.3', 'bank', 'i') > weight(loan, '2.3', 'bank', 'loan'), '"I" more');
    says(slides.self, `gives "river" only ${two(weight(river, '2.3', 'bank', 'river'))}`);
    says(slides.self, `head 1.4 gives "river" ${two(weight(river, '1.4', 'bank', 'river'))}`);
  });

  test('multi-head: the heads’ measured jobs, from the report', () => {
    says(slides.multi, `Head 1.4 puts ${two(scores('1.4').previousToken)} of its weight`);
    const induction = info.heads.filter((h) => h.layer === 1).map((h) => h.scores.induction);
    assert.ok(info.heads.filter((h) => h.layer === 1).every((h) => h.kind === 'induction'));
    says(
      slides.multi,
      `scores from ${two(Math.min(...induction))} to ${two(Math.max(...induction))}`,
    );
    says(slides.multi, `(1.3 leans the same way as 1.4, at ${two(scores('1.3').previousToken)})`);
    const { batch, repeatedPerBatch } = info.training;
    says(slides.multi, `${repeatedPerBatch} of the ${batch} training windows`);
  });

  test('multi-head: no head resolves the pronoun, as the model weighs it', () => {
    const animal = "The animal didn't cross the street because it was too tired";
    const toAnimal = weight(animal, '1.2', 'it', 'animal');
    says(slides.multi, `head 1.2, gives "animal" ${two(toAnimal)} of the weight of "it"`);
    assert.ok(weight(animal, '1.2', 'it', 'did') > toAnimal, '"did" more');
  });
});

describe('the slides quote the live sibling’s training', () => {
  test('no head has a job for 300 steps; at step 400 both layer-2 heads are induction heads', async () => {
    // The page's own run (seed and recipe of web/src/engine/lm-training.js), in wasm as the
    // page's worker runs it; its later steps are docs/language-model.md's table (npm run
    // bench:live), which tests/e2e/live-training.test.js checks the page against.
    const { loadEngine } = await import('attention-lab');
    const engine = await loadEngine();
    const file = (/** @type {string} */ path) =>
      readFileSync(new URL(`../../web/public/${path}`, import.meta.url));
    engine.loadEmbeddings(file('embeddings/en-20k-100d.bin'));
    const training = engine.createLanguageModelTraining(
      file('models/brown-live-train.bin'),
      file('models/brown-live-heldout.bin'),
    );
    try {
      const seed = training.options.seed;
      says(slides.multi, `With the seed the figure starts on (${seed}), for about 300 steps`);
      training.step(300);
      assert.ok(
        training.measure().every((head) => head.kind === 'mixed'),
        'no job at step 300',
      );
      training.step(100);
      const layer2 = training.measure().filter((head) => head.layer === 1);
      assert.ok(layer2.every((head) => head.kind === 'induction'));
      const [a, b] = layer2.map((head) => two(head.induction));
      says(slides.multi, `(${a} and ${b} at step 400`);
    } finally {
      training.dispose();
    }
  });
});
