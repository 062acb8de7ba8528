// Draws the translation widget's figures from the engine's translations: the German of both
// models and Figure 2 (compare), one decoder step's scores and weights (steps), the alignment
// matrix (alignment). A German word outside the vocabulary is marked: drawn as the unknown-word
// token, or as the English word the attention model copies in its place; an English word outside
// the word vectors is marked in every figure that names it.
import { clearBars, renderBars } from '../../views/charts/bars.js';
import { formatNumber } from '../../views/charts/format.js';
import { clearLines, renderLines } from '../../views/charts/lines.js';
import { buildTables, clearHeatmap, renderHeatmap } from '../../views/heatmap/index.js';
import { setLine } from '../shared/line.js';
import { markUnknown } from '../shared/unknown-text.js';
import { GERMAN_UNKNOWN } from '../../engine/translator.js';
import {
  bleuByLength,
  droppedText,
  leadText,
  modelFactsText,
  stepText,
  stepsOf,
  unknownSourceText,
  unknownTargets,
} from './text.js';

/** The alignment matrix's row height, in pixels. */
const ROW_HEIGHT = 24;

/** Marks an English word outside the word vectors in a bar's label. */

/**
 * @typedef {import('./markup.js').TranslationParts} TranslationParts
 * @typedef {import('../../engine/index.js').Translation} Translation
 * @typedef {import('../../text/translation.js').Translators} Translators
 */

/**
 * Writes a translation's German into an element, each word outside the vocabulary marked (the
 * unknown-word token, or the English word copied in its place); in the steps view each step's
 * word or piece is a button that chooses its step (a piece that continues a word follows it
 * without a space), and the chosen one is marked.
 * @param {HTMLElement} el
 * @param {Translation} translation
 * @param {{ current?: number, buttons?: boolean }} [options]
 */
export function writeGerman(el, translation, { current = -1, buttons = false } = {}) {
  const doc = el.ownerDocument;
  const { output, copied, source } = translation;
  // The steps view writes what each step wrote; the others write words.
  const items = buttons
    ? stepsOf(translation)
    : output.map((text, w) => ({ text, word: w, joins: false, unknown: false }));
  const nodes = items.map(({ text, word }, t) => {
    const node = doc.createElement(buttons ? 'button' : 'span');
    node.className = 'mt-word';
    node.textContent = text;
    if (copied[word] >= 0) {
      node.classList.add('mt-unk');
      node.title =
        'a German word outside the model\u2019s vocabulary: it copies ' +
        `\u201c${source[copied[word]]}\u201d, the English word it weighs most`;
    } else if (output[word] === GERMAN_UNKNOWN) {
      node.classList.add('mt-unk');
      node.title = 'a German word outside the model\u2019s vocabulary';
    }
    if (buttons) {
      const button = /** @type {HTMLButtonElement} */ (node);
      button.type = 'button';
      button.dataset.step = String(t + 1);
      button.setAttribute('aria-pressed', String(t === current));
    }
    return node;
  });
  const spaced = nodes.flatMap((node, t) =>
    t === 0 || items[t].joins ? [node] : [doc.createTextNode(' '), node],
  );
  el.replaceChildren(...spaced);
  if (output.length === 0) el.textContent = '(nothing: the model ended at once)';
}

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
  renderLines(/** @type {HTMLElement} */ (parts.chart), {
    caption:
      'Corpus BLEU-4 on the held-out test sentences, by the number of English words: the ' +
      'model with attention against the model with one fixed vector.',
    x: series.names.map((_, i) => i + 1),
    xNames: series.names,
    series: [
      { name: 'With attention', values: series.attention },
      { name: 'One fixed vector', values: series.fixedVector },
    ],
    xLabel: 'English words',
    yLabel: 'BLEU',
    yDomain: [0, Math.ceil(Math.max(...series.attention, ...series.fixedVector) / 5) * 5],
    format: (value) => formatNumber(value, 3),
    height: 140,
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
  const { source, known, target, weights } = translation;
  show(parts, 'Where the attention model looks as it writes each German word');
  writeGerman(/** @type {HTMLElement} */ (parts.words), translation);
  const data = {
    rowLabels: target,
    colLabels: source,
    values: weights,
    unknownRows: unknownTargets(target),
    unknownCols: known.map((k) => !k),
    // Rows as low as a line of text, so that a sentence's matrix fits beside the slide's text.
    rowHeight: ROW_HEIGHT,
    rowName: 'German word',
    colName: 'English word',
    caption:
      `The attention model's weights: ${target.length} German words (rows) over ` +
      `${source.length} English words (columns); each row adds up to 1.`,
  };
  const matrix = /** @type {HTMLElement} */ (parts.matrix);
  renderHeatmap(matrix, data, { readout: parts.readout ?? undefined, table: false });
  const tables = /** @type {HTMLElement} */ (parts.tables);
  const open = tables.querySelector('details')?.open ?? false;
  const details = buildTables(parts.root.ownerDocument, data);
  details.open = open;
  tables.replaceChildren(details);
  setLine(/** @type {HTMLElement} */ (parts.alignmentFacts), facts.alignment);
  notes(parts, translation, facts);
}

/**
 * Hides and empties the figures (nothing to draw).
 * @param {TranslationParts} parts
 */
export function clearFigures(parts) {
  parts.result.hidden = true;
  if (parts.chart) clearLines(parts.chart);
  if (parts.scores) clearBars(parts.scores);
  if (parts.weights) clearBars(parts.weights);
  if (parts.matrix) clearHeatmap(parts.matrix);
  parts.tables?.replaceChildren();
}

/**
 * @param {TranslationParts} parts
 * @param {string} title
 */
function show(parts, title) {
  parts.result.hidden = false;
  parts.title.textContent = title;
}

/**
 * The notes under every view: unknown English words, a cut text, what the models are.
 * @param {TranslationParts} parts
 * @param {Translation} translation
 * @param {{ short: string, more: string }} facts
 */
function notes(parts, translation, facts) {
  const unknown = unknownSourceText(translation.source, translation.known);
  setLine(parts.unknown, [unknown, droppedText(translation)].filter(Boolean).join(' '));
  parts.factsShort.textContent = facts.short;
  parts.factsMore.textContent = facts.more;
}
