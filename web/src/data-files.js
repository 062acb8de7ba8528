// The data files the figures load, relative to the page (web/public/ is served at the site's
// root): the word vectors, the trained language model and the translation models. One list for the loaders
// (web/src/text/) and for the head of a page of figures, which asks for them before its script has
// run (web/build/vite-plugin-page-head.js, the early-data allowance).

/** The word vectors (docs/embeddings.md). */
export const VECTORS_PATH = 'embeddings/en-20k-100d.bin';

/** The trained language model: its weights and the report of what was measured on them. */
export const MODEL_PATHS = Object.freeze({
  weights: 'models/brown-lm.bin',
  report: 'models/brown-lm.json',
});

/** The two translation models (docs/translation.md): one file for both, and their report. */
export const TRANSLATION_PATHS = Object.freeze({
  weights: 'models/translation.bin',
  report: 'models/translation.json',
});

/**
 * The batch of 64 sentence pairs on which lesson 2's recurrence slide times one training step of
 * the attention translator and of the Transformer (docs/translation-corpus.md, "The timing
 * batch"); loaded only when that figure is shown.
 */
export const TIMING_PAIRS_PATH = 'models/translation-timing.bin';

/** Lesson 2's Transformer translator (docs/transformer.md): its file and its report. */
export const TRANSFORMER_PATHS = Object.freeze({
  weights: 'models/transformer.bin',
  report: 'models/transformer.json',
});
