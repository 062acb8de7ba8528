// The page's trained language model (docs/language-model.md) over the raw core: load its weights
// once, then run(text) tokenizes the text as every figure does, keeps the last `context` tokens,
// and returns every head's weights with the kind and scores measured on it when it was trained
// (the report the training tool wrote beside the weights), and the model's next words.
import { vocabularyOf } from '../text/embed.js';
import { tokenize } from '../text/tokenize.js';
import { requireBytes, requireCount } from './args.js';

/** The most tokens of text run() looks at: about a page of typing before the model's context. */
const MAX_TEXT_LENGTH = 100_000;

/**
 * @param {any} core the raw module, with the word vectors loaded
 * @param {Uint8Array} weights the weights file (web/public/models/brown-lm.bin)
 * @param {unknown} report the training tool's report of what was measured on those weights
 * @returns {import('./index.js').LanguageModel}
 */
export function createLanguageModel(core, weights, report) {
  const where = 'loadLanguageModel';
  const sizes = core.languageModelLoad(requireBytes(where, 'weights', weights));
  const measured = readReport(report, sizes);
  const known = vocabularyOf(core);

  const { heads: headsPerLayer, ...size } = sizes;
  const info = Object.freeze({
    ...size,
    headsPerLayer,
    corpus: measured.corpus,
    validationPerplexity: measured.validation.perplexity,
    testPerplexity: measured.test.perplexity,
    baselines: measured.baselines,
    training: measured.training,
    heads: measured.heads.map((head) => Object.freeze({ ...head })),
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
 * The parts of the report the model object exposes, checked against the loaded weights.
 * @param {any} report
 * @param {{ layers: number, heads: number, vocab: number }} sizes
 */
function readReport(report, sizes) {
  const fail = (/** @type {string} */ what) => {
    throw new Error(`loadLanguageModel: the model's report ${what}`);
  };
  if (!report || typeof report !== 'object' || report.format !== 'attn-lm-report') {
    fail('is not an attn-lm-report');
  }
  if (report.config?.vocab !== sizes.vocab) fail('describes another model than the weights');
  const heads = report.heads;
  if (!Array.isArray(heads) || heads.length !== sizes.layers * sizes.heads) {
    fail(`must list ${sizes.layers * sizes.heads} heads`);
  }
  heads.forEach((head, i) => {
    const layer = Math.floor(i / sizes.heads);
    if (head?.layer !== layer || head?.head !== i % sizes.heads)
      fail('lists its heads out of order');
    for (const score of ['previousToken', 'firstToken', 'self', 'induction']) {
      if (typeof head[score] !== 'number' || !Number.isFinite(head[score])) {
        fail(`has no ${score} score for head ${layer}.${i % sizes.heads}`);
      }
    }
  });
  for (const split of ['validation', 'test']) {
    if (typeof report[split]?.perplexity !== 'number') fail(`has no ${split} perplexity`);
  }
  const split = report.baselines?.splits;
  return {
    corpus: split ? { name: report.baselines.corpus, splits: split } : null,
    validation: report.validation,
    test: report.test,
    baselines: split
      ? {
          unigram: report.baselines.unigram.perplexity,
          kneserNeyBigram: report.baselines.kneserNeyBigram.perplexity,
        }
      : null,
    training: report.training ?? null,
    heads: heads.map((head) => ({
      layer: head.layer,
      head: head.head,
      kind: String(head.kind),
      scores: {
        previousToken: head.previousToken,
        firstToken: head.firstToken,
        self: head.self,
        induction: head.induction,
      },
    })),
  };
}
