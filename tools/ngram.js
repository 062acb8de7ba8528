// Count-based language models, the baselines a trained model is measured against
// (tools/corpus-baselines.js): an add-one unigram model and an interpolated Kneser-Ney bigram
// model. A corpus is a list of samples, each a run of ids in 0 .. classes-1; no n-gram crosses
// from one sample into the next. Every id, the unknown-word id included, is an ordinary token.

/**
 * @typedef {ArrayLike<number>[]} Samples
 * @typedef {{ probability: (previous: number | null, word: number) => number }} Model
 *   previous: the id before `word` in its sample, or null for a sample's first token
 */

/**
 * The unigram model with add-one (Laplace) smoothing: P(w) = (c(w) + 1) / (N + V), c(w) the
 * number of times w occurs in the training samples, N their length, V = classes.
 * @param {Samples} samples
 * @param {number} classes
 * @returns {Model & { tokens: number }}
 */
export function addOneUnigram(samples, classes) {
  checkClasses(classes);
  const counts = new Float64Array(classes);
  let tokens = 0;
  for (const sample of samples) {
    for (let k = 0; k < sample.length; k++) {
      counts[checkId(sample[k], classes)] += 1;
      tokens += 1;
    }
  }
  const total = tokens + classes;
  return {
    tokens,
    probability: (_previous, word) => (counts[checkId(word, classes)] + 1) / total,
  };
}

/**
 * Interpolated Kneser-Ney bigram model (Chen and Goodman 1998), with the lowest order
 * interpolated with the uniform distribution so that no id has probability 0:
 *
 *   P(w | v) = max(c(v,w) - D2, 0) / c(v) + D2 · N1+(v •) / c(v) · P1(w)      when c(v) > 0
 *   P(w | v) = P1(w)                                                         when c(v) = 0
 *   P1(w)    = max(N1+(• w) - D1, 0) / N1+(• •) + D1 · T / N1+(• •) · 1/V
 *
 * c(v,w): bigram counts within samples; c(v) = Σ_w c(v,w); N1+(v •): the number of distinct
 * words after v; N1+(• w): the number of distinct words before w (its continuation count);
 * N1+(• •): the number of distinct bigrams; T: the number of words with a continuation count
 * > 0; V = classes. A sample's first token has no word before it and is predicted by P1.
 * The discounts are `discount` at both orders when given, else estimated from counts of counts
 * (Ney, Essen and Kneser 1994): D = n1 / (n1 + 2 n2), n_k the number of bigram types seen k
 * times (for D2) or of words with continuation count k (for D1); 0.75 where that is not strictly
 * between 0 and 1 (no n1 or no n2, as in a very small corpus).
 * @param {Samples} samples
 * @param {number} classes
 * @param {{ discount?: number }} [options]
 * @returns {Model & { discounts: { bigram: number, unigram: number }, bigramTypes: number }}
 */
export function kneserNeyBigram(samples, classes, { discount } = {}) {
  checkClasses(classes);
  /** @type {Map<number, number>} */
  const pairs = new Map();
  for (const sample of samples) {
    for (let k = 0; k < sample.length; k++) {
      const word = checkId(sample[k], classes);
      if (k === 0) continue;
      const key = sample[k - 1] * classes + word;
      pairs.set(key, (pairs.get(key) ?? 0) + 1);
    }
  }

  const contextCount = new Float64Array(classes); // c(v)
  const followers = new Float64Array(classes); // N1+(v •)
  const continuation = new Float64Array(classes); // N1+(• w)
  const countsOfCounts = [0, 0, 0];
  for (const [key, count] of pairs) {
    const previous = Math.floor(key / classes);
    const word = key - previous * classes;
    contextCount[previous] += count;
    followers[previous] += 1;
    continuation[word] += 1;
    if (count <= 2) countsOfCounts[count] += 1;
  }
  const bigramTypes = pairs.size;
  const continued = continuation.reduce((sum, n) => sum + (n > 0 ? 1 : 0), 0);
  const continuationCounts = [0, 0, 0];
  for (const n of continuation) if (n > 0 && n <= 2) continuationCounts[n] += 1;

  const d2 = discount ?? estimateDiscount(countsOfCounts[1], countsOfCounts[2]);
  const d1 = discount ?? estimateDiscount(continuationCounts[1], continuationCounts[2]);
  for (const d of [d1, d2]) {
    if (!(d > 0 && d < 1)) throw new RangeError(`a discount of ${d} is not between 0 and 1`);
  }
  if (bigramTypes === 0) throw new RangeError('the training samples hold no bigram');

  const unigram = new Float64Array(classes);
  const floor = (d1 * continued) / bigramTypes / classes;
  for (let w = 0; w < classes; w++) {
    unigram[w] = Math.max(continuation[w] - d1, 0) / bigramTypes + floor;
  }

  return {
    discounts: { bigram: d2, unigram: d1 },
    bigramTypes,
    probability(previous, word) {
      checkId(word, classes);
      if (previous === null) return unigram[word];
      const context = contextCount[checkId(previous, classes)];
      if (context === 0) return unigram[word];
      const count = pairs.get(previous * classes + word) ?? 0;
      const backoff = (d2 * followers[previous]) / context;
      return Math.max(count - d2, 0) / context + backoff * unigram[word];
    },
  };
}

/**
 * The model's perplexity on `samples`: exp of the mean negative log probability of every token,
 * each given the token before it in its sample (none for a sample's first token).
 * @param {Model} model
 * @param {Samples} samples
 * @returns {{ perplexity: number, tokens: number, crossEntropyBits: number }}
 */
export function perplexity(model, samples) {
  let nats = 0;
  let tokens = 0;
  for (const sample of samples) {
    for (let k = 0; k < sample.length; k++) {
      const p = model.probability(k === 0 ? null : sample[k - 1], sample[k]);
      if (!(p > 0)) throw new RangeError(`token ${k} of a sample has probability ${p}`);
      nats -= Math.log(p);
      tokens += 1;
    }
  }
  if (tokens === 0) throw new RangeError('no tokens to evaluate');
  return {
    perplexity: Math.exp(nats / tokens),
    tokens,
    crossEntropyBits: nats / tokens / Math.LN2,
  };
}

/**
 * @param {number} n1
 * @param {number} n2
 */
function estimateDiscount(n1, n2) {
  return n1 > 0 && n2 > 0 ? n1 / (n1 + 2 * n2) : 0.75;
}

/** @param {number} classes */
function checkClasses(classes) {
  if (!Number.isInteger(classes) || classes < 1) {
    throw new RangeError(`${classes} classes: expected a positive integer`);
  }
}

/**
 * @param {number} id
 * @param {number} classes
 */
function checkId(id, classes) {
  if (!Number.isInteger(id) || id < 0 || id >= classes) {
    throw new RangeError(`id ${id} is not in 0 .. ${classes - 1}`);
  }
  return id;
}
