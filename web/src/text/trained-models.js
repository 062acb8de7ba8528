// The page's trained models by the name a quiz question needs them by (MODEL_NEEDED in
// web/src/quiz/generators/), each loaded once per page however many questions and figures use it.
import { loadModelOnce } from './language-model.js';
import { loadTranslationOnce } from './translation.js';

/** @typedef {'language-model' | 'translation'} TrainedModel */

/** What the learner reads while a model loads, and when it could not be loaded. */
export const MODEL_TEXTS = Object.freeze({
  'language-model': {
    loading: 'Loading the trained language model\u2026',
    missing: 'The trained language model could not be loaded',
  },
  translation: {
    loading: 'Loading the two translation models\u2026',
    missing: 'The translation models could not be loaded',
  },
});

/**
 * Loads a trained model into the engine (once per page).
 * @param {TrainedModel} name
 * @param {any} engine
 * @returns {Promise<unknown>}
 */
export function loadTrainedModel(name, engine) {
  return name === 'translation' ? loadTranslationOnce(engine) : loadModelOnce(engine);
}
