// chrF (Popović 2015), the character n-gram F-score the translation community reports beside
// BLEU: it credits a word half right ("katzen" for "katze"), which matters for German's
// inflections and compounds. As sacreBLEU computes it by default: character n-grams of orders 1 to
// 6 with white space removed, their matches clipped per sentence and summed over the corpus; per
// order a precision and a recall, each averaged over the orders both sides have n-grams of, and
// F_beta of the two averages with beta = 2 (recall counts twice as much). Scores 0 to 100.

import { ngramCounts } from './bleu.js';

export const CHRF_ORDER = 6;
export const CHRF_BETA = 2;

/**
 * A sentence's statistics: per order, [hypothesis n-grams, reference n-grams, matches].
 * @param {string} hypothesis
 * @param {string} reference
 * @returns {number[][]} (CHRF_ORDER) x 3
 */
export function chrfStatistics(hypothesis, reference) {
  const strip = (/** @type {string} */ s) => Array.from(s.replace(/\s+/gu, ''));
  const hyp = strip(hypothesis);
  const ref = strip(reference);
  const out = [];
  for (let n = 1; n <= CHRF_ORDER; n++) {
    const h = ngramCounts(hyp, n);
    const r = ngramCounts(ref, n);
    let matches = 0;
    for (const [gram, count] of h) matches += Math.min(count, r.get(gram) ?? 0);
    out.push([Math.max(0, hyp.length - n + 1), Math.max(0, ref.length - n + 1), matches]);
  }
  return out;
}

/**
 * Corpus chrF of sentence pairs.
 * @param {Array<{ hypothesis: string, reference: string }>} pairs
 * @returns {number} 0 to 100
 */
export function corpusChrf(pairs) {
  const totals = Array.from({ length: CHRF_ORDER }, () => [0, 0, 0]);
  for (const { hypothesis, reference } of pairs) {
    chrfStatistics(hypothesis, reference).forEach((stats, i) => {
      for (let k = 0; k < 3; k++) totals[i][k] += stats[k];
    });
  }
  let precision = 0;
  let recall = 0;
  let orders = 0;
  for (const [hyp, ref, matches] of totals) {
    if (hyp === 0 || ref === 0) continue;
    precision += matches / hyp;
    recall += matches / ref;
    orders++;
  }
  if (orders === 0) return 0;
  precision /= orders;
  recall /= orders;
  const b2 = CHRF_BETA * CHRF_BETA;
  const denominator = b2 * precision + recall;
  return denominator > 0 ? (100 * (1 + b2) * precision * recall) / denominator : 0;
}
