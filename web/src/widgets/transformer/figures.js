// Draws the transformer widget's figures from the engine's translations: in the heads view the
// Transformer's German and the chosen cross-attention head's weights as one German-by-English
// matrix, with what that head scored on the test split; in the compare view the three
// translators' German and their BLEU by English length, from the two reports; in the encoder
// view one self-attention head of the encoder as an English-by-English matrix; in the stream view
// the residual stream of every English word at every stage of the encoder, by one measure.
import { setLine } from '../shared/line.js';
import {
  clearFigure,
  drawBleuByLength,
  drawMatrix,
  drawWeightMatrix,
  showFigure as show,
  writeGerman,
} from '../shared/translation-figures.js';
import { sourceNotesText } from '../shared/translation-text.js';
import {
  MEASURE_LABELS,
  encoderHeadFactsText,
  encoderHeadRows,
  streamFactsText,
  streamLineText,
  streamMatrix,
} from './encoder-text.js';
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

/**
 * The encoder view: the chosen self-attention head's weights over the English sentence.
 * @param {TransformerParts} parts
 * @param {Translator} transformer
 * @param {Translation} translation the Transformer's
 * @param {import('./encoder-text.js').EncoderHead} head
 */
export function drawEncoderHeads(parts, transformer, translation, head) {
  const { source, known } = translation;
  const encoder = /** @type {import('../../engine/index.js').EncoderTrace} */ (translation.encoder);
  const n = source.length;
  const unknown = known.map((k) => !k);
  show(parts, `Where the encoder\u2019s self-attention looks: ${head.label}`);
  drawMatrix(parts, {
    rowLabels: source,
    colLabels: source,
    values: encoderHeadRows(encoder, n, head),
    unknownRows: unknown,
    unknownCols: unknown,
    rowName: 'query word',
    colName: 'key word',
    caption:
      `The Transformer\u2019s encoder self-attention weights, ${head.label}: each of the ` +
      `${n} English words (rows) over the same ${n} words (columns); each row adds up to 1.`,
  });
  setLine(
    /** @type {HTMLElement} */ (parts.headFacts),
    encoderHeadFactsText(transformer.info, head),
  );
  notes(parts, translation, transformerFactsText(transformer.info));
}

/**
 * The stream view: every English word's residual stream, stage by stage, by one measure.
 * @param {TransformerParts} parts
 * @param {Translator} transformer
 * @param {Translation} translation the Transformer's
 * @param {import('./encoder-text.js').Measure} measure
 */
export function drawStream(parts, transformer, translation, measure) {
  const { source, known } = translation;
  const encoder = /** @type {import('../../engine/index.js').EncoderTrace} */ (translation.encoder);
  const n = source.length;
  const { values, columns, range, valueName } = streamMatrix(encoder, n, measure);
  const byStage = measure === 'size' || measure === 'kept';
  show(parts, `Inside the encoder: ${MEASURE_LABELS[measure].toLowerCase()}, word by word`);
  drawMatrix(parts, {
    rowLabels: source,
    colLabels: columns,
    values,
    range,
    valueName,
    between: ', ',
    unknownRows: known.map((k) => !k),
    rowName: 'word',
    colName: byStage ? 'stage' : 'sublayer',
    caption:
      `The residual stream of the Transformer\u2019s encoder: ${valueName} for each of the ${n} ` +
      `English words (rows), ${byStage ? 'at the input and after each sublayer' : 'in each sublayer'} ` +
      '(columns).',
  });
  setLine(/** @type {HTMLElement} */ (parts.lead), streamLineText(encoder, n, measure));
  setLine(/** @type {HTMLElement} */ (parts.headFacts), streamFactsText(transformer.info, measure));
  notes(parts, translation, transformerFactsText(transformer.info));
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
