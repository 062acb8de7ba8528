// The page's trained language model (docs/language-model.md) over the raw core: load its weights
// once, then run(text) tokenizes the text as every figure does, keeps the last `context` tokens,
// and returns every head's weights with the kind and scores measured on it when it was trained
// (the report the training tool wrote beside the weights), and the model's next words.
import { vocabularyOf } from '../text/embed.js';
import { tokenize } from '../text/tokenize.js';
import { requireBytes, requireCount } from './args.js';
import {
  anyObject,
  count,
  list,
  literal,
  optional,
  readReport,
  score,
  shape,
  text,
} from './report-schema.js';

/** The most tokens of text run() looks at: about a page of typing before the model's context. */
const MAX_TEXT_LENGTH = 100_000;

/** What a message about the report starts with. */
const REPORT_WHERE = "loadLanguageModel: the model's report";

/** The model's perplexity on a held-out split. */
const PERPLEXITY = shape({ perplexity: score });
/** A baseline's perplexities on both held-out splits. */
const BASELINE = shape({ perplexity: shape({ validation: score, test: score }) });
/** A corpus split: its samples, its tokens and the share of them outside the vocabulary. */
const CORPUS_SPLIT = shape({ samples: count, tokens: count, outOfVocabularyPercent: score });

/**
 * What `info` takes from the report `attn_train language-model` writes beside the weights (brown-lm.json,
 * docs/language-model.md): the vocabulary it was trained on, every head's scores and kind, the
 * held-out perplexities and, when it measured them, the corpus splits and the baselines' scores,
 * and the training settings.
 */
const LANGUAGE_MODEL_REPORT = shape(
  {
    format: literal('attn-lm-report'),
    config: shape({ vocab: count }),
    heads: list(
      shape({
        layer: count,
        head: count,
        kind: text,
        previousToken: score,
        firstToken: score,
        self: score,
        induction: score,
      }),
    ),
    validation: PERPLEXITY,
    test: PERPLEXITY,
    baselines: optional(
      shape({
        corpus: text,
        splits: shape({ train: CORPUS_SPLIT, validation: CORPUS_SPLIT, test: CORPUS_SPLIT }),
        unigram: BASELINE,
        kneserNeyBigram: BASELINE,
      }),
    ),
    training: optional(anyObject),
  },
  { name: 'an attn-lm-report' },
);

/**
 * @param {any} core the raw module, with the word vectors loaded
 * @param {Uint8Array} weights the weights file (web/public/models/brown-lm.bin)
 * @param {unknown} report the training tool's report of what was measured on those weights
 * @returns {import('./index.js').LanguageModel}
 */
export function createLanguageModel(core, weights, report) {
  const where = 'loadLanguageModel';
  const bytes = requireBytes(where, 'weights', weights);
  // The report is read first, so that a malformed one leaves the model loaded before in place.
  const measured = readReport(report, LANGUAGE_MODEL_REPORT, REPORT_WHERE);
  const sizes = core.languageModelLoad(bytes);
  requireSameModel(measured, sizes);
  const known = vocabularyOf(core);

  const { heads: headsPerLayer, ...size } = sizes;
  const { baselines } = measured;
  const info = Object.freeze({
    ...size,
    headsPerLayer,
    corpus: baselines && Object.freeze({ name: baselines.corpus, splits: baselines.splits }),
    validationPerplexity: measured.validation.perplexity,
    testPerplexity: measured.test.perplexity,
    baselines:
      baselines &&
      Object.freeze({
        unigram: baselines.unigram.perplexity,
        kneserNeyBigram: baselines.kneserNeyBigram.perplexity,
      }),
    training: measured.training,
    heads: Object.freeze(
      measured.heads.map((head) =>
        Object.freeze({
          layer: head.layer,
          head: head.head,
          kind: head.kind,
          scores: Object.freeze({
            previousToken: head.previousToken,
            firstToken: head.firstToken,
            self: head.self,
            induction: head.induction,
          }),
        }),
      ),
    ),
  });

  return {
    info,

    run(text, { top = 5 } = {}) {
      if (typeof text !== 'string') {
        throw new Error(`language model: text must be a string, got ${typeof text}`);
      }
      requireCount('language model', 'top', top);
      const all = tokenize(text.slice(-MAX_TEXT_LENGTH), { known });
      if (all.length === 0) throw new Error('language model: type at least one word');
      const first = Math.max(0, all.length - sizes.context);
      const tokens = all.slice(first);
      const raw = core.languageModelRun(tokens, top);
      const n = tokens.length;
      const area = n * n;
      const heads = info.heads.map((head, index) => ({
        ...head,
        weights: raw.weights.subarray(index * area, (index + 1) * area),
      }));
      return {
        tokens,
        known: Array.from(raw.known, (flag) => flag === 1),
        dropped: first,
        heads,
        next: Array.from(raw.next.probabilities, (probability, i) => ({
          word: raw.next.words[i],
          probability,
        })),
      };
    },
  };
}

/**
 * Throws unless the report is about the loaded weights: the same vocabulary, and every head
 * listed, layer-major.
 * @param {{ config: { vocab: number }, heads: readonly { layer: number, head: number }[] }} measured
 * @param {{ layers: number, heads: number, vocab: number }} sizes
 */
function requireSameModel(measured, sizes) {
  const heads = sizes.layers * sizes.heads;
  if (measured.config.vocab !== sizes.vocab) {
    throw new Error(`${REPORT_WHERE} describes another model than the weights`);
  }
  if (measured.heads.length !== heads) throw new Error(`${REPORT_WHERE} must list ${heads} heads`);
  measured.heads.forEach((head, i) => {
    if (head.layer !== Math.floor(i / sizes.heads) || head.head !== i % sizes.heads) {
      throw new Error(`${REPORT_WHERE} lists its heads out of order`);
    }
  });
}
