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
// With --model transformer it measures lesson 2's Transformer the same way
// (web/public/models/transformer.bin, docs/transformer.md), and adds each decoder layer's and
// head's own alignment score (`heads`) and what its encoder does with the test sentences: its
// residual stream and its self-attention heads (`encoder`, encoder-trace.js).
//
// Usage: node tools/translation/report.js [--model recurrent|transformer] [--weights FILE]
//          [--summary FILE] [--corpus DIR] [--out FILE] [--beam N]
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
import { alignmentScore, readDictionary } from './alignment-score.js';
import { encoderStats } from './encoder-trace.js';
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
  // The recurrent pair's summary holds `models`; the Transformer's one `model` and its `sizes`.
  const trained = summary.models ?? { transformer: summary.model };
  for (const [name, model] of Object.entries(trained)) {
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
    ...(summary.sizes ? { sizes: summary.sizes } : {}),
    models,
  };
}

/**
 * Translates every pair of a split with each model in the file, from its English text by
 * translate(text) as a figure calls it, in the WebAssembly engine, and scores the translations.
 * @param {Uint8Array} weights the translation file (or with `transformer`, the Transformer's)
 * @param {unknown} report a report that describes the file's models (the engine checks it)
 * @param {import('./evaluate.js').ReferencePair[]} pairs
 * @param {Map<string, Set<string>>} dictionary
 * @param {{ beam?: number, transformer?: boolean }} [options] the beam translate() searches with
 *   (1: greedy); whether the file is a Transformer's
 * @returns {Promise<Record<string, Measured>>} by model name, as the report holds them
 */
export async function measureModels(
  weights,
  report,
  pairs,
  dictionary,
  { beam = 1, transformer = false } = {},
) {
  const engine = await loadEngine();
  engine.loadEmbeddings(new Uint8Array(readFileSync(VECTORS)));
  /** @type {Record<string, import('../../web/src/engine/index.js').Translator | null>} */
  let models;
  if (transformer) {
    models = { transformer: engine.loadTransformer(weights, report) };
  } else {
    const translators = engine.loadTranslators(weights, report);
    models = { attention: translators.attention, 'fixed-vector': translators.fixedVector };
  }
  /** @type {Record<string, Measured>} */
  const result = {};
  for (const [name, translator] of Object.entries(models)) {
    if (!translator) continue;
    let differentTokens = 0;
    const translations = pairs.map((pair) => {
      const t = translator.translate(pair.text, { beam });
      if (t.source.join(' ') !== pair.english.join(' ')) differentTokens++;
      const copies = t.copied.filter((column) => column >= 0).length;
      return {
        target: t.target,
        output: t.output,
        copies,
        weights: withEnd(t.weights, t.end),
        heads: t.crossAttention && headRows(t.crossAttention, t.target.length, t.source.length),
        encoder: t.encoder && { n: t.source.length, encoder: t.encoder },
      };
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
      ...(translator.info.transformer
        ? {
            heads: headScores(pairs, translations, dictionary, translator.info.transformer.heads),
            encoder: encoderStats(
              translations.flatMap((t) => (t.encoder ? [t.encoder] : [])),
              (x) => round(x, 4),
            ),
          }
        : {}),
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

/**
 * A translation's word rows followed by its </s> row, as the alignment score reads them.
 * @param {Float32Array} words (w, n)
 * @param {Float32Array} end (n)
 */
function withEnd(words, end) {
  const rows = new Float32Array(words.length + end.length);
  rows.set(words);
  rows.set(end, words.length);
  return rows;
}

/**
 * Each cross-attention map of a Transformer's translation as (w + 1, n) rows, layer-major.
 * @param {import('../../web/src/engine/index.js').CrossAttention} cross
 * @param {number} w German words
 * @param {number} n English tokens
 */
function headRows(cross, w, n) {
  return Array.from({ length: cross.layers * cross.heads }, (_, k) =>
    withEnd(
      cross.weights.subarray(k * w * n, (k + 1) * w * n),
      cross.end.subarray(k * n, (k + 1) * n),
    ),
  );
}

/**
 * Every decoder layer's and head's own alignment score on the split, layer-major.
 * @param {import('./evaluate.js').ReferencePair[]} pairs
 * @param {{ target: string[], heads?: Float32Array[] }[]} translations
 * @param {Map<string, Set<string>>} dictionary
 * @param {number} heads per layer
 */
function headScores(pairs, translations, dictionary, heads) {
  const maps = translations.find((t) => t.heads)?.heads?.length ?? 0;
  return Array.from({ length: maps }, (_, k) => {
    const score = alignmentScore(
      pairs.map((pair, i) => ({
        source: pair.english,
        target: [...translations[i].target, '</s>'],
        weights: translations[i].heads?.[k] ?? new Float32Array(0),
      })),
      dictionary,
    );
    return {
      layer: Math.floor(k / heads),
      head: k % heads,
      checkable: score.checkable,
      aligned: score.aligned,
      score: round(score.score, 4),
    };
  });
}

async function main() {
  const { values } = parseArgs({
    options: {
      model: { type: 'string', default: 'recurrent' },
      weights: { type: 'string' },
      summary: { type: 'string' },
      corpus: { type: 'string', default: 'build/corpus/translation' },
      out: { type: 'string' },
      beam: { type: 'string', default: String(PAGE_BEAM) },
    },
  });
  if (values.model !== 'recurrent' && values.model !== 'transformer') {
    throw new Error(`report: --model takes recurrent or transformer, got ${values.model}`);
  }
  const transformer = values.model === 'transformer';
  const defaults = transformer
    ? {
        weights: 'web/public/models/transformer.bin',
        summary: 'build/transformer/summary.json',
        out: 'web/public/models/transformer.json',
      }
    : {
        weights: 'web/public/models/translation.bin',
        summary: 'build/translation/summary.json',
        out: 'web/public/models/translation.json',
      };
  const beam = Number(values.beam);
  if (!Number.isInteger(beam) || beam < 1 || beam > 16) {
    throw new Error(`report: --beam takes a whole number from 1 to 16, got ${values.beam}`);
  }
  const corpus = values.corpus ?? 'build/corpus/translation';
  const weightsPath = values.weights ?? defaults.weights;
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
  const summary = JSON.parse(readFileSync(values.summary ?? defaults.summary, 'utf8'));
  const report = {
    ...reportFromSummary(summary, pairs, weightsPath, weights.length),
    // How the measured translations were searched (1: greedy); the page searches the same way.
    decoding: { beam },
  };
  const dictionary = readDictionary(readFileSync(join(corpus, 'dictionary.tsv'), 'utf8'));

  const measuredModels = await measureModels(new Uint8Array(weights), report, test, dictionary, {
    beam,
    transformer,
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
  writeFileSync(values.out ?? defaults.out, `${JSON.stringify(report, null, 2)}\n`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
