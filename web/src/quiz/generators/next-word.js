// Live question: which word does the page's trained language model rate most likely to come
// next after the start of a sentence? The choices are the model's first choice and three words
// it ranks lower; the probabilities come from the model at each attempt.
import { modelOf } from './language-model.js';
import { escapeHtml, formatNumber, pick, shuffle } from './shared.js';

/** Starts of sentences whose next word is not a punctuation mark for this model. */
export const STARTS = [
  'The president of the United',
  'It was the first time that',
  'He opened the door and',
  'She said that she would',
  'In the middle of the',
  'They did not want to',
  'The price of the new',
  'There is no reason to',
];
/** The wrong choices are words the model ranks from 4th to 20th (1st is its first choice). */
const LOWEST_RANK = 20;
const HIGHEST_WRONG_RANK = 4;

/**
 * @param {import('../../engine/index.js').Engine} engine
 * @param {() => number} random
 * @returns {{ promptHtml: string, choicesHtml: string[], answer: number, explanationHtml: string }}
 */
export function generate(engine, random) {
  const model = modelOf(engine);
  const start = pick(random, STARTS);
  const { next } = model.run(start, { top: LOWEST_RANK });
  // Words only: not the unknown word, not punctuation.
  const named = next
    .map((w, rank) => ({ ...w, rank: rank + 1 }))
    .filter((w) => w.word !== null && /\p{L}/u.test(w.word));
  const first = named[0]; // the model's most probable word (its rank may be 2 or 3)
  const others = shuffle(
    random,
    named.filter((w) => w.rank >= HIGHEST_WRONG_RANK),
  ).slice(0, 3);
  const choices = shuffle(random, [first, ...others]);
  const shown = (/** @type {{ word: string | null }} */ w) => `\u201c${escapeHtml(w.word)}\u201d`;
  const list = next
    .slice(0, 5)
    .map(
      (w) => `${w.word === null ? 'an unknown word' : shown(w)} ${formatNumber(w.probability, 3)}`,
    )
    .join(', ');
  return {
    promptHtml:
      `<p>The page's language model (trained on the Brown Corpus) reads \u201c${escapeHtml(start)}\u201d. ` +
      'Which of these words does it rate most likely to come next?</p>',
    choicesHtml: choices.map((w) => escapeHtml(w.word)),
    answer: choices.indexOf(first),
    explanationHtml:
      `<p>Its five most probable next words: ${list}. The model reads the words so far through ` +
      'two layers of attention and turns the last position into a probability for each of the ' +
      '20,059 words it knows; the other choices were its ' +
      `${others.map((w) => `${w.rank}th`).join(', ')} picks.</p>`,
  };
}
