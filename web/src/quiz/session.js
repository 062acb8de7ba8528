// One pass through a list of quiz questions: which question is showing, what was answered, the
// score. Pure logic, no DOM, nothing stored: a session lasts as long as the object does. Live items
// ({ generator }) are resolved at each attempt, so every attempt has new numbers.
import { generators as builtInGenerators } from './generators/index.js';

/**
 * @typedef {{ id: string, slide: string, promptHtml: string, choicesHtml: string[], answer: number,
 *   explanationHtml: string }} StaticItem
 * @typedef {{ id: string, slide: string, generator: string }} LiveItem
 * @typedef {{ choiceIndex: number, correct: boolean, correctIndex: number,
 *   explanationHtml: string }} Result
 * @typedef {{ id: string, slide: string, live: boolean, index: number, total: number,
 *   promptHtml: string, choicesHtml: string[], result: Result | null }} Current
 * @typedef {{ right: number, answered: number, total: number }} Score
 * @typedef {{ current(): Current | null, answer(choiceIndex: number): Result, next(): void,
 *   restart(): void, readonly score: Score, readonly done: boolean, readonly total: number,
 *   readonly attempt: number }} Session
 */

/** How many times a live item is drawn again when a draw repeats the previous attempt's prompt. */
const REDRAWS = 8;

/**
 * @param {Array<StaticItem | LiveItem>} items in the order they are asked
 * @param {{ engine?: object | null, random?: () => number,
 *   generators?: Record<string, import('./generators/index.js').Generator> }} [options]
 *   `engine` is needed only by live items; `random` is any () => number in [0, 1)
 * @returns {Session}
 */
export function createSession(items, options = {}) {
  const { engine = null, random = Math.random, generators = builtInGenerators } = options;
  const list = [...items];
  for (const item of list) checkItem(item, generators, engine);

  /** @type {ReturnType<typeof resolve>[]} */
  let questions = [];
  /** @type {Result[]} */
  let results = [];
  let index = 0;
  let attempt = 0;

  const draw = (item, previous) => resolve(item, previous, generators, engine, random);
  const start = () => {
    questions = list.map((item, i) => draw(item, questions[i]));
    results = [];
    index = 0;
    attempt += 1;
  };
  start();

  return {
    current() {
      const question = questions[index];
      if (!question) return null;
      const { id, slide, live, promptHtml, choicesHtml } = question;
      const result = results[index] ? { ...results[index] } : null;
      const total = list.length;
      return { id, slide, live, index, total, promptHtml, choicesHtml: [...choicesHtml], result };
    },
    answer(choiceIndex) {
      const question = questions[index];
      if (!question) throw new Error('quiz: every question has been answered; restart to go again');
      const count = question.choicesHtml.length;
      if (!Number.isInteger(choiceIndex) || choiceIndex < 0 || choiceIndex >= count) {
        throw new RangeError(`quiz: choice must be a whole number from 0 to ${count - 1}`);
      }
      // A question counts once: answering it again returns the first answer.
      results[index] ??= {
        choiceIndex,
        correct: choiceIndex === question.answer,
        correctIndex: question.answer,
        explanationHtml: question.explanationHtml,
      };
      return { ...results[index] };
    },
    next() {
      if (index >= list.length) return;
      if (!results[index]) throw new Error('quiz: answer the question before moving on');
      index += 1;
    },
    restart: start,
    get score() {
      const right = results.filter((result) => result?.correct).length;
      return { right, answered: results.filter(Boolean).length, total: list.length };
    },
    get done() {
      return index >= list.length;
    },
    get total() {
      return list.length;
    },
    get attempt() {
      return attempt;
    },
  };
}

/**
 * Fails early, naming the item, when it can never be asked.
 * @param {StaticItem | LiveItem} item
 * @param {Record<string, Function>} generators
 * @param {object | null} engine
 */
function checkItem(item, generators, engine) {
  const name = `quiz item "${item?.id}"`;
  if (!item || typeof item !== 'object') throw new Error(`${name}: not an object`);
  if ('generator' in item) {
    if (!Object.hasOwn(generators, item.generator)) {
      throw new Error(`${name}: no generator is named "${item.generator}"`);
    }
    if (!engine) throw new Error(`${name}: a live item needs the engine`);
  } else {
    checkQuestion(name, item);
  }
}

/**
 * @param {string} name
 * @param {{ promptHtml?: unknown, choicesHtml?: unknown, answer?: unknown,
 *   explanationHtml?: unknown }} question
 */
function checkQuestion(name, { promptHtml, choicesHtml, answer, explanationHtml }) {
  const choices = Array.isArray(choicesHtml) ? choicesHtml : [];
  if (typeof promptHtml !== 'string' || typeof explanationHtml !== 'string') {
    throw new Error(`${name}: promptHtml and explanationHtml must be strings`);
  }
  if (choices.length < 2 || choices.some((choice) => typeof choice !== 'string')) {
    throw new Error(`${name}: choicesHtml must be at least two strings`);
  }
  if (
    typeof answer !== 'number' ||
    !Number.isInteger(answer) ||
    answer < 0 ||
    answer >= choices.length
  ) {
    throw new Error(`${name}: answer must index choicesHtml, got ${answer}`);
  }
}

/**
 * The question to ask for `item` at this attempt. A live item is drawn afresh, and drawn again if
 * it happens to repeat the previous attempt's question.
 * @param {StaticItem | LiveItem} item
 * @param {{ promptHtml: string, choicesHtml: string[] } | undefined} previous
 * @param {Record<string, Function>} generators
 * @param {object | null} engine
 * @param {() => number} random
 */
function resolve(item, previous, generators, engine, random) {
  const { id, slide } = item;
  if (!('generator' in item)) {
    const { promptHtml, choicesHtml, answer, explanationHtml } = item;
    return { id, slide, live: false, promptHtml, choicesHtml, answer, explanationHtml };
  }
  const same = (q) =>
    previous &&
    q.promptHtml === previous.promptHtml &&
    JSON.stringify(q.choicesHtml) === JSON.stringify(previous.choicesHtml);
  let question;
  for (let tries = 0; tries < REDRAWS && (!question || same(question)); tries += 1) {
    question = generators[item.generator](engine, random);
    checkQuestion(`quiz item "${id}" (generator "${item.generator}")`, question);
  }
  const { promptHtml, choicesHtml, answer, explanationHtml } = question;
  return { id, slide, live: true, promptHtml, choicesHtml, answer, explanationHtml };
}
