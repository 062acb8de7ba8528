// Draws the translation widget's figures from the engine's translations: the German of both
// models and Figure 2 (compare), one decoder step's scores and weights (steps), the alignment
// matrix (alignment). A German word outside the vocabulary is marked: drawn as the unknown-word
// token, or as the English word the attention model copies in its place; an English word outside
// the word vectors is marked in every figure that names it.
import { clearBars, renderBars } from '../../views/charts/bars.js';
import { formatNumber } from '../../views/charts/format.js';
import { setLine } from '../shared/line.js';
import { markUnknown } from '../shared/unknown-text.js';
import {
  clearFigure,
  drawBleuByLength,
  drawWeightMatrix,
  showFigure as show,
  writeGerman,
} from '../shared/translation-figures.js';
import { sourceNotesText, stepsOf } from '../shared/translation-text.js';
import { bleuByLength, leadText, modelFactsText, stepText } from './text.js';

/**
 * @typedef {import('./markup.js').TranslationParts} TranslationParts
 * @typedef {import('../../engine/index.js').Translation} Translation
 * @typedef {import('../../text/translation.js').Translators} Translators
 */

/**
 * The compare view: both models' German and the measured BLEU by English length.
 * @param {TranslationParts} parts
 * @param {Translators} models
 * @param {{ attention: Translation, fixedVector: Translation }} translations
 */
export function drawCompare(parts, models, translations) {
  const { attention, fixedVector } = models;
  show(parts, 'Both models translate the sentence; the chart is what they scored on held-out text');
  writeGerman(/** @type {HTMLElement} */ (parts.attention), translations.attention);
  writeGerman(/** @type {HTMLElement} */ (parts.fixedVector), translations.fixedVector);
  const series = bleuByLength(attention.info, fixedVector.info);
  drawBleuByLength(/** @type {HTMLElement} */ (parts.chart), {
    caption:
      'Corpus BLEU-4 on the held-out test sentences, by the number of English words: the ' +
      'model with attention against the model with one fixed vector.',
    names: series.names,
    lines: [
      { name: 'With attention', values: series.attention },
      { name: 'One fixed vector', values: series.fixedVector },
    ],
  });
  setLine(/** @type {HTMLElement} */ (parts.lead), leadText(series));
  notes(parts, translations.attention, modelFactsText(attention.info, fixedVector.info));
}

/**
 * The steps view: the German written, and at step t the scores and weights over the English.
 * @param {TranslationParts} parts
 * @param {Translators} models
 * @param {Translation} translation the attention model's
 * @param {number} t 0-based step, within the German words
 */
export function drawSteps(parts, models, translation, t) {
  const { source, known } = translation;
  // One decision a step: a word of a word vocabulary, or a piece of a word.
  const { weights, scores } = translation.pieces;
  const n = source.length;
  show(parts, 'Greedy decoding, one German word at a time');
  writeGerman(/** @type {HTMLElement} */ (parts.words), translation, { current: t, buttons: true });
  setLine(/** @type {HTMLElement} */ (parts.stepLine), stepText(translation, t));
  const labels = source.map((word, j) => markUnknown(word, !known[j]));
  const row = (values) => Array.from(values.subarray(t * n, (t + 1) * n));
  const alpha = row(weights);
  const word = `\u201c${stepsOf(translation)[t].text}\u201d`;
  renderBars(/** @type {HTMLElement} */ (parts.scores), {
    caption:
      `The scores e_tj = v\u1d40 tanh(W s_t\u22121 + U h_j) of step ${t + 1}, writing ${word}: ` +
      'one number per English word, any sign.',
    labels,
    values: row(scores),
    labelName: 'English word',
    valueName: 'score e',
    format: (value) => formatNumber(value, 2),
    height: 88,
  });
  renderBars(/** @type {HTMLElement} */ (parts.weights), {
    caption: `The weights \u03b1_tj of step ${t + 1}: the softmax of the scores, adding up to 1.`,
    labels,
    values: alpha,
    labelName: 'English word',
    valueName: 'weight \u03b1',
    domain: [0, 1],
    format: (value) => formatNumber(value, 2),
    height: 88,
  });
  const sum = alpha.reduce((a, b) => a + b, 0);
  /** @type {HTMLElement} */ (parts.sumValue).textContent = sum.toFixed(3);
  setLine(
    /** @type {HTMLElement} */ (parts.sum),
    `The ${n} weights add up to ${sum.toFixed(3)}. The context c_t = \u03a3 \u03b1_tj h_j ` +
      'mixes the encoder states by them, and the decoder reads c_t with its state to write the ' +
      'word.',
  );
  notes(parts, translation, modelFactsText(models.attention.info, models.fixedVector.info));
}

/**
 * The alignment view: German rows, English columns, Figure 3's layout.
 * @param {TranslationParts} parts
 * @param {Pick<Translation, 'source' | 'known' | 'target' | 'weights' | 'output' | 'copied' |
 *   'dropped'>} translation the attention model's (live, or as recorded: record.js)
 * @param {{ alignment: string, short: string, more: string }} facts the lines under the figure:
 *   the measured alignment (alignmentFactsText) and what the models are (modelFactsText)
 */
export function drawAlignment(parts, translation, facts) {
  const { source, target, weights } = translation;
  show(parts, 'Where the attention model looks as it writes each German word');
  writeGerman(/** @type {HTMLElement} */ (parts.words), translation);
  drawWeightMatrix(
    parts,
    translation,
    weights,
    `The attention model's weights: ${target.length} German words (rows) over ` +
      `${source.length} English words (columns); each row adds up to 1.`,
  );
  setLine(/** @type {HTMLElement} */ (parts.alignmentFacts), facts.alignment);
  notes(parts, translation, facts);
}

/**
 * Hides and empties the figures (nothing to draw).
 * @param {TranslationParts} parts
 */
export function clearFigures(parts) {
  clearFigure(parts);
  if (parts.scores) clearBars(parts.scores);
  if (parts.weights) clearBars(parts.weights);
}

/**
 * The notes under every view: unknown English words, a cut text, what the models are.
 * @param {TranslationParts} parts
 * @param {Translation} translation
 * @param {{ short: string, more: string }} facts
 */
function notes(parts, translation, facts) {
  setLine(parts.unknown, sourceNotesText(translation));
  parts.factsShort.textContent = facts.short;
  parts.factsMore.textContent = facts.more;
}
