// The page's trained models, by the name a widget declares (registerWidget's `models`,
// web/src/widgets/shared/registry.js) and a quiz question needs (MODEL_NEEDED in
// web/src/quiz/generators/): one entry each, with its loader, what the learner reads while it
// loads and when it cannot, and the error its loader fails with. Each is loaded once per page,
// however many figures and questions use it (./model-files.js).
import { ModelUnavailable, fetchModelOnce, loadModelOnce, loadedModel } from './language-model.js';
import {
  TranslatorsUnavailable,
  fetchTranslationOnce,
  loadTranslationOnce,
  loadedTranslation,
} from './translation.js';
import {
  TransformerUnavailable,
  fetchTransformerOnce,
  loadTransformerOnce,
  loadedTransformer,
} from './transformer.js';

/** @typedef {'language-model' | 'translation' | 'transformer'} TrainedModel */

/**
 * The trained models a widget declared, each as its loader resolves to (registry.js hands them
 * to the widget as `props.models`).
 * @typedef {{ 'language-model'?: import('./language-model.js').LanguageModel,
 *   translation?: import('./translation.js').Translators,
 *   transformer?: import('./transformer.js').Transformer }} LoadedModels
 */

/**
 * @template Model
 * @typedef {object} TrainedModelEntry
 * @property {() => Promise<unknown>} fetchOnce starts downloading the model's files (the first
 *   call), before there is an engine to take them in
 * @property {(engine: any) => Promise<Model>} loadOnce loads the model, and the word vectors it
 *   reads, into the engine (the first call for that engine); rejects with `Unavailable` (or
 *   VectorsUnavailable)
 * @property {(engine: object) => Model | undefined} loaded the model, if loaded into that engine
 * @property {string} loading what the learner reads while it loads, with its size
 * @property {string} missing the start of a sentence saying it could not be loaded (the quiz's
 *   note on the questions it leaves out)
 * @property {new (message: string, options?: ErrorOptions) => Error} Unavailable the class of
 *   the error `loadOnce` fails with; its message is the learner's
 */

/**
 * @type {Readonly<{ 'language-model': TrainedModelEntry<import('./language-model.js').LanguageModel>,
 *   translation: TrainedModelEntry<import('./translation.js').Translators>,
 *   transformer: TrainedModelEntry<import('./transformer.js').Transformer> }>}
 */
export const TRAINED_MODELS = Object.freeze({
  'language-model': Object.freeze({
    fetchOnce: fetchModelOnce,
    loadOnce: loadModelOnce,
    loaded: loadedModel,
    loading: 'Loading the trained language model (about 900 kB)\u2026',
    missing: 'The trained language model could not be loaded',
    Unavailable: ModelUnavailable,
  }),
  translation: Object.freeze({
    fetchOnce: fetchTranslationOnce,
    loadOnce: loadTranslationOnce,
    loaded: loadedTranslation,
    loading: 'Loading the two translation models (about 2.5 MB)\u2026',
    missing: 'The translation models could not be loaded',
    Unavailable: TranslatorsUnavailable,
  }),
  transformer: Object.freeze({
    fetchOnce: fetchTransformerOnce,
    loadOnce: loadTransformerOnce,
    loaded: loadedTransformer,
    loading: 'Loading the Transformer translator (about 3.5 MB)\u2026',
    missing: 'The Transformer translator could not be loaded',
    Unavailable: TransformerUnavailable,
  }),
});

/**
 * @param {unknown} name
 * @returns {name is TrainedModel} whether the page has a trained model by that name
 */
export function isTrainedModel(name) {
  return typeof name === 'string' && Object.hasOwn(TRAINED_MODELS, name);
}

/**
 * @param {unknown} error
 * @returns {boolean} whether a trained model's loader failed with it, its message the learner's
 */
export function isModelFailure(error) {
  return Object.values(TRAINED_MODELS).some(({ Unavailable }) => error instanceof Unavailable);
}
