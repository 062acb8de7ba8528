// The numbers behind the language-model widget, from what the page's trained model measured on
// itself (its `info`) and what one run of it gives (`run(text)`: every head's causal weights and
// the next words; docs/language-model.md). Nothing here touches the page: the widget's other files
// draw what these functions return.

// The heads' names, kinds and thresholds are shared with the live training and the questions.
export { INDUCTION_THRESHOLD, headName, kindWords } from '../../text/heads.js';

/** How many distinct words the "Repeat random words" button writes, twice. */
export const REPEAT_WORDS = 12;

/**
 * Ordinary English nouns and verbs for the induction demonstration: 200 distinct lower-case words,
 * each one token of the page's tokenizer and in its vocabulary of word vectors (a test checks
 * both). Random words cannot be predicted from what comes before them; their repetition can.
 */
export const COMMON_WORDS = Object.freeze([
  ...['time', 'year', 'people', 'way', 'day', 'man', 'thing', 'woman', 'life', 'child'],
  ...['world', 'school', 'state', 'family', 'student', 'group', 'country', 'problem', 'hand'],
  ...['part', 'place', 'case', 'week', 'company', 'system', 'program', 'question', 'work'],
  ...['government', 'number', 'night', 'point', 'home', 'water', 'room', 'mother', 'area'],
  ...['money', 'story', 'fact', 'month', 'lot', 'right', 'study', 'book', 'eye', 'job', 'word'],
  ...['business', 'issue', 'side', 'kind', 'head', 'house', 'service', 'friend', 'father'],
  ...['power', 'hour', 'game', 'line', 'end', 'member', 'law', 'car', 'city', 'name', 'team'],
  ...['minute', 'idea', 'kid', 'body', 'face', 'level', 'office', 'door', 'health'],
  ...['person', 'art', 'war', 'history', 'party', 'result', 'change', 'morning', 'reason'],
  ...['research', 'girl', 'guy', 'moment', 'air', 'teacher', 'force', 'education', 'foot'],
  ...['boy', 'age', 'policy', 'music', 'market', 'sense', 'nation', 'plan', 'college'],
  ...['interest', 'death', 'experience', 'effect', 'class', 'control', 'care', 'field'],
  ...['development', 'role', 'effort', 'rate', 'heart', 'river', 'show', 'leader', 'light'],
  ...['voice', 'wife', 'police', 'mind', 'price', 'report', 'decision', 'son', 'view'],
  ...['relationship', 'town', 'road', 'arm', 'difference', 'value', 'building', 'action'],
  ...['model', 'season', 'society', 'tax', 'director', 'position', 'player', 'record', 'paper'],
  ...['space', 'ground', 'form', 'event', 'official', 'matter', 'center', 'couple', 'site'],
  ...['project', 'activity', 'star', 'table', 'need', 'court', 'oil', 'situation', 'cost'],
  ...['industry', 'figure', 'street', 'image', 'phone', 'data', 'picture', 'practice', 'piece'],
  ...['land', 'product', 'doctor', 'wall', 'patient', 'worker', 'news', 'test', 'movie'],
  ...['north', 'love', 'support', 'technology', 'step', 'baby', 'computer', 'type', 'attention'],
  ...['film', 'tree', 'source', 'organization', 'hair', 'window', 'evidence', 'population'],
]);

/** The score each kind is named from. */
const KIND_SCORE = {
  'previous-token': 'previousToken',
  'first-token': 'firstToken',
  self: 'self',
  induction: 'induction',
};

/** Each measured score by its name in docs/language-model.md. */
const SCORE_NAMES = {
  previousToken: 'previous-token',
  firstToken: 'first-token',
  self: 'self',
  induction: 'induction',
};

/** The most words outside the vocabulary the note under the figure names. */
const MAX_LISTED = 8;

const twoDecimals = new Intl.NumberFormat('en', {
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
});
const wholeNumber = new Intl.NumberFormat('en', { maximumFractionDigits: 0 });
const perplexityFormat = new Intl.NumberFormat('en', { maximumFractionDigits: 1 });
const percentFormat = new Intl.NumberFormat('en', { style: 'percent', maximumFractionDigits: 1 });

/**
 * @typedef {{ previousToken: number, firstToken: number, self: number, induction: number }} Scores
 * @typedef {{ layer: number, head: number, kind: string, scores: Scores }} Head layer and head
 *   0-based, as the model's info lists them
 */

/**
 * @param {number} value
 * @returns {string} the value to 2 decimals, as the figure writes scores and weights
 */
export function formatScore(value) {
  return twoDecimals.format(value);
}

/**
 * @param {{ layers: number, heads: readonly unknown[] }} info the model's info (its `heads` lists
 *   every head, layer-major)
 * @returns {number} heads per layer
 */
export function headsPerLayer({ layers, heads }) {
  return layers > 0 ? Math.floor(heads.length / layers) : 0;
}

/**
 * The index (layer-major) of the head a name such as '2.1' gives, or -1 when it names none of the
 * model's heads. It may come from a link, as any text or as the number a link reads 2.1 as.
 * @param {unknown} name
 * @param {number} layers
 * @param {number} heads per layer
 * @returns {number}
 */
export function headIndex(name, layers, heads) {
  const text = typeof name === 'number' || typeof name === 'string' ? String(name) : '';
  const match = /^\s*(\d{1,3})\.(\d{1,3})\s*$/.exec(text);
  if (!match) return -1;
  const layer = Number(match[1]) - 1;
  const head = Number(match[2]) - 1;
  if (layer < 0 || layer >= layers || head < 0 || head >= heads) return -1;
  return layer * heads + head;
}

/**
 * The score a head's kind is named from; for a mixed head (or a kind this page does not know),
 * the largest of its four.
 * @param {Head} head
 * @returns {{ score: keyof Scores, value: number }}
 */
export function keyScore(head) {
  if (Object.hasOwn(KIND_SCORE, head.kind)) {
    const score = /** @type {keyof Scores} */ (KIND_SCORE[head.kind]);
    return { score, value: head.scores[score] };
  }
  const names = /** @type {(keyof Scores)[]} */ (Object.keys(SCORE_NAMES));
  const score = names.reduce((best, name) => (head.scores[name] > head.scores[best] ? name : best));
  return { score, value: head.scores[score] };
}

/**
 * @param {string} score a key of a head's scores, e.g. 'previousToken'
 * @returns {string} its name, e.g. 'previous-token'
 */
export function scoreName(score) {
  return Object.hasOwn(SCORE_NAMES, score) ? SCORE_NAMES[score] : score;
}

/**
 * @param {Head[]} heads
 * @returns {number} the index of the head with the highest measured induction score (the first
 *   of equals), or -1 for no heads
 */
export function inductionHeadIndex(heads) {
  let best = -1;
  heads.forEach((head, i) => {
    if (best < 0 || head.scores.induction > heads[best].scores.induction) best = i;
  });
  return best;
}

/**
 * The row the read-out states: the last occurrence of `word` among the tokens (compared as the
 * tokenizer writes tokens: lower case), or the last token when the word is not there.
 * @param {string[]} tokens (n) n >= 1
 * @param {unknown} word
 * @returns {number}
 */
export function rowFor(tokens, word) {
  const wanted = typeof word === 'string' ? word.trim().toLowerCase() : '';
  const at = wanted ? tokens.lastIndexOf(wanted) : -1;
  return at >= 0 ? at : tokens.length - 1;
}

/**
 * The key a row of causal weights gives most weight to (the first of equals).
 * @param {ArrayLike<number>} weights (n, n) row-major, row i over columns 0..i
 * @param {number} n
 * @param {number} row 0 <= row < n
 * @returns {{ column: number, weight: number }}
 */
export function strongestKey(weights, n, row) {
  let column = 0;
  for (let j = 1; j <= row; j++) {
    if (weights[row * n + j] > weights[row * n + column]) column = j;
  }
  return { column, weight: weights[row * n + column] };
}

/**
 * The read-out's sentence, e.g. 'In head 1.4, “it” gives most weight to “because” (0.99).' A
 * token that occurs more than once up to the row is named with its position (1-based).
 * @param {string} name the head's 1-based name
 * @param {string[]} tokens
 * @param {number} row
 * @param {{ column: number, weight: number }} strongest
 * @returns {string}
 */
export function readoutText(name, tokens, row, { column, weight }) {
  const seen = tokens.slice(0, row + 1);
  const named = (/** @type {number} */ i) => {
    const repeated = seen.indexOf(tokens[i]) !== seen.lastIndexOf(tokens[i]);
    return repeated ? `\u201c${tokens[i]}\u201d (token ${i + 1})` : `\u201c${tokens[i]}\u201d`;
  };
  const to = column === row ? 'itself' : named(column);
  return `In head ${name}, ${named(row)} gives most weight to ${to} (${formatScore(weight)}).`;
}

/**
 * L when the tokens are a run of L >= 2 tokens written twice (tokens[k] = tokens[L + k] for every
 * k < L), else 0.
 * @param {string[]} tokens
 * @returns {number}
 */
export function repeatedRunLength(tokens) {
  const n = tokens.length;
  if (n < 4 || n % 2 !== 0) return 0;
  const run = n / 2;
  for (let k = 0; k < run; k++) if (tokens[k] !== tokens[run + k]) return 0;
  return run;
}

/**
 * The induction score of one head on a run of L tokens written twice (n = 2L), as the model's
 * report measures it (docs/language-model.md, "Measuring the model"): the mean over k = 0..L-1
 * of the weight from position L + k (the second occurrence of token k) to position k + 1 (the
 * token that followed its first occurrence).
 * @param {ArrayLike<number>} weights (n, n) row-major
 * @param {number} n 2L
 * @param {number} run L, with 2 <= L and 2L = n
 * @returns {number}
 */
export function inductionScore(weights, n, run) {
  if (!(run >= 2 && 2 * run === n)) {
    throw new Error(`inductionScore: ${n} tokens are not a run of ${run} written twice`);
  }
  let sum = 0;
  for (let k = 0; k < run; k++) sum += weights[(run + k) * n + k + 1];
  return sum / run;
}

/**
 * A seeded stream of numbers in [0, 1) (mulberry32): the same seed, the same words.
 * @param {number} seed
 * @returns {() => number}
 */
function seededRandom(seed) {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * `count` distinct words of COMMON_WORDS, drawn with the seed (a partial Fisher-Yates shuffle),
 * among those the vocabulary holds.
 * @param {number} seed a whole number
 * @param {number} [count]
 * @param {(word: string) => boolean} [known] the vocabulary's test; every word passes without it
 * @returns {string[]} fewer than `count` only when fewer words pass `known`
 */
export function randomWords(seed, count = REPEAT_WORDS, known = () => true) {
  const pool = [...new Set(COMMON_WORDS)].filter((word) => known(word));
  const random = seededRandom(seed);
  const wanted = Math.min(count, pool.length);
  for (let i = 0; i < wanted; i++) {
    const j = i + Math.floor(random() * (pool.length - i));
    [pool[i], pool[j]] = [pool[j], pool[i]];
  }
  return pool.slice(0, wanted);
}

/**
 * @param {string[]} words
 * @returns {string} the words, then the same words again
 */
export function repeatedText(words) {
  const once = words.join(' ');
  return `${once} ${once}`;
}

/**
 * @param {string | null} word a next word, null for the model's unknown-word id
 * @returns {string}
 */
export function nextWordLabel(word) {
  return word === null ? '(an unknown word)' : word;
}

/**
 * The note under the figure naming the tokens the model does not know, or '' when it knows all.
 * @param {string[]} tokens
 * @param {boolean[]} known per token
 * @returns {string}
 */
export function unknownText(tokens, known) {
  const words = [...new Set(tokens.filter((_, i) => !known[i]))];
  if (words.length === 0) return '';
  const shown = words.slice(0, MAX_LISTED).map((word) => `\u201c${word}\u201d`);
  const more = words.length - shown.length;
  const list = more > 0 ? `${shown.join(', ')} and ${more} more` : shown.join(', ');
  const each = words.length === 1 ? 'it as' : 'each as';
  return `Not in the model\u2019s vocabulary: ${list}. The model reads ${each} the same unknown word.`;
}

/**
 * @param {number} probability
 * @returns {string} e.g. '12.3%'
 */
export function formatProbability(probability) {
  return percentFormat.format(probability);
}

/**
 * The one line saying how the model was trained and how well it does, from its info.
 * @param {{ corpus?: { name?: string } | null, testPerplexity: number,
 *   baselines?: { kneserNeyBigram?: { test?: number } } | null, training?: unknown }} info
 * @returns {string}
 */
export function modelFactsText(info) {
  const training = /** @type {Record<string, unknown> | null} */ (
    info.training && typeof info.training === 'object' ? info.training : null
  );
  const count = (/** @type {unknown} */ value) =>
    typeof value === 'number' && Number.isFinite(value) ? value : null;
  const corpus = typeof info.corpus?.name === 'string' ? info.corpus.name.split(' (')[0] : '';
  const tokens = count(training?.trainTokens);
  const bigram = count(info.baselines?.kneserNeyBigram?.test);
  const repeated = count(training?.repeatedPerBatch);
  const batch = count(training?.batch);

  const on = corpus ? ` on the ${corpus.replace(/^the /i, '')}` : '';
  const size = tokens === null ? '' : ` (${wholeNumber.format(tokens)} training tokens)`;
  const parts = [`Trained by this page\u2019s own core${on}${size}.`];
  const perplexity = `Held-out perplexity ${perplexityFormat.format(info.testPerplexity)}`;
  parts.push(
    bigram === null
      ? `${perplexity} on its test text.`
      : `${perplexity} on its test text, against ${perplexityFormat.format(bigram)} for a Kneser-Ney bigram.`,
  );
  if (repeated !== null && batch !== null && repeated > 0) {
    parts.push(
      `${wholeNumber.format(repeated)} of every ${wholeNumber.format(batch)} training sequences ` +
        'were runs of random words repeated to fill them, which is what brings out the ' +
        'induction heads.',
    );
  }
  return parts.join(' ');
}
