// The page's two English-to-German translation models (docs/translation.md) over the raw core:
// one file holds both and the German vocabulary; it is loaded into the core once, and
// translate(text) tokenizes the English as every figure does, writes the German greedily, and
// returns, for the attention model, every German word's weights over the English words. What was
// measured on the models (BLEU, the alignment score) comes from the report the training wrote
// beside the file.
import { vocabularyOf } from '../text/embed.js';
import { tokenize } from '../text/tokenize.js';
import { requireBytes, show } from './args.js';

/** The models a translation file holds, by the name the core and the report give them. */
export const TRANSLATOR_MODELS = /** @type {const} */ (['attention', 'fixed-vector']);

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
 * Per core: the token of its last load that succeeded. A translator of an earlier file refuses to
 * run on the models of a later one.
 * @type {WeakMap<object, object>}
 */
const currentLoad = new WeakMap();

/**
 * @typedef {import('./index.js').Translator} Translator
 * @typedef {import('./index.js').TranslatorModel} TranslatorModel
 * @typedef {{ attention: Translator | null, fixedVector: Translator | null }} Translators
 */

/**
 * Throws unless `model` names one of the two models.
 * @param {string} where
 * @param {unknown} model
 * @returns {TranslatorModel}
 */
export function requireTranslatorModel(where, model) {
  if (model !== 'attention' && model !== 'fixed-vector') {
    throw new Error(`${where}: model must be 'attention' or 'fixed-vector', got ${show(model)}`);
  }
  return model;
}

/**
 * The model called `model` of a loaded pair, or an Error when the file did not hold it.
 * @param {Translators} translators
 * @param {TranslatorModel} model
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
  const measured = readReport(report);
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
  /** @param {TranslatorModel} model */
  const make = (model) =>
    sizes.models.includes(model)
      ? createTranslator(core, load, known, model, infoOf(model, sizes, measured))
      : null;
  return { attention: make('attention'), fixedVector: make('fixed-vector') };
}

/**
 * @param {any} core
 * @param {object} load the token of the load that made it
 * @param {(word: string) => boolean} known the tokenizer's vocabulary test
 * @param {TranslatorModel} model
 * @param {Readonly<import('./index.js').TranslatorInfo>} info
 * @returns {Translator}
 */
function createTranslator(core, load, known, model, info) {
  const where = `${model} translator`;
  const attends = model === 'attention';
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
      if (currentLoad.get(core) !== load) {
        throw new Error(
          `${where}: another translation file has been loaded into this engine since; use the ` +
            'translators that load returned',
        );
      }
      const all = tokenize(text.slice(0, MAX_TEXT_LENGTH), { known });
      if (all.length === 0) throw new Error(`${where}: type at least one word`);
      const source = all.slice(0, MAX_SOURCE_TOKENS);
      const n = source.length;
      const raw = core.translatorTranslate(model, source, maxWordsFor(n), beam);
      // The core reads the model's ids as words (readable_translation): pieces joined, the English
      // token copied in for <unk>, each word's row the mean of its pieces' rows.
      const output = /** @type {string[]} */ (raw.words);
      const copied = Array.from(/** @type {Int32Array} */ (raw.copied));
      const w = output.length;
      const m = /** @type {string[]} */ (raw.pieces).length;
      return {
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
          // (e_tj, whose softmax over j is the step's row of weights).
          text: /** @type {string[]} */ (raw.pieces),
          firstPiece: Array.from(/** @type {Int32Array} */ (raw.firstPiece)),
          weights: attends ? raw.weights.subarray(0, m * n) : new Float32Array(0),
          scores: attends ? raw.scores.subarray(0, m * n) : new Float32Array(0),
        },
        logProbability: raw.logProbability,
      };
    },
  };
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
  throw new Error(`loadTranslator: the translation report ${what}`);
}

/**
 * @typedef {{ parameters: number, validationPerplexity: number, testPerplexity: number,
 *   bleu: import('./index.js').TranslatorBleu, alignment: import('./index.js').AlignmentScore | null }}
 *   MeasuredModel
 */

/**
 * The parts of the report the models' info exposes, checked (but for which models the file
 * holds, which only the load tells).
 * @param {any} report
 * @returns {{ corpus: import('./index.js').TranslatorInfo['corpus'], training: unknown,
 *   models: Partial<Record<TranslatorModel, MeasuredModel>> }}
 */
function readReport(report) {
  if (!report || typeof report !== 'object' || report.format !== 'attn-translation-report') {
    fail('is not an attn-translation-report');
  }
  const corpus = report.corpus;
  for (const split of ['trainPairs', 'validationPairs', 'testPairs']) {
    if (!isCount(corpus?.[split])) fail(`has no corpus.${split}`);
  }
  if (!report.training || typeof report.training !== 'object') fail('has no training settings');
  if (!report.models || typeof report.models !== 'object') fail('has no models');
  /** @type {Partial<Record<TranslatorModel, MeasuredModel>>} */
  const models = {};
  for (const model of TRANSLATOR_MODELS) {
    const entry = report.models[model];
    if (entry === undefined || entry === null) continue;
    const at = `models.${model}`;
    if (!isCount(entry.parameters)) fail(`has no ${at}.parameters`);
    for (const name of ['validationPerplexity', 'testPerplexity']) {
      if (!isScore(entry[name])) fail(`has no ${at}.${name}`);
    }
    models[model] = {
      parameters: entry.parameters,
      validationPerplexity: entry.validationPerplexity,
      testPerplexity: entry.testPerplexity,
      bleu: readBleu(entry.bleu, at),
      alignment: readAlignment(entry.alignment, at),
    };
  }
  return {
    corpus: {
      trainPairs: corpus.trainPairs,
      validationPairs: corpus.validationPairs,
      testPairs: corpus.testPairs,
    },
    training: report.training,
    models,
  };
}

/**
 * @param {any} bleu
 * @param {string} at
 * @returns {import('./index.js').TranslatorBleu}
 */
function readBleu(bleu, at) {
  const score = (/** @type {any} */ part, /** @type {string} */ name) => {
    if (!isScore(part?.bleu) || !isCount(part?.sentences)) {
      fail(`has no ${at}.bleu.${name} with a bleu score and a count of sentences`);
    }
    return { bleu: part.bleu, sentences: part.sentences };
  };
  const overall = score(bleu?.overall, 'overall');
  if (!Array.isArray(bleu.buckets)) fail(`has no ${at}.bleu.buckets`);
  const buckets = bleu.buckets.map((/** @type {any} */ bucket, /** @type {number} */ i) => {
    const to = bucket?.to;
    if (!isCount(bucket?.from) || !(to === null || (isCount(to) && to >= bucket.from))) {
      fail(`has a bucket ${i} of ${at}.bleu without a length range (from, to or null)`);
    }
    return { from: bucket.from, to, ...score(bucket, `buckets[${i}]`) };
  });
  return { overall, buckets };
}

/**
 * @param {any} alignment
 * @param {string} at
 * @returns {import('./index.js').AlignmentScore | null}
 */
function readAlignment(alignment, at) {
  if (alignment === undefined || alignment === null) return null;
  for (const name of ['checkable', 'aligned']) {
    if (!isCount(alignment[name])) fail(`has no ${at}.alignment.${name}`);
  }
  for (const name of ['score', 'diagonalScore']) {
    if (!isScore(alignment[name])) fail(`has no ${at}.alignment.${name}`);
  }
  return {
    checkable: alignment.checkable,
    aligned: alignment.aligned,
    score: alignment.score,
    diagonalScore: alignment.diagonalScore,
  };
}

/**
 * @param {TranslatorModel} model
 * @param {any} sizes what the core's load returned
 * @param {ReturnType<typeof readReport>} measured
 * @returns {Readonly<import('./index.js').TranslatorInfo>}
 */
function infoOf(model, sizes, measured) {
  const entry = /** @type {MeasuredModel} */ (measured.models[model]);
  return deepFreeze({
    model,
    sourceWords: sizes.sourceWords,
    sourceWidth: sizes.sourceWidth,
    targetWords: sizes.targetWords,
    targetWidth: sizes.targetWidth,
    encoderState: sizes.encoderState,
    decoderState: sizes.decoderState,
    attentionWidth: model === 'attention' ? sizes.attentionWidth : null,
    parameters: entry.parameters,
    maxSourceTokens: MAX_SOURCE_TOKENS,
    corpus: { ...measured.corpus },
    training: structuredClone(measured.training),
    validationPerplexity: entry.validationPerplexity,
    testPerplexity: entry.testPerplexity,
    bleu: structuredClone(entry.bleu),
    alignment: entry.alignment && { ...entry.alignment },
  });
}

/**
 * Freezes an object and everything in it (plain data, as JSON gives).
 * @template T
 * @param {T} value
 * @returns {T}
 */
function deepFreeze(value) {
  if (value && typeof value === 'object') {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}

/** @param {unknown} value a whole number >= 0 */
function isCount(value) {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0;
}

/** @param {unknown} value a finite number >= 0 */
function isScore(value) {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0;
}
