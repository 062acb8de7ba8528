// Measures the shipped translation models the way the page runs them, and writes the report the
// page reads beside them (web/public/models/translation.json, docs/translation.md).
//
// The file (web/public/models/translation.bin) goes into the WebAssembly engine in Node, and every
// pair of the test split is translated from its English text by translate(text), exactly as a
// figure calls it. The report holds the trainer's summary (settings, parameters, the perplexities
// it measured on the same file read back) and what is measured here: corpus BLEU-4 overall and by
// English length, and for the attention model the alignment score against the dictionary with the
// diagonal guess beside it (bleu.js, alignment-score.js), and the share of the words written that
// are <unk>, and the scores on the everyday set (everyday.js). BLEU scores the translation translate() gives to read (`output`: the attention model
// copies an English token in place of each <unk>); `writtenBleu` is the overall score of the words
// as written, <unk> included, so that the copying's share of the score is on record.
//
// Usage: node tools/translation/report.js [--weights FILE] [--summary FILE] [--corpus DIR]
//          [--out FILE] [--beam N]
// --beam N measures translations by beam search of width N (translate(text, { beam: N })); the
// default is PAGE_BEAM, and the page's comparison and alignment views search with the beam the
// report names (`decoding.beam`, read as `info.measuredBeam`), so what they show is what was scored.
// npm run train:translation runs it after training.

import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import process from 'node:process';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';

import { loadEngine } from '../../web/src/engine/node.js';
import { readDictionary } from './alignment-score.js';
import { readReferencePairs, scoreWords } from './evaluate.js';
import { EVERYDAY_SET, readEverydaySet, scoreEveryday } from './everyday.js';
import { GERMAN_UNKNOWN } from './pairs.js';

/** @typedef {ReturnType<typeof scoreWords>} Scores */
/**
 * What the report holds measured on one model.
 * @typedef {ReturnType<typeof measured> & { writtenBleu: number, unknownWords: { written: number,
 *   unknown: number, share: number, copied: number }, everyday: Omit<ReturnType<typeof
 *   scoreEveryday>, 'translations'> }} Measured
 */

const EVERYDAY_PAIRS = readEverydaySet(readFileSync(EVERYDAY_SET, 'utf8'));

const VECTORS = fileURLToPath(
  new URL('../../web/public/embeddings/en-20k-100d.bin', import.meta.url),
);

/**
 * The report's entry for one model's measured scores.
 * @param {Scores} scores
 */
function measured(scores) {
  const { overall, buckets, outside } = scores.bleu;
  const part = (/** @type {typeof overall} */ b) => ({
    bleu: round(b.bleu, 2),
    sentences: b.sentences,
    brevityPenalty: round(b.brevityPenalty, 4),
    precisions: b.precisions.map((p) => round(p, 4)),
  });
  return {
    bleu: {
      overall: part(overall),
      buckets: buckets.map((b) => ({
        from: b.from,
        to: Number.isFinite(b.to) ? b.to : null,
        ...part(b),
      })),
      outside,
    },
    alignment: scores.alignment && {
      checkable: scores.alignment.checkable,
      aligned: scores.alignment.aligned,
      score: round(scores.alignment.score, 4),
      diagonalAligned: scores.alignment.diagonalAligned,
      diagonalScore: round(scores.alignment.diagonalScore, 4),
    },
  };
}

/**
 * @param {number} x
 * @param {number} digits
 */
function round(x, digits) {
  return Number(x.toFixed(digits));
}

/** The beam the report measures with unless told otherwise, and so the one the page shows. */
export const PAGE_BEAM = 4;

/** What the report calls each source of the train split's pairs (the first field of a line). */
const SOURCE_NAMES = {
  ding: 'Ding (trans-de-en), GPL-2+',
  libreoffice: "LibreOffice's help (en-US, de), MPL-2.0",
  'ding-entry': "Ding's word and phrase entries (trans-de-en), GPL-2+",
  game: "The games' German catalogues (FreedroidRPG, Wesnoth, Widelands), GPL-2+",
};

/**
 * The sources of a split's pairs, in the order they first appear in its .tsv.
 * @param {string} tsv
 * @returns {string[]}
 */
export function sourcesOf(tsv) {
  const found = new Set();
  for (const line of tsv.split('\n')) if (line !== '') found.add(line.slice(0, line.indexOf('\t')));
  return [...found];
}

/**
 * The report without measured scores yet, from the trainer's summary: what the engine checks the
 * file against when it loads it for the measurement.
 * @param {any} summary
 * @param {{ train: number, validation: number, test: number, sources: string[] }} pairs the
 *   split sizes and the train split's sources
 * @param {string} weightsPath
 * @param {number} weightsBytes
 */
export function reportFromSummary(summary, pairs, weightsPath, weightsBytes) {
  /** @type {Record<string, any>} */
  const models = {};
  for (const [name, model] of Object.entries(summary.models)) {
    const m = /** @type {any} */ (model);
    models[name] = {
      parameters: m.parameters,
      validationPerplexity: m.validationPerplexity,
      testPerplexity: m.testPerplexity,
      trainSeconds: m.trainSeconds,
      tokensPerSecond: m.tokensPerSecond,
      keptStep: m.keptStep,
      bleu: { overall: { bleu: 0, sentences: 0 }, buckets: [] },
      alignment: null,
    };
  }
  return {
    format: 'attn-translation-report',
    weights: { file: weightsPath, bytes: weightsBytes, storage: 'int8 rows' },
    corpus: {
      trainPairs: pairs.train,
      validationPairs: pairs.validation,
      testPairs: pairs.test,
      sources: pairs.sources.map((source) => SOURCE_NAMES[source] ?? source),
    },
    training: summary.training,
    models,
  };
}

/**
 * Translates every pair of a split with each model in the file, from its English text by
 * translate(text) as a figure calls it, in the WebAssembly engine, and scores the translations.
 * @param {Uint8Array} weights the translation file
 * @param {unknown} report a report that describes the file's models (the engine checks it)
 * @param {import('./evaluate.js').ReferencePair[]} pairs
 * @param {Map<string, Set<string>>} dictionary
 * @param {{ beam?: number }} [options] the beam translate() searches with (1: greedy)
 * @returns {Promise<Record<string, Measured>>} by model name, as the report holds them
 */
export async function measureModels(weights, report, pairs, dictionary, { beam = 1 } = {}) {
  const engine = await loadEngine();
  engine.loadEmbeddings(new Uint8Array(readFileSync(VECTORS)));
  const translators = engine.loadTranslators(weights, report);
  /** @type {Record<string, Measured>} */
  const result = {};
  for (const name of /** @type {const} */ (['attention', 'fixed-vector'])) {
    const translator = name === 'attention' ? translators.attention : translators.fixedVector;
    if (!translator) continue;
    let differentTokens = 0;
    const translations = pairs.map((pair) => {
      const t = translator.translate(pair.text, { beam });
      if (t.source.join(' ') !== pair.english.join(' ')) differentTokens++;
      const weightRows = new Float32Array(t.weights.length + t.end.length);
      weightRows.set(t.weights);
      weightRows.set(t.end, t.weights.length);
      const copies = t.copied.filter((column) => column >= 0).length;
      return { target: t.target, output: t.output, copies, weights: weightRows };
    });
    if (differentTokens > 0) {
      throw new Error(`${name}: ${differentTokens} sentences tokenize differently here`);
    }
    const written = translations.reduce((sum, t) => sum + t.target.length, 0);
    const unknown = translations.reduce(
      (sum, t) => sum + t.target.filter((word) => word === GERMAN_UNKNOWN).length,
      0,
    );
    const copied = translations.reduce((sum, t) => sum + t.copies, 0);
    const asWritten = translations.map(({ target, weights }) => ({ target, weights }));
    const { sentences, chrf, unknownShare, contentWordRecall } = scoreEveryday(
      translator,
      EVERYDAY_PAIRS,
      { beam },
    );
    result[name] = {
      ...measured(scoreWords(pairs, translations, dictionary)),
      writtenBleu: round(scoreWords(pairs, asWritten, dictionary).bleu.overall.bleu, 2),
      // How much of what the model wrote is the token for a word outside its vocabulary, and how
      // many of those the reading copies from the English.
      unknownWords: { written, unknown, share: round(unknown / Math.max(1, written), 4), copied },
      // The same scores on everyday English (everyday.js), a text of another kind than the test
      // split's: chrF, the share of <unk> written, the references' content words found.
      everyday: { sentences, chrf, unknownShare, contentWordRecall },
    };
  }
  return result;
}

async function main() {
  const { values } = parseArgs({
    options: {
      weights: { type: 'string', default: 'web/public/models/translation.bin' },
      summary: { type: 'string', default: 'build/translation/summary.json' },
      corpus: { type: 'string', default: 'build/corpus/translation' },
      out: { type: 'string', default: 'web/public/models/translation.json' },
      beam: { type: 'string', default: String(PAGE_BEAM) },
    },
  });
  const beam = Number(values.beam);
  if (!Number.isInteger(beam) || beam < 1 || beam > 16) {
    throw new Error(`report: --beam takes a whole number from 1 to 16, got ${values.beam}`);
  }
  const corpus = values.corpus ?? 'build/corpus/translation';
  const weightsPath = values.weights ?? 'web/public/models/translation.bin';
  const tsv = (/** @type {string} */ name) => readFileSync(join(corpus, `${name}.tsv`), 'utf8');
  const split = (/** @type {string} */ name) => readReferencePairs(tsv(name));
  const test = split('test');
  const pairs = {
    sources: sourcesOf(tsv('train')),
    train: split('train').length,
    validation: split('validation').length,
    test: test.length,
  };
  const weights = readFileSync(weightsPath);
  const summary = JSON.parse(readFileSync(values.summary ?? '', 'utf8'));
  const report = {
    ...reportFromSummary(summary, pairs, weightsPath, weights.length),
    // How the measured translations were searched (1: greedy); the page searches the same way.
    decoding: { beam },
  };
  const dictionary = readDictionary(readFileSync(join(corpus, 'dictionary.tsv'), 'utf8'));

  const measuredModels = await measureModels(new Uint8Array(weights), report, test, dictionary, {
    beam,
  });
  for (const [name, m] of Object.entries(measuredModels)) {
    Object.assign(report.models[name], m);
    process.stderr.write(
      `report: ${name}: BLEU ${m.bleu.overall.bleu}` +
        (m.alignment
          ? `, alignment ${m.alignment.score} (diagonal ${m.alignment.diagonalScore})`
          : '') +
        '\n',
    );
  }
  writeFileSync(values.out ?? '', `${JSON.stringify(report, null, 2)}\n`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
