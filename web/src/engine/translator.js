// The page's English-to-German translation models over the raw core: lesson 1's two recurrent
// models (docs/translation.md), which one file holds with their German vocabulary, and lesson 2's
// Transformer (docs/transformer.md), in a file of its own. A file is loaded into the core once,
// and translate(text) tokenizes the English as every figure does, writes the German greedily or
// by beam search, and returns every German word's weights over the English words (for the
// Transformer also every decoder layer's and head's cross-attention, and what its encoder does:
// every self-attention head and the residual stream's sizes). What was measured on the models
// (BLEU, the alignment score, the everyday set's scores, and the beam they were measured with)
// comes from the report the training wrote beside the file.
import { vocabularyOf } from '../text/embed.js';
import { tokenize } from '../text/tokenize.js';
import { requireBytes, show } from './args.js';
import {
  anyObject,
  cosine,
  count,
  list,
  literal,
  nullable,
  optional,
  readReport,
  score,
  shape,
} from './report-schema.js';

/** The models a translation file holds, by the name the core and the report give them. */
export const TRANSLATOR_MODELS = /** @type {const} */ (['attention', 'fixed-vector']);

/** Lesson 2's Transformer translator, in a file of its own: its name in loadTranslator and the report. */
export const TRANSFORMER_MODEL = 'transformer';

/** The German word the models write for any word outside their vocabulary. */
export const GERMAN_UNKNOWN = '<unk>';

/**
 * The most English tokens a translation reads: the first 64 of the text. The models were trained
 * on sentences (the core takes up to 128 tokens), and a figure of 64 columns is already as much
 * as a page can show; longer text is cut, and translate() says how many tokens it dropped.
 */
export const MAX_SOURCE_TOKENS = 64;

/**
 * The widest beam translate() searches with (the core's limit): 1 is greedy decoding, the
 * likeliest id at each step; wider beams keep that many partial translations and choose the one
 * of the best length-normalised probability (docs/translation.md).
 */
export const MAX_BEAM = 16;

/** The most characters of text translate() tokenizes: a long page of typing, never a hang. */
const MAX_TEXT_LENGTH = 100_000;

/** What a message about the report starts with. */
const REPORT_WHERE = 'loadTranslator: the translation report';

/** A corpus BLEU-4 score and the count of sentences it was measured on. */
const BLEU_SCORE = { bleu: score, sentences: count };

/**
 * What was measured on one model (tools/translation/report.js): its size, its held-out
 * perplexities, BLEU on the test split overall and by English length (`to` null for the last,
 * open bucket), the alignment score of its attention (absent for the fixed-vector model) and its
 * scores on the everyday set (absent in a report written without them).
 */
const MEASURED_MODEL = shape({
  parameters: count,
  validationPerplexity: score,
  testPerplexity: score,
  bleu: shape({
    overall: shape(BLEU_SCORE),
    buckets: list(
      shape(
        { from: count, to: nullable(count), ...BLEU_SCORE },
        { check: ({ from, to }) => (to === null || to >= from ? null : 'ends before it starts') },
      ),
    ),
  }),
  alignment: optional(
    shape({ checkable: count, aligned: count, score: score, diagonalScore: score }),
  ),
  // The Transformer's: each decoder layer's and head's own alignment score, layer-major.
  heads: optional(
    list(shape({ layer: count, head: count, checkable: count, aligned: count, score: score })),
  ),
  everyday: optional(
    shape({ sentences: count, chrf: score, unknownShare: score, contentWordRecall: score }),
  ),
  // The Transformer's: what its encoder does with the test sentences
  // (tools/translation/encoder-trace.js): its residual stream, stage by stage and sublayer by
  // sublayer, and where each self-attention head's largest weight falls.
  encoder: optional(
    shape({
      sentences: count,
      tokens: count,
      stages: list(shape({ streamRms: score, inputCosine: cosine })),
      sublayers: list(
        shape({ readRms: score, writeRms: score, streamSpread: score, readSpread: score }),
      ),
      heads: list(shape({ layer: count, head: count, previous: score, self: score, next: score })),
    }),
  ),
});

/**
 * What the models' info takes from the translation report (translation.json): the corpus's split
 * sizes, the training settings, and what was measured on each model the report describes.
 */
const TRANSLATION_REPORT = shape(
  {
    format: literal('attn-translation-report'),
    corpus: shape({ trainPairs: count, validationPairs: count, testPairs: count }),
    training: anyObject,
    models: shape({
      attention: optional(MEASURED_MODEL),
      'fixed-vector': optional(MEASURED_MODEL),
      transformer: optional(MEASURED_MODEL),
    }),
    // How the measured translations were searched (absent: greedily, a beam of 1).
    decoding: optional(
      shape(
        { beam: count },
        {
          check: ({ beam }) =>
            beam >= 1 && beam <= MAX_BEAM ? null : `beam is not a width from 1 to ${MAX_BEAM}`,
        },
      ),
    ),
  },
  { name: 'an attn-translation-report' },
);

/**
 * The most German words a translation of n English tokens writes before the model must end it:
 * 2 n + 10 (German runs longer than English, by a share, never by this much), and never more than
 * the core's 127.
 * @param {number} n
 */
export function maxWordsFor(n) {
  return Math.min(127, 2 * n + 10);
}

/**
 * Per core: the token of its last load of a translation file, and of a Transformer's file, that
 * succeeded. A translator of an earlier file refuses to run on the models of a later one.
 * @type {WeakMap<object, object>}
 */
const currentLoad = new WeakMap();
/** @type {WeakMap<object, object>} */
const currentTransformerLoad = new WeakMap();

/**
 * @typedef {import('./index.js').Translator} Translator
 * @typedef {import('./index.js').TranslatorModel} TranslatorModel
 * @typedef {{ attention: Translator | null, fixedVector: Translator | null }} Translators
 */

/**
 * Throws unless `model` names one of the three models.
 * @param {string} where
 * @param {unknown} model
 * @returns {TranslatorModel}
 */
export function requireTranslatorModel(where, model) {
  if (model !== 'attention' && model !== 'fixed-vector' && model !== TRANSFORMER_MODEL) {
    throw new Error(
      `${where}: model must be 'attention', 'fixed-vector' or 'transformer', got ${show(model)}`,
    );
  }
  return model;
}

/**
 * The model called `model` of a loaded pair, or an Error when the file did not hold it.
 * @param {Translators} translators
 * @param {'attention' | 'fixed-vector'} model
 * @returns {Translator}
 */
export function pickTranslator(translators, model) {
  const translator = model === 'attention' ? translators.attention : translators.fixedVector;
  if (!translator) throw new Error(`loadTranslator: the translation file has no ${model} model`);
  return translator;
}

/**
 * Loads a translation file into the core (replacing the models loaded before) and returns its
 * models.
 * @param {any} core the raw module, with the word vectors loaded
 * @param {Uint8Array | ArrayBuffer} weights the file (web/public/models/translation.bin)
 * @param {unknown} report what was measured on it (web/public/models/translation.json)
 * @returns {Translators}
 */
export function createTranslators(core, weights, report) {
  const where = 'loadTranslator';
  const bytes = requireBytes(where, 'weights', weights);
  // The report is checked first, so that a bad one leaves the models loaded before in place.
  const measured = readReport(report, TRANSLATION_REPORT, REPORT_WHERE);
  const sizes = core.translatorLoad(bytes);
  const load = {};
  currentLoad.set(core, load);
  // Now the core holds this file's models: a report that does not describe them fails the load.
  for (const model of sizes.models) {
    const entry = measured.models[model];
    if (!entry) fail(`has no ${model} model, which the file holds`);
    if (entry.parameters !== sizes.parameters[model]) {
      fail(
        `describes another ${model} model than the file (${entry.parameters} parameters, the ` +
          `file's has ${sizes.parameters[model]})`,
      );
    }
  }
  const known = vocabularyOf(core);
  const isCurrent = () => currentLoad.get(core) === load;
  /** @param {'attention' | 'fixed-vector'} model */
  const make = (model) =>
    sizes.models.includes(model)
      ? createTranslator(
          infoOf(model, sizes, measured),
          known,
          isCurrent,
          (source, maxWords, beam) => core.translatorTranslate(model, source, maxWords, beam),
        )
      : null;
  return { attention: make('attention'), fixedVector: make('fixed-vector') };
}

/**
 * Loads a Transformer's file into the core (replacing the Transformer loaded before) and returns
 * it: its translate() returns what the recurrent models' does, and `crossAttention`, every decoder
 * layer's and head's weights.
 * @param {any} core the raw module, with the word vectors loaded
 * @param {Uint8Array | ArrayBuffer} weights the file (web/public/models/transformer.bin)
 * @param {unknown} report what was measured on it (web/public/models/transformer.json)
 * @returns {Translator}
 */
export function createTransformer(core, weights, report) {
  const bytes = requireBytes('loadTranslator', 'weights', weights);
  const measured = readReport(report, TRANSLATION_REPORT, REPORT_WHERE);
  const entry = measured.models.transformer;
  if (!entry) fail('has no transformer model');
  const sizes = core.transformerLoad(bytes);
  const load = {};
  currentTransformerLoad.set(core, load);
  if (entry.parameters !== sizes.parameters) {
    fail(
      `describes another transformer model than the file (${entry.parameters} parameters, the ` +
        `file's has ${sizes.parameters})`,
    );
  }
  const info = Object.freeze({
    ...commonInfo(entry, measured),
    model: TRANSFORMER_MODEL,
    sourceWords: sizes.sourceWords,
    sourceWidth: sizes.sourceWidth,
    targetWords: sizes.targetWords,
    targetPieces: sizes.targetPieces,
    targetWidth: sizes.dModel,
    encoderState: null,
    decoderState: null,
    attentionWidth: null,
    transformer: Object.freeze({
      dModel: sizes.dModel,
      heads: sizes.heads,
      encoderLayers: sizes.encoderLayers,
      decoderLayers: sizes.decoderLayers,
      dMlp: sizes.dMlp,
    }),
    heads: entry.heads ?? [],
    encoderStats: entry.encoder ?? null,
  });
  return createTranslator(
    info,
    vocabularyOf(core),
    () => currentTransformerLoad.get(core) === load,
    (source, maxWords, beam) => core.transformerTranslate(source, maxWords, beam),
  );
}

/**
 * @param {Readonly<import('./index.js').TranslatorInfo>} info
 * @param {(word: string) => boolean} known the tokenizer's vocabulary test
 * @param {() => boolean} isCurrent whether the core still holds the model this translator reads
 * @param {(source: string[], maxWords: number, beam: number) => any} run the core's translation
 * @returns {Translator}
 */
function createTranslator(info, known, isCurrent, run) {
  const where = `${info.model} translator`;
  const attends = info.model !== 'fixed-vector';
  const file = info.model === TRANSFORMER_MODEL ? 'Transformer file' : 'translation file';
  return {
    info,

    translate(text, { beam = 1 } = {}) {
      if (typeof text !== 'string') {
        throw new Error(`${where}: text must be a string, got ${describe(text)}`);
      }
      if (!Number.isInteger(beam) || beam < 1 || beam > MAX_BEAM) {
        throw new Error(
          `${where}: beam must be a whole number from 1 to ${MAX_BEAM}, got ${show(beam)}`,
        );
      }
      if (!isCurrent()) {
        throw new Error(
          `${where}: another ${file} has been loaded into this engine since; use the ` +
            'translators that load returned',
        );
      }
      const all = tokenize(text.slice(0, MAX_TEXT_LENGTH), { known });
      if (all.length === 0) throw new Error(`${where}: type at least one word`);
      const source = all.slice(0, MAX_SOURCE_TOKENS);
      const n = source.length;
      const raw = run(source, maxWordsFor(n), beam);
      // The core reads the model's ids as words (readable_translation): pieces joined, the English
      // token copied in for <unk>, each word's row the mean of its pieces' rows.
      const output = /** @type {string[]} */ (raw.words);
      const copied = Array.from(/** @type {Int32Array} */ (raw.copied));
      const w = output.length;
      const m = /** @type {string[]} */ (raw.pieces).length;
      /** @type {import('./index.js').Translation} */
      const translation = {
        source,
        known: Array.from(/** @type {Uint8Array} */ (raw.known), (flag) => flag === 1),
        dropped: all.length - n,
        target: output.map((word, t) => (copied[t] < 0 ? word : GERMAN_UNKNOWN)),
        copied,
        output,
        // (w + 1, n) from the core: the w words' rows, then the </s> step's.
        weights: attends ? raw.wordWeights.subarray(0, w * n) : new Float32Array(0),
        end: attends ? raw.wordWeights.subarray(w * n) : new Float32Array(0),
        pieces: {
          // What the model wrote, one decision at a time: (m) ids as text, the first piece of
          // each word (w + 1), and each step's m rows of weights and of scores before the softmax
          // (e_tj, whose softmax over j is the step's row of weights; none for the Transformer).
          text: /** @type {string[]} */ (raw.pieces),
          firstPiece: Array.from(/** @type {Int32Array} */ (raw.firstPiece)),
          weights: attends ? raw.weights.subarray(0, m * n) : new Float32Array(0),
          scores: raw.scores.length > 0 ? raw.scores.subarray(0, m * n) : new Float32Array(0),
        },
        logProbability: raw.logProbability,
      };
      if (raw.layers !== undefined) {
        translation.crossAttention = everyHead(raw, w, m, n);
        translation.encoder = raw.encoder;
      }
      return translation;
    },
  };
}

/**
 * The Transformer's cross-attention from the core's rows, split as a translation's are: each
 * (layer, head) map's w word rows, its </s> row, and its m piece rows.
 * @param {any} raw what transformerTranslate returned
 * @param {number} w German words
 * @param {number} m German pieces
 * @param {number} n English tokens
 * @returns {import('./index.js').CrossAttention}
 */
function everyHead(raw, w, m, n) {
  const maps = raw.layers * raw.heads;
  const words = new Float32Array(maps * w * n);
  const end = new Float32Array(maps * n);
  const pieces = new Float32Array(maps * m * n);
  for (let k = 0; k < maps; k++) {
    const wordRows = raw.wordCrossWeights.subarray(k * (w + 1) * n, (k + 1) * (w + 1) * n);
    words.set(wordRows.subarray(0, w * n), k * w * n);
    end.set(wordRows.subarray(w * n), k * n);
    pieces.set(raw.crossWeights.subarray(k * (m + 1) * n, k * (m + 1) * n + m * n), k * m * n);
  }
  return { layers: raw.layers, heads: raw.heads, weights: words, end, pieces };
}

/**
 * The English token a German word's row weighs most (the first of equal ones), with its weight.
 * @param {ArrayLike<number>} weights (m, n) row-major
 * @param {number} n English tokens
 * @param {number} t the German word's row
 * @returns {{ column: number, weight: number }}
 */
export function largestInRow(weights, n, t) {
  let column = 0;
  for (let j = 1; j < n; j++) if (weights[t * n + j] > weights[t * n + column]) column = j;
  return { column, weight: weights[t * n + column] };
}

/**
 * @param {unknown} value
 * @returns {string}
 */
function describe(value) {
  if (value === null) return 'null';
  return Array.isArray(value) ? 'an array' : typeof value;
}

/**
 * @param {string} what
 * @returns {never}
 */
function fail(what) {
  throw new Error(`${REPORT_WHERE} ${what}`);
}

/**
 * What every model's info takes from its report.
 * @param {any} entry the report's entry for the model
 * @param {import('./report-schema.js').ReadOf<typeof TRANSLATION_REPORT>} measured
 */
function commonInfo(entry, measured) {
  return {
    parameters: entry.parameters,
    maxSourceTokens: MAX_SOURCE_TOKENS,
    corpus: measured.corpus,
    training: measured.training,
    validationPerplexity: entry.validationPerplexity,
    testPerplexity: entry.testPerplexity,
    bleu: entry.bleu,
    alignment: entry.alignment,
    everyday: entry.everyday,
    // The beam the report's translations were searched with (1 when it says none: greedy).
    measuredBeam: measured.decoding?.beam ?? 1,
  };
}

/**
 * @param {'attention' | 'fixed-vector'} model
 * @param {any} sizes what the core's load returned
 * @param {import('./report-schema.js').ReadOf<typeof TRANSLATION_REPORT>} measured
 * @returns {Readonly<import('./index.js').TranslatorInfo>}
 */
function infoOf(model, sizes, measured) {
  return Object.freeze({
    ...commonInfo(measured.models[model], measured),
    model,
    sourceWords: sizes.sourceWords,
    sourceWidth: sizes.sourceWidth,
    targetWords: sizes.targetWords,
    targetPieces: sizes.targetPieces,
    targetWidth: sizes.targetWidth,
    encoderState: sizes.encoderState,
    decoderState: sizes.decoderState,
    attentionWidth: model === 'attention' ? sizes.attentionWidth : null,
    transformer: null,
    heads: null,
    encoderStats: null,
  });
}
