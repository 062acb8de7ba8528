// Corpus-level BLEU (Papineni, Roukos, Ward and Zhu 2002), the score the translation models are
// reported with, overall and by the length of the English source sentence.
//
// Definition, with one reference per sentence and N = maxOrder (4 unless told):
//
//   matches_n = Σ_sentences Σ_g min(count of n-gram g in the hypothesis, its count in the reference)
//   totals_n  = Σ_sentences max(0, hypothesis length - n + 1)
//   p_n       = matches_n / totals_n                      (0 when totals_n = 0)
//   c, r      = the hypothesis and reference lengths summed over the corpus
//   BP        = exp(1 - r / c) when c < r, else 1         (0 when c = 0 < r)
//   BLEU      = 100 · BP · exp((1/N) Σ_n log p_n)
//
// The counts are pooled over the corpus before any division, so the corpus score is not the mean
// of sentence scores. There is no smoothing: when any p_n is 0 the score is 0, and so a single
// sentence of fewer than N tokens (which has no N-gram) scores 0 even when it is perfect. An empty
// hypothesis corpus scores 0. N-grams never cross from one sentence into the next. Tokens are
// compared exactly as given (the caller lower-cases them).

import { checkTokens, describe } from './scoring-checks.js';

/**
 * @typedef {{ hypothesis: string[], reference: string[] }} Pair
 * @typedef {{ sourceLength: number, hypothesis: string[], reference: string[] }} LengthItem
 *   sourceLength: the number of English tokens of the source sentence
 * @typedef {{
 *   bleu: number,
 *   precisions: number[],
 *   brevityPenalty: number,
 *   hypothesisLength: number,
 *   referenceLength: number,
 *   matches: number[],
 *   totals: number[],
 * }} Bleu
 *   bleu in 0..100; precisions, matches and totals hold one entry per order n = 1..maxOrder
 * @typedef {Bleu & { from: number, to: number, sentences: number }} BucketBleu
 * @typedef {readonly [number, number]} Bucket  inclusive range of source lengths [from, to]
 */

/**
 * The source-length buckets of the report: 1-5, 6-10, 11-15, 16-20, 21-30 and 31 or more
 * English tokens, both ends inclusive.
 * @type {readonly Bucket[]}
 */
export const LENGTH_BUCKETS = Object.freeze([
  Object.freeze(/** @type {const} */ ([1, 5])),
  Object.freeze(/** @type {const} */ ([6, 10])),
  Object.freeze(/** @type {const} */ ([11, 15])),
  Object.freeze(/** @type {const} */ ([16, 20])),
  Object.freeze(/** @type {const} */ ([21, 30])),
  Object.freeze(/** @type {const} */ ([31, Infinity])),
]);

/**
 * Corpus-level BLEU of hypotheses against one reference each (definition at the top of the file).
 * @param {Pair[]} pairs
 * @param {{ maxOrder?: number }} [options]  maxOrder: the longest n-gram counted, 4 by default
 * @returns {Bleu}
 */
export function corpusBleu(pairs, options = {}) {
  const maxOrder = checkOptions('corpusBleu', options);
  if (!Array.isArray(pairs)) {
    throw new TypeError(`corpusBleu: pairs must be an array, got ${describe(pairs)}`);
  }
  pairs.forEach((pair, k) => checkPair('corpusBleu', `pairs[${k}]`, pair));
  return computeBleu(pairs, maxOrder);
}

/**
 * Corpus BLEU of each bucket of source length, and of all items together. An item whose source
 * length lies in no bucket (0 with the default buckets) counts only in `overall` and in
 * `outside`. A bucket without sentences scores 0 (an empty hypothesis corpus); its `sentences`
 * says so.
 * @param {LengthItem[]} items
 * @param {readonly Bucket[]} [buckets]  inclusive [from, to] ranges that do not overlap;
 *   LENGTH_BUCKETS by default
 * @param {{ maxOrder?: number }} [options]  as for corpusBleu
 * @returns {{ overall: Bleu & { sentences: number }, buckets: BucketBleu[], outside: number }}
 */
export function bleuByLength(items, buckets = LENGTH_BUCKETS, options = {}) {
  const maxOrder = checkOptions('bleuByLength', options);
  if (!Array.isArray(items)) {
    throw new TypeError(`bleuByLength: items must be an array, got ${describe(items)}`);
  }
  checkBuckets(buckets);
  items.forEach((item, k) => {
    checkPair('bleuByLength', `items[${k}]`, item);
    const length = item.sourceLength;
    if (typeof length !== 'number') {
      throw new TypeError(
        `bleuByLength: items[${k}].sourceLength must be a number, got ${describe(length)}`,
      );
    }
    if (!Number.isInteger(length) || length < 0) {
      throw new RangeError(
        `bleuByLength: items[${k}].sourceLength must be a whole number >= 0, got ${length}`,
      );
    }
  });

  /** @type {LengthItem[][]} */
  const members = buckets.map(() => []);
  let outside = 0;
  for (const item of items) {
    const b = buckets.findIndex(
      ([from, to]) => item.sourceLength >= from && item.sourceLength <= to,
    );
    if (b < 0) outside += 1;
    else members[b].push(item);
  }
  return {
    overall: { sentences: items.length, ...computeBleu(items, maxOrder) },
    buckets: buckets.map(([from, to], b) => ({
      from,
      to,
      sentences: members[b].length,
      ...computeBleu(members[b], maxOrder),
    })),
    outside,
  };
}

/**
 * The definition at the top of the file, on pairs already checked.
 * @param {Pair[]} pairs
 * @param {number} maxOrder
 * @returns {Bleu}
 */
function computeBleu(pairs, maxOrder) {
  const matches = new Array(maxOrder).fill(0);
  const totals = new Array(maxOrder).fill(0);
  let hypothesisLength = 0;
  let referenceLength = 0;
  // Tokens become small whole numbers, so that an n-gram's key (its ids joined by commas) is
  // unambiguous whatever characters the tokens hold.
  /** @type {Map<string, number>} */
  const ids = new Map();
  /** @param {string[]} tokens */
  const toIds = (tokens) =>
    tokens.map((token) => {
      let id = ids.get(token);
      if (id === undefined) {
        id = ids.size;
        ids.set(token, id);
      }
      return id;
    });

  for (const { hypothesis, reference } of pairs) {
    hypothesisLength += hypothesis.length;
    referenceLength += reference.length;
    const hyp = toIds(hypothesis);
    const ref = toIds(reference);
    for (let n = 1; n <= maxOrder; n++) {
      const referenceCounts = ngramCounts(ref, n);
      for (const [gram, count] of ngramCounts(hyp, n)) {
        matches[n - 1] += Math.min(count, referenceCounts.get(gram) ?? 0);
      }
      totals[n - 1] += Math.max(0, hyp.length - n + 1);
    }
  }

  const precisions = matches.map((m, k) => (totals[k] > 0 ? m / totals[k] : 0));
  let brevityPenalty = 1;
  if (hypothesisLength < referenceLength) {
    brevityPenalty = hypothesisLength === 0 ? 0 : Math.exp(1 - referenceLength / hypothesisLength);
  }
  let bleu = 0;
  if (precisions.every((p) => p > 0)) {
    const meanLog = precisions.reduce((sum, p) => sum + Math.log(p), 0) / maxOrder;
    bleu = 100 * brevityPenalty * Math.exp(meanLog);
  }
  return {
    bleu,
    precisions,
    brevityPenalty,
    hypothesisLength,
    referenceLength,
    matches,
    totals,
  };
}

/**
 * How often each n-gram of `ids` occurs, keyed by its ids joined with commas. chrF counts
 * characters with it: single code points, so the commas still stand at fixed places and no two
 * n-grams share a key.
 * @param {Array<number | string>} ids
 * @param {number} n
 * @returns {Map<string, number>}
 */
export function ngramCounts(ids, n) {
  /** @type {Map<string, number>} */
  const counts = new Map();
  for (let i = 0; i + n <= ids.length; i++) {
    const key = ids.slice(i, i + n).join(',');
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return counts;
}

/**
 * @param {string} fn
 * @param {unknown} options
 * @returns {number}  maxOrder
 */
function checkOptions(fn, options) {
  if (options === null || typeof options !== 'object') {
    throw new TypeError(`${fn}: options must be an object, got ${describe(options)}`);
  }
  const { maxOrder = 4 } = /** @type {{ maxOrder?: unknown }} */ (options);
  if (typeof maxOrder !== 'number') {
    throw new TypeError(`${fn}: options.maxOrder must be a number, got ${describe(maxOrder)}`);
  }
  if (!Number.isInteger(maxOrder) || maxOrder < 1) {
    throw new RangeError(`${fn}: options.maxOrder must be a whole number >= 1, got ${maxOrder}`);
  }
  return maxOrder;
}

/**
 * @param {string} fn
 * @param {string} where  how the message names the pair, e.g. "pairs[3]"
 * @param {unknown} pair
 */
function checkPair(fn, where, pair) {
  if (pair === null || typeof pair !== 'object') {
    throw new TypeError(
      `${fn}: ${where} must be an object { hypothesis, reference }, got ${describe(pair)}`,
    );
  }
  const { hypothesis, reference } = /** @type {{ hypothesis?: unknown, reference?: unknown }} */ (
    pair
  );
  checkTokens(fn, `${where}.hypothesis`, hypothesis);
  checkTokens(fn, `${where}.reference`, reference);
}

/** @param {unknown} buckets */
function checkBuckets(buckets) {
  if (!Array.isArray(buckets)) {
    throw new TypeError(`bleuByLength: buckets must be an array, got ${describe(buckets)}`);
  }
  buckets.forEach((bucket, k) => {
    if (
      !Array.isArray(bucket) ||
      bucket.length !== 2 ||
      typeof bucket[0] !== 'number' ||
      typeof bucket[1] !== 'number'
    ) {
      throw new TypeError(
        `bleuByLength: buckets[${k}] must be a pair of numbers [from, to], got ${describe(bucket)}`,
      );
    }
    const [from, to] = bucket;
    const whole = (/** @type {number} */ x) => Number.isInteger(x) && x >= 0;
    if (!whole(from) || !(whole(to) || to === Infinity) || from > to) {
      throw new RangeError(
        `bleuByLength: buckets[${k}] must be [from, to] with whole numbers 0 <= from <= to ` +
          `(to may be Infinity), got [${from}, ${to}]`,
      );
    }
    for (let e = 0; e < k; e++) {
      const [otherFrom, otherTo] = buckets[e];
      if (from <= otherTo && otherFrom <= to) {
        throw new RangeError(
          `bleuByLength: buckets[${k}] [${from}, ${to}] overlaps buckets[${e}] ` +
            `[${otherFrom}, ${otherTo}]; a sentence belongs to one bucket at most`,
        );
      }
    }
  });
}
