// Live question: the trained model reads six ordinary words written twice; the page shows one
// head's weights from a word of the second copy, and asks what the head is doing there. The
// weights and the right answer come from the model at each attempt; the head is the one whose
// measured induction score is highest.
import { causalRow, headName, modelOf } from './language-model.js';
import { escapeHtml, formatNumber, largestAt, pick, shuffle, tableHtml } from './shared.js';

/** Ordinary words that the vocabulary holds, to write twice (distinct within a draw). */
export const WORDS = [
  'apple',
  'river',
  'doctor',
  'window',
  'garden',
  'silver',
  'market',
  'engine',
  'letter',
  'forest',
  'summer',
  'bottle',
  'teacher',
  'island',
  'kitchen',
  'mountain',
  'pencil',
  'harbor',
  'rabbit',
  'blanket',
  'candle',
  'village',
  'ocean',
  'ticket',
  'violin',
  'carpet',
  'lemon',
  'castle',
  'tiger',
  'wagon',
];
const LENGTH = 6;

/** What a row's largest weight can be on: the four answers. */
const PATTERNS = Object.freeze({
  after:
    'It looks back to the earlier copy of this word and attends to the word that came after it.',
  previous: 'It attends to the word just before this one.',
  first: 'It attends to the first word of the text.',
  self: 'It attends to this word itself.',
});

/**
 * @param {import('../../engine/index.js').Engine} engine
 * @param {() => number} random
 * @returns {{ promptHtml: string, choicesHtml: string[], answer: number, explanationHtml: string }}
 */
export function generate(engine, random) {
  const model = modelOf(engine);
  const words = shuffle(random, WORDS).slice(0, LENGTH);
  const text = [...words, ...words].join(' ');
  const run = model.run(text);
  const n = run.tokens.length;
  const head = run.heads.reduce((a, b) => (b.scores.induction > a.scores.induction ? b : a));
  // Word k's second occurrence, k from 1 to LENGTH - 2: its previous word, the word after its
  // first occurrence, the first word and itself are four different positions.
  const k = pick(random, [1, 2, 3, 4]);
  const query = LENGTH + k;
  const row = causalRow(head.weights, n, query);
  const columns = { after: k + 1, previous: query - 1, first: 0, self: query };
  const top = largestAt(row);
  const found = Object.keys(columns).find((name) => columns[name] === top);
  const order = shuffle(random, Object.keys(PATTERNS));
  const labels = run.tokens.slice(0, query + 1).map(escapeHtml);
  const table = tableHtml({
    caption: `${headName(head)}: the weights from the second \u201c${labels[query]}\u201d`,
    head: ['word', 'weight'],
    rows: labels.map((label, j) => [`${j + 1}. ${label}`, formatNumber(row[j], 2)]),
  });
  return {
    promptHtml:
      `<p>The page's trained language model reads six words written twice: ` +
      `\u201c${escapeHtml(text)}\u201d. These are the weights of its ${headName(head)} ` +
      `from the second \u201c${labels[query]}\u201d over the words up to it:</p>` +
      table +
      '<p>What is this head doing at that word?</p>',
    choicesHtml: order.map((name) => escapeHtml(PATTERNS[name])),
    // A row whose largest weight is on none of the four positions has no right answer among
    // them: the one nearest to what it does is the pattern with the most weight.
    answer: order.indexOf(
      found ?? Object.keys(columns).reduce((a, b) => (row[columns[b]] > row[columns[a]] ? b : a)),
    ),
    explanationHtml: explain(head, row, columns, labels, query),
  };
}

/**
 * @param {import('../../engine/index.js').LanguageModelRun['heads'][number]} head
 * @param {number[]} row the weights from the query, over positions 0..query
 * @param {Record<string, number>} columns the position of each pattern's word
 * @param {string[]} labels the words up to the query, escaped
 * @param {number} query
 */
function explain(head, row, columns, labels, query) {
  const at = (/** @type {string} */ name) =>
    `\u201c${labels[columns[name]]}\u201d (word ${columns[name] + 1}) gets ` +
    `${formatNumber(row[columns[name]], 2)}`;
  return (
    `<p>The word after the first \u201c${labels[query]}\u201d is ${at('after')}; ` +
    `the word just before, ${at('previous')}; the first word, ${at('first')}; and the word ` +
    `itself ${formatNumber(row[query], 2)}. An <strong>induction head</strong> finds where the ` +
    'current word occurred before and attends to what followed it, so the model can predict ' +
    `that the same word comes next again. Over 100 texts of 32 random words written twice, ` +
    `${headName(head)} gives that word a mean weight of ` +
    `${formatNumber(head.scores.induction, 2)}: its measured induction score.</p>`
  );
}
