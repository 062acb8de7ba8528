// Scores a model's translations of a corpus split: corpus BLEU-4 overall and by English length
// (bleu.js), and for a model with attention the alignment score against the dictionary
// (alignment-score.js). The translations come as JSON lines, one per pair of the split in its
// order for each model: {"model": name, "pair": i, "words": [German ids], "weights": [(words + 1) x
// n English weights]}, as `attn_train translation --translations` writes them. Prints a report per
// model.
//
// Usage: node tools/translation/evaluate.js --translations FILE [--corpus DIR] [--split NAME]
// Prints the report as JSON.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import process from 'node:process';
import { fileURLToPath } from 'node:url';

import { alignmentScore, readDictionary } from './alignment-score.js';
import { bleuByLength } from './bleu.js';

/**
 * @typedef {object} ReferencePair
 * @property {string} text the English sentence as written
 * @property {string[]} english the English tokens
 * @property {string[]} german the reference German tokens
 */

/**
 * The pairs of a split's .tsv file (docs/translation-corpus.md): source, English text, German
 * text, English tokens, German tokens.
 * @param {string} text
 * @returns {ReferencePair[]}
 */
export function readReferencePairs(text) {
  return text
    .split('\n')
    .filter((line) => line !== '')
    .map((line, index) => {
      const fields = line.split('\t');
      if (fields.length !== 5) {
        throw new RangeError(`line ${index + 1} has ${fields.length} fields, expected 5`);
      }
      return { text: fields[1], english: fields[3].split(' '), german: fields[4].split(' ') };
    });
}

/**
 * @typedef {object} ModelTranslation
 * @property {number[]} words German ids written, without the end marker
 * @property {number[]} weights (words + 1) x n row-major, or empty for a model without attention
 */

/**
 * @typedef {object} WordTranslation
 * @property {string[]} target German words written, without the end marker
 * @property {string[]} [output] the translation BLEU scores, when it is not `target`: the
 *   engine's, with an English token copied in place of each unknown word it could place
 * @property {ArrayLike<number>} weights (target + 1) x n row-major, the last row the end marker's,
 *   or empty for a model without attention
 */

/**
 * Corpus BLEU by English length, and for a model with attention the alignment score (of the
 * words written: a copied English token is not the model's German).
 * @param {ReferencePair[]} references
 * @param {WordTranslation[]} translations in the references' order
 * @param {Map<string, Set<string>>} dictionary German word -> the English words it translates
 */
export function scoreWords(references, translations, dictionary) {
  if (translations.length !== references.length) {
    throw new RangeError(
      `${translations.length} translations for ${references.length} reference pairs`,
    );
  }
  const bleu = bleuByLength(
    references.map((reference, i) => ({
      sourceLength: reference.english.length,
      hypothesis: translations[i].output ?? translations[i].target,
      reference: reference.german,
    })),
  );
  const attends = translations.every(({ weights }) => weights.length > 0);
  const alignment = attends
    ? alignmentScore(
        references.map((reference, i) => ({
          source: reference.english,
          target: [...translations[i].target, '</s>'],
          weights: Float32Array.from(translations[i].weights),
        })),
        dictionary,
      )
    : null;
  return { bleu, alignment };
}

/**
 * The same for translations given as German ids.
 * @param {ReferencePair[]} references
 * @param {ModelTranslation[]} translations in the references' order
 * @param {string[]} vocabulary German tokens by id
 * @param {Map<string, Set<string>>} dictionary German word -> the English words it translates
 */
export function scoreTranslations(references, translations, vocabulary, dictionary) {
  return scoreWords(
    references,
    translations.map(({ words, weights }, i) => ({
      target: words.map((id) => {
        const word = vocabulary[id];
        if (word === undefined) {
          throw new RangeError(`translation ${i}: German id ${id} is unknown`);
        }
        return word;
      }),
      weights,
    })),
    dictionary,
  );
}

function main() {
  const { values } = parseArgs({
    options: {
      translations: { type: 'string' },
      corpus: { type: 'string', default: 'build/corpus/translation' },
      split: { type: 'string', default: 'test' },
    },
  });
  if (!values.translations) {
    throw new Error('usage: evaluate.js --translations FILE [--corpus DIR] [--split NAME]');
  }
  const corpus = values.corpus ?? 'build/corpus/translation';
  const references = readReferencePairs(readFileSync(join(corpus, `${values.split}.tsv`), 'utf8'));
  const vocabulary = readFileSync(join(corpus, 'german-vocab.txt'), 'utf8').split('\n');
  const dictionary = readDictionary(readFileSync(join(corpus, 'dictionary.tsv'), 'utf8'));
  /** @type {Map<string, ModelTranslation[]>} */
  const byModel = new Map();
  for (const line of readFileSync(values.translations, 'utf8').split('\n')) {
    if (line === '') continue;
    const translation = /** @type {ModelTranslation & { model?: string }} */ (JSON.parse(line));
    const name = translation.model ?? 'model';
    const list = byModel.get(name) ?? [];
    list.push(translation);
    byModel.set(name, list);
  }
  /** @type {Record<string, ReturnType<typeof scoreTranslations>>} */
  const report = {};
  for (const [name, translations] of byModel) {
    report[name] = scoreTranslations(references, translations, vocabulary, dictionary);
  }
  process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) main();
