// The translation widget's words, worked out from what the models measured (their report, through
// `info`) and from one translation: no number on the page is typed in by hand. Pure functions, so
// tests check them without a page.
import { GERMAN_UNKNOWN, largestInRow } from '../../engine/translator.js';
import { formatNumber } from '../../views/charts/format.js';
import { bleuBuckets, stepsOf } from '../shared/translation-text.js';

/**
 * A large production system's BLEU on news text, the yardstick the page names beside the models'
 * own, saying that it was measured on another text.
 */
export const PRODUCTION_BLEU = 30;

/**
 * @typedef {import('../../engine/index.js').TranslatorInfo} TranslatorInfo
 * @typedef {import('../../engine/index.js').Translation} Translation
 */

/**
 * Figure 2's data: each model's BLEU by English length, from the report.
 * @param {TranslatorInfo} attention
 * @param {TranslatorInfo} fixedVector
 * @returns {{ names: string[], attention: number[], fixedVector: number[] }}
 */
export function bleuByLength(attention, fixedVector) {
  const { names, series } = bleuBuckets([attention, fixedVector]);
  return { names, attention: series[0], fixedVector: series[1] };
}

/**
 * What the chart shows, in numbers: how much each model loses from the shortest sentences to the
 * longest, and the attention model's lead at both ends. Whether that is the shape of Bahdanau and
 * colleagues' Figure 2 (the single vector losing the larger share) is read from the numbers, and
 * said either way.
 * @param {ReturnType<typeof bleuByLength>} series
 * @returns {string}
 */
export function leadText(series) {
  const last = series.names.length - 1;
  const number = (x) => formatNumber(x, 2);
  const lead = (i) => series.attention[i] - series.fixedVector[i];
  const loss = (values) => (values[0] > 0 ? 1 - values[last] / values[0] : 0);
  const percent = (x) => `${Math.round(100 * x)}%`;
  const [fixedLoss, attentionLoss] = [loss(series.fixedVector), loss(series.attention)];
  const shape = fixedLoss > attentionLoss ? 'as in' : 'unlike';
  return (
    `From ${series.names[0]} to ${series.names[last]} English words the fixed vector loses ` +
    `${percent(fixedLoss)} of its BLEU and attention ${percent(attentionLoss)}, ${shape} ` +
    `Bahdanau and colleagues\u2019 Figure 2; the gap is ${number(lead(0))} BLEU at the short end ` +
    `and ${number(lead(last))} at the long.`
  );
}

/**
 * What the models are and how good they are, in plain words: `short` for every view, `more` (the
 * data, the vocabulary, why German) where there is room.
 * @param {TranslatorInfo} attention
 * @param {TranslatorInfo} fixedVector
 * @returns {{ short: string, more: string }}
 */
export function modelFactsText(attention, fixedVector) {
  const millions = (n) => formatNumber(n / 1e6, 3);
  const everyday = attention.everyday;
  const everydayLine = everyday
    ? ` On ${everyday.sentences} everyday sentences written for this page, the attention ` +
      `model\u2019s German holds ${Math.round(everyday.contentWordRecall * 100)}% of the ` +
      'content words of a human translation (all but articles, pronouns, prepositions and ' +
      'the like).'
    : '';
  const vocabulary = attention.targetPieces
    ? `The models write German in ${(attention.targetWords - 4).toLocaleString('en')} word ` +
      'pieces, a word being one piece or a few, so they can spell any German word; expect ' +
      'wrong words all the same. Where an English word is one the models cannot read (a name, ' +
      'a number, a rare term), the attention model copies the English word it weighs most ' +
      '(italic, dotted underline), which is right for names and numbers and wrong for the ' +
      `rest, and the fixed-vector model writes ${GERMAN_UNKNOWN}.`
    : `The models know ${(attention.targetWords - 4).toLocaleString('en')} German words: ` +
      'expect wrong words. Where the German word is not among them the fixed-vector model ' +
      `writes ${GERMAN_UNKNOWN}, and the attention model copies the English word it weighs ` +
      'most (italic, dotted underline), which is right for names, numbers and the ' +
      'program\u2019s terms and wrong for the rest.';
  return {
    short:
      `Two small models (${millions(attention.parameters)} and ` +
      `${millions(fixedVector.parameters)} million parameters) trained by this page\u2019s own ` +
      `engine on ${attention.corpus.trainPairs.toLocaleString('en')} human translations: on ` +
      `${attention.bleu.overall.sentences.toLocaleString('en')} held-out ones the attention ` +
      `model scores ${formatNumber(attention.bleu.overall.bleu, 3)} BLEU and the fixed-vector ` +
      `model ${formatNumber(fixedVector.bleu.overall.bleu, 3)}; large systems score about ` +
      `${PRODUCTION_BLEU} on news, another text.`,
    more:
      'The pairs are example sentences from the Ding dictionary, paragraphs of ' +
      `LibreOffice\u2019s help and three games\u2019 dialogue; ${searchText(attention)}. ` +
      `${vocabulary}${everydayLine} English and German, not French as ` +
      'in the paper: German is the language with human translations this page could train on.',
  };
}

/**
 * How the German on the page and in the scores was searched for.
 * @param {TranslatorInfo} info
 * @returns {string}
 */
export function searchText(info) {
  return info.measuredBeam > 1
    ? `the German scored and shown (steps aside) is a beam search\u2019s, ${info.measuredBeam} wide`
    : 'the German is written greedily, the likeliest word at each step';
}

/**
 * The alignment the attention model measured, against a diagonal guess on the same words.
 * @param {TranslatorInfo} attention
 * @returns {string}
 */
export function alignmentFactsText(attention) {
  const measured = attention.alignment;
  if (!measured) return '';
  const share = (x) => `${Math.round(x * 100)}%`;
  return (
    `Measured on ${measured.checkable.toLocaleString('en')} German words of the test sentences ` +
    'that the dictionary pairs with exactly one English word of their source: the largest ' +
    `weight falls on that word for ${share(measured.score)} of them, against ` +
    `${share(measured.diagonalScore)} for a guess that German word t goes with English word t.`
  );
}

/**
 * One decoder step in words: which German word or piece is written and where its weight goes.
 * @param {Translation} translation
 * @param {number} t 0-based step
 * @returns {string}
 */
export function stepText(translation, t) {
  const { source, output } = translation;
  const steps = stepsOf(translation);
  const step = steps[t];
  const n = source.length;
  const { column, weight } = largestInRow(translation.pieces.weights, n, t);
  const whole = output[step.word];
  const piece = step.text === whole ? '' : `, part of \u201c${whole}\u201d`;
  const written = step.unknown
    ? `a word outside its vocabulary, read as the English \u201c${source[column]}\u201d it copies`
    : `\u201c${step.text}\u201d${piece}`;
  return (
    `Step ${t + 1} of ${steps.length}: the decoder writes ${written}. Its largest weight, ` +
    `${formatNumber(weight, 2)}, is on \u201c${source[column]}\u201d (English word ${column + 1}).`
  );
}
