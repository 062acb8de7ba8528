// Live question on the shape of cross-attention's weights: the page's attention model translates a
// sentence, and the learner says how many rows and columns its alignment matrix has and what each
// row adds up to. The counts come from the model's own translation at each attempt.
import { escapeHtml, formatNumber, shuffle } from './shared.js';
import { SENTENCES, attentionModelOf } from './translation.js';

/**
 * @param {import('../../engine/index.js').Engine} engine
 * @param {() => number} random
 * @returns {{ promptHtml: string, choicesHtml: string[], answer: number, explanationHtml: string }}
 */
export function generate(engine, random) {
  const model = attentionModelOf(engine);
  // A sentence whose German has another length than its English, so rows and columns differ.
  for (const sentence of shuffle(random, SENTENCES)) {
    const translation = model.translate(sentence);
    if (translation.target.length !== translation.source.length) {
      return question(translation, random);
    }
  }
  throw new Error('every sentence translated to as many German words as English tokens');
}

/**
 * @param {import('../../engine/index.js').Translation} translation
 * @param {() => number} random
 */
function question({ source, target, weights }, random) {
  const [m, n] = [target.length, source.length];
  const options = [
    `${m} rows (German) \u00d7 ${n} columns (English); each row adds up to 1`,
    `${n} rows (English) \u00d7 ${m} columns (German); each row adds up to 1`,
    `${m} rows (German) \u00d7 ${n} columns (English); each column adds up to 1`,
    `${n} rows \u00d7 ${n} columns, one per English token; each row adds up to 1`,
  ];
  const order = shuffle(random, [0, 1, 2, 3]);
  let first = 0;
  for (let j = 0; j < n; j++) first += weights[j];
  let column = 0;
  for (let t = 0; t < m; t++) column += weights[t * n];
  return {
    promptHtml:
      `<p>The page\u2019s attention model translates the ${n} English tokens ` +
      `\u201c${escapeHtml(source.join(' '))}\u201d into the ${m} German words ` +
      `\u201c<span lang="de">${escapeHtml(target.join(' '))}</span>\u201d. Drawn as in the ` +
      'paper, with a row for each word the decoder writes, what shape is its matrix of attention ' +
      'weights?</p>',
    choicesHtml: order.map((k) => escapeHtml(options[k])),
    answer: order.indexOf(0),
    explanationHtml:
      `<p>Each of the ${m} German words is one decoder step, and at each step the decoder ` +
      `spreads one softmax over the ${n} encoder states: ${m} \u00d7 ${n}, and every row is a ` +
      'distribution. In this translation by the page\u2019s attention model the first row adds ' +
      `up to ${formatNumber(first, 3)}, while the first column, the weight the English word ` +
      `\u201c${escapeHtml(source[0])}\u201d gets over all steps, adds up to ` +
      `${formatNumber(column, 2)}: a column can hold any total, since nothing makes every ` +
      'English word be read exactly once. The matrix is square only when both sides happen to ' +
      'have the same length.</p>',
  };
}
