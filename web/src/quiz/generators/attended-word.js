// Live question, the twin of "how does a model learn where to look": the page's attention model
// translates a sentence, and the learner guesses which English word it weighs most as it writes
// one German word. The translation, the weights and the right answer come from the model at each
// attempt; nobody told the model these alignments.
import { escapeHtml, formatNumber, largestAt, pick, shuffle, tableHtml } from './shared.js';
import { SENTENCES, askableWords, attentionModelOf, isWord, rowOf } from './translation.js';

/** Wrong answers offered beside the right one. */
const OTHERS = 3;

/**
 * @param {import('../../engine/index.js').Engine} engine
 * @param {() => number} random
 * @returns {{ promptHtml: string, choicesHtml: string[], answer: number, explanationHtml: string }}
 */
export function generate(engine, random) {
  const model = attentionModelOf(engine);
  // Every sentence in the list has a German word to ask about; the order only varies the draw.
  for (const sentence of shuffle(random, SENTENCES)) {
    const translation = model.translate(sentence);
    const askable = askableWords(translation, OTHERS);
    if (askable.length > 0) return question(translation, pick(random, askable), random);
  }
  throw new Error('the attention model gave no German word to ask about');
}

/**
 * @param {import('../../engine/index.js').Translation} translation
 * @param {number} t the German word asked about
 * @param {() => number} random
 */
function question({ source, target, weights }, t, random) {
  const n = source.length;
  const row = rowOf(weights, n, t);
  const top = largestAt(row);
  const right = source[top];
  const wrong = shuffle(
    random,
    [...new Set(source.filter(isWord))].filter((w) => w !== right),
  );
  const choices = shuffle(random, [right, ...wrong.slice(0, OTHERS)]);
  const english = escapeHtml(source.join(' '));
  const german = escapeHtml(target.join(' '));
  const word = escapeHtml(target[t]);
  const table = tableHtml({
    caption: `The weights of \u201c${word}\u201d over the English words`,
    head: ['English word', 'weight'],
    rows: source.map((w, j) => [`${j + 1}. ${escapeHtml(w)}`, formatNumber(row[j], 2)]),
  });
  return {
    promptHtml:
      `<p>The page\u2019s attention model translates \u201c${english}\u201d as ` +
      `\u201c<span lang="de">${german}</span>\u201d. Writing German word ${t + 1}, ` +
      `\u201c<span lang="de">${word}</span>\u201d, which English word does it attend to most?</p>`,
    choicesHtml: choices.map(escapeHtml),
    answer: choices.indexOf(right),
    explanationHtml:
      `<p>Its largest weight, ${formatNumber(row[top], 2)}, is on \u201c${escapeHtml(right)}\u201d:</p>` +
      table +
      '<p>Nobody gave the model this alignment. It was trained only to write the German of ' +
      'human translations; every step from the scores to the words is differentiable, so the ' +
      'translation loss alone taught the scoring network which English word helps with which ' +
      'German word.</p>',
  };
}
