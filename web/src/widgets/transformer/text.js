// The transformer widget's words and numbers, worked out from what the models measured (their
// reports, through `info`) and from one translation: which head is chosen and its rows, how each
// head scored on the test split, which search writes the German, and the three translators'
// BLEU by English length. No number on the page is typed in by hand. Pure functions, so tests
// check them without a page.
import { headName as headNumber } from '../../text/heads.js';
import { formatNumber } from '../../views/charts/format.js';
import { bleuBuckets } from '../shared/translation-text.js';

/** The choice of the last decoder layer's heads averaged: the rows `weights` holds. */
export const MEAN = 'mean';

/** The searches the heads view offers: greedy, or the beam the report was measured with. */
export const SEARCHES = Object.freeze(['greedy', 'beam']);

/**
 * @typedef {import('../../engine/index.js').TranslatorInfo} TranslatorInfo
 * @typedef {import('../../engine/index.js').Translation} Translation
 * @typedef {'greedy' | 'beam'} Search
 * @typedef {{ key: string, label: string, layer: number | null, head: number | null,
 *   checkable: number, aligned: number, score: number }} HeadChoice
 */

/**
 * @param {number} layer from 0
 * @param {number} head from 0
 * @returns {string} the head as the widget's state, a link and a slide name it: 'layer.head',
 *   counted from 1 as the language model's heads are (text/heads.js)
 */
export function headKey(layer, head) {
  return headNumber({ layer, head });
}

/**
 * @param {number} layer from 0
 * @param {number} head from 0
 * @returns {string} the head as the learner reads it, counted from 1: 'layer 1 · head 2'
 */
export function headName(layer, head) {
  return `layer ${layer + 1} \u00b7 head ${head + 1}`;
}

/**
 * @param {number} score a share of the checkable words
 * @returns {string} e.g. '0.63 aligned'
 */
export function scoreLabel(score) {
  return `${score.toFixed(2)} aligned`;
}

/**
 * The heads view's choices: every decoder layer's cross-attention heads, layer-major, then their
 * mean in the last layer, each with what it scored on the test split (the report).
 * @param {TranslatorInfo} info the Transformer's
 * @returns {HeadChoice[]}
 */
export function headChoices(info) {
  // Each score is worked out from its counts: the report's is rounded to four places already, and
  // rounding it again to three could differ from the share itself in the last place.
  const heads = (info.heads ?? []).map(({ layer, head, checkable, aligned }) => ({
    key: headKey(layer, head),
    label: headName(layer, head),
    layer,
    head,
    checkable,
    aligned,
    score: aligned / checkable,
  }));
  const mean = info.alignment
    ? [
        {
          key: MEAN,
          label: 'mean of the last layer',
          layer: null,
          head: null,
          checkable: info.alignment.checkable,
          aligned: info.alignment.aligned,
          score: info.alignment.aligned / info.alignment.checkable,
        },
      ]
    : [];
  return [...heads, ...mean];
}

/**
 * @param {unknown} value what the state, a link or the slide gives
 * @param {HeadChoice[]} choices
 * @returns {string} that choice's key if there is one, else the mean (else the first head)
 */
export function headOf(value, choices) {
  const found = choices.find((choice) => choice.key === value);
  return (found ?? choices.find((choice) => choice.key === MEAN) ?? choices[0])?.key ?? MEAN;
}

/**
 * @param {unknown} value what the state, a link or the slide gives
 * @param {Search} fallback
 * @returns {Search}
 */
export function searchOf(value, fallback = 'beam') {
  return SEARCHES.includes(/** @type {string} */ (value))
    ? /** @type {Search} */ (value)
    : fallback;
}

/**
 * @param {Search} search
 * @param {TranslatorInfo} info the Transformer's
 * @returns {number} the beam to translate with: 1 for greedy, else the report's
 */
export function beamOf(search, info) {
  return search === 'greedy' ? 1 : info.measuredBeam;
}

/**
 * The chosen head's weights, German words (rows) over English words (columns).
 * @param {Translation} translation the Transformer's
 * @param {string} key a head's key, or MEAN
 * @returns {Float32Array} (target.length, source.length), each row adding up to 1
 */
export function headRows(translation, key) {
  const { crossAttention, target, source } = translation;
  if (key === MEAN || !crossAttention) return translation.weights;
  const [layer, head] = key.split('.').map((n) => Number(n) - 1);
  const size = target.length * source.length;
  const start = (layer * crossAttention.heads + head) * size;
  return crossAttention.weights.subarray(start, start + size);
}

/**
 * What the chosen head scored on the test split, against the diagonal guess.
 * @param {TranslatorInfo} info the Transformer's
 * @param {HeadChoice} choice
 * @returns {string}
 */
export function headFactsText(info, choice) {
  const count = info.transformer ? `${info.transformer.heads} ` : '';
  const who =
    choice.key === MEAN
      ? `The mean of the last layer\u2019s ${count}heads`
      : sentenceCase(choice.label);
  const diagonal = info.alignment
    ? `, against ${info.alignment.diagonalScore.toFixed(3)} for a guess that German word t goes ` +
      'with English word t'
    : '';
  return (
    `${who} on the test split: its largest weight falls on the English word the dictionary ` +
    `pairs with the German word for ${choice.aligned.toLocaleString('en')} of ` +
    `${choice.checkable.toLocaleString('en')} checkable German words ` +
    `(${choice.score.toFixed(3)})${diagonal}.`
  );
}

/**
 * Which single heads align better than the diagonal guess and which do not, and the best of
 * them, from the measured scores.
 * @param {TranslatorInfo} info the Transformer's
 * @returns {string} '' when the report measured no heads
 */
export function headsSplitText(info) {
  const heads = headChoices(info).filter((choice) => choice.key !== MEAN);
  if (heads.length === 0) return '';
  const names = (list) => list.map((choice) => choice.label).join(', ');
  const best = heads.reduce((a, b) => (b.score > a.score ? b : a));
  const parts = [];
  if (info.alignment) {
    const line = info.alignment.diagonalScore;
    const above = heads.filter((choice) => choice.score > line);
    const below = heads.filter((choice) => choice.score <= line);
    const guess = `the diagonal guess (${line.toFixed(3)})`;
    parts.push(
      above.length > 0 ? `Better than ${guess}: ${names(above)}.` : `No head beats ${guess}.`,
      below.length > 0 ? `No better than it: ${names(below)}.` : 'Every head beats it.',
    );
  }
  parts.push(`The best single head is ${best.label}, at ${best.score.toFixed(3)}.`);
  if (info.alignment) {
    const mean = info.alignment.aligned / info.alignment.checkable;
    const than = mean > best.score ? 'better than' : 'no better than';
    parts.push(`The last layer\u2019s mean scores ${mean.toFixed(3)}, ${than} any single head.`);
  }
  return parts.join(' ');
}

/**
 * @param {string} text
 * @returns {string} the text with its first letter a capital
 */
function sentenceCase(text) {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/**
 * What the German shown was searched with.
 * @param {number} beam
 * @returns {string}
 */
export function searchText(beam) {
  return beam > 1
    ? `The German is a beam search\u2019s, ${beam} wide, as the report scored it.`
    : 'The German is written greedily, the likeliest piece at each step.';
}

/**
 * The Transformer in a line: its sizes and what it scored, beside the attention translator when
 * that is known.
 * @param {TranslatorInfo} info the Transformer's
 * @returns {string}
 */
export function transformerFactsText(info) {
  const sizes = info.transformer;
  const shape = sizes
    ? `${sizes.encoderLayers} encoder and ${sizes.decoderLayers} decoder layers of ` +
      `${sizes.heads} heads, `
    : '';
  return (
    `A small Transformer (${shape}${formatNumber(info.parameters / 1e6, 3)} million parameters) ` +
    `trained by this page\u2019s own engine on ${info.corpus.trainPairs.toLocaleString('en')} ` +
    `human translations: on ${info.bleu.overall.sentences.toLocaleString('en')} held-out ones ` +
    `it scores ${info.bleu.overall.bleu.toFixed(2)} BLEU.`
  );
}

/**
 * The three translators' BLEU by English length, in the order lesson 1 met them.
 * @param {{ fixedVector: TranslatorInfo, attention: TranslatorInfo, transformer: TranslatorInfo }}
 *   infos
 * @returns {{ names: string[], testPairs: number,
 *   lines: { name: string, values: number[], overall: number }[] }}
 */
export function threeTranslators({ fixedVector, attention, transformer }) {
  const infos = [fixedVector, attention, transformer];
  const { names, series, testPairs } = bleuBuckets(infos);
  const labels = ['One fixed vector', 'With attention', 'Transformer'];
  return {
    names,
    testPairs,
    lines: series.map((values, i) => ({
      name: labels[i],
      values,
      overall: infos[i].bleu.overall.bleu,
    })),
  };
}

/**
 * @param {number} testPairs
 * @returns {string} the chart's caption, naming the test split
 */
export function compareCaption(testPairs) {
  return (
    `Corpus BLEU-4 of the three translators on the same ${testPairs.toLocaleString('en')} ` +
    'held-out test pairs and references, by the number of English words.'
  );
}

/**
 * What the chart shows, in numbers: each translator's overall BLEU, and the Transformer's lead
 * over the attention translator in the shortest and the longest sentences.
 * @param {ReturnType<typeof threeTranslators>} three
 * @returns {string}
 */
export function compareLeadText(three) {
  const [fixedVector, attention, transformer] = three.lines;
  const last = three.names.length - 1;
  // BLEU as the reports give it, to two places.
  const number = (x) => x.toFixed(2);
  const lead = (i) => number(transformer.values[i] - attention.values[i]);
  return (
    `Over all ${three.testPairs.toLocaleString('en')} pairs: one fixed vector ` +
    `${number(fixedVector.overall)} BLEU, attention ${number(attention.overall)}, the ` +
    `Transformer ${number(transformer.overall)}. The Transformer\u2019s lead over attention is ` +
    `${lead(0)} at ${three.names[0]} English words and ${lead(last)} at ${three.names[last]}.`
  );
}
