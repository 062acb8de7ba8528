// Lesson 2's Transformer translator (docs/transformer.md), loaded once per page: its file (about
// 3.5 MB gzip) and the report of what was measured on it (./model-files.js). Only the figures
// that show it ask for it, so no other slide waits.
import { TRANSFORMER_PATHS } from '../data-files.js';
import { modelFiles } from './model-files.js';

const LOAD_FAILED =
  'The Transformer translator could not be loaded, so this figure cannot be drawn. ' +
  'Please reload the page to try again.';

/** A failure to load the Transformer; its message is meant for the learner. */
export class TransformerUnavailable extends Error {
  name = 'TransformerUnavailable';
}

/** @typedef {import('../engine/index.js').Translator} Transformer */

const files = modelFiles({
  paths: TRANSFORMER_PATHS,
  load: (engine, weights, report) =>
    /** @type {Transformer} */ (engine.loadTransformer(weights, report)),
  failure: (cause) => new TransformerUnavailable(LOAD_FAILED, { cause }),
});

/**
 * Starts downloading the Transformer's file and report (the first call) and resolves to them.
 * @type {() => Promise<{ weights: Uint8Array, report: unknown }>}
 */
export const fetchTransformerOnce = files.fetchOnce;

/**
 * Loads the Transformer into `engine` (the first call for that engine), with the page's word
 * vectors.
 * @type {(engine: any) => Promise<Transformer>} rejects with TransformerUnavailable, or
 *   VectorsUnavailable when the word vectors are what failed
 */
export const loadTransformerOnce = files.loadOnce;

/** @type {(engine: object) => Transformer | undefined} the model, if loaded into that engine */
export const loadedTransformer = files.loaded;
