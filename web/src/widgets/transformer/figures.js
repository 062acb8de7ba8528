// Draws the transformer widget's figures from the engine's translations: in the heads view the
// Transformer's German and the chosen cross-attention head's weights as one German-by-English
// matrix, with what that head scored on the test split; in the compare view the three
// translators' German and their BLEU by English length, from the two reports.
import { setLine } from '../shared/line.js';
import {
  clearFigure,
  drawBleuByLength,
  drawWeightMatrix,
  showFigure as show,
  writeGerman,
} from '../shared/translation-figures.js';
import { sourceNotesText } from '../shared/translation-text.js';
import {
  MEAN,
  compareCaption,
  compareLeadText,
  headFactsText,
  headRows,
  headsSplitText,
  searchText,
  threeTranslators,
  transformerFactsText,
} from './text.js';

/**
 * @typedef {import('./markup.js').TransformerParts} TransformerParts
 * @typedef {import('../../engine/index.js').Translation} Translation
 * @typedef {import('../../engine/index.js').Translator} Translator
 * @typedef {import('./text.js').HeadChoice} HeadChoice
 */

/**
 * The heads view: the German, and the chosen head's weights with what it scored.
 * @param {TransformerParts} parts
 * @param {Translator} transformer
 * @param {Translation} translation the Transformer's
 * @param {HeadChoice} choice the head drawn
 * @param {number} beam the search's width (1: greedy)
 */
export function drawHeads(parts, transformer, translation, choice, beam) {
  const { source, target } = translation;
  const whose = choice.key === MEAN ? 'The mean of the last layer\u2019s heads' : choice.label;
  show(parts, `Where the Transformer\u2019s cross-attention looks: ${whose}`);
  writeGerman(/** @type {HTMLElement} */ (parts.words), translation);
  drawWeightMatrix(
    parts,
    translation,
    headRows(translation, choice.key),
    `The Transformer\u2019s cross-attention weights, ${whose}: ${target.length} German words ` +
      `(rows) over ${source.length} English words (columns); each row adds up to 1.`,
  );
  setLine(/** @type {HTMLElement} */ (parts.headFacts), headFactsText(transformer.info, choice));
  setLine(/** @type {HTMLElement} */ (parts.split), headsSplitText(transformer.info));
  notes(parts, translation, `${transformerFactsText(transformer.info)} ${searchText(beam)}`);
}

/**
 * The compare view: the three translators' German and their measured BLEU by English length.
 * @param {TransformerParts} parts
 * @param {{ fixedVector: Translator, attention: Translator, transformer: Translator }} models
 * @param {{ fixedVector: Translation, attention: Translation, transformer: Translation }}
 *   translations
 */
export function drawCompare(parts, models, translations) {
  show(parts, 'Three translators on one sentence, and what they scored on held-out text');
  for (const name of /** @type {const} */ (['fixedVector', 'attention', 'transformer'])) {
    writeGerman(/** @type {HTMLElement} */ (parts.german[name]), translations[name]);
  }
  const three = threeTranslators({
    fixedVector: models.fixedVector.info,
    attention: models.attention.info,
    transformer: models.transformer.info,
  });
  drawBleuByLength(/** @type {HTMLElement} */ (parts.chart), {
    caption: compareCaption(three.testPairs),
    names: three.names,
    lines: three.lines,
  });
  setLine(/** @type {HTMLElement} */ (parts.lead), compareLeadText(three));
  const beam = models.transformer.info.measuredBeam;
  notes(
    parts,
    translations.transformer,
    `${transformerFactsText(models.transformer.info)} ${searchText(beam)}`,
  );
}

/** Hides and empties the figures (nothing to draw). */
export const clearFigures = clearFigure;

/**
 * The notes under every view: unknown English words, a cut text, what the model is.
 * @param {TransformerParts} parts
 * @param {Translation} translation
 * @param {string} facts
 */
function notes(parts, translation, facts) {
  setLine(parts.unknown, sourceNotesText(translation));
  setLine(parts.facts, facts);
}
