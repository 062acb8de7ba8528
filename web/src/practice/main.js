// The practice page: every quiz item of the lesson, static and live, grouped by the slide that
// teaches it in lesson order, each with a link back to that slide. Static items work at once; live
// items wait for the engine, which computes their numbers afresh at every attempt.
import 'katex/dist/katex.min.css';
import '../styles/base.css';
import '../quiz/quiz.css';
import lesson from 'virtual:lesson';

import { loadEngine } from '../engine/browser.js';
import { modelNeeded } from '../quiz/generators/index.js';
import { createSession } from '../quiz/session.js';
import { mountQuiz } from '../quiz/view.js';
import { MODEL_TEXTS, loadTrainedModel } from '../text/trained-models.js';
import { offerUpdates } from '../app-updates.js';

const NO_WASM =
  'The live questions need WebAssembly, which this browser does not offer or has turned off. ' +
  'The other questions work without it; for the live ones, please open this page in an ' +
  'up-to-date browser with WebAssembly enabled.';
const LOAD_FAILED =
  'The attention engine could not be loaded, so the live questions cannot draw their numbers. ' +
  'The other questions still work; please reload the page to try the live ones.';
const WAITING = 'Loading the attention engine\u2026';
const LIVE_UNAVAILABLE = 'This live question needs the attention engine, which could not start.';

const ui = {
  eyebrow: /** @type {HTMLElement} */ (document.getElementById('eyebrow')),
  title: /** @type {HTMLElement} */ (document.getElementById('title')),
  status: /** @type {HTMLElement} */ (document.getElementById('status')),
  error: /** @type {HTMLElement} */ (document.getElementById('error')),
  score: /** @type {HTMLElement} */ (document.getElementById('score')),
  bank: /** @type {HTMLElement} */ (document.getElementById('bank')),
};

/** @type {Set<import('../quiz/session.js').Session>} */
const sessions = new Set();
const total = lesson.quiz.items.length;
const slideTitles = new Map(lesson.slides.map((slide) => [slide.id, slide.title]));

/**
 * The items grouped by slide, groups in lesson order, and numbered in that order.
 * @returns {{ slide: string, title: string, entries: { item: any, number: number }[] }[]}
 */
function groups() {
  const order = new Map(lesson.slides.map((slide, i) => [slide.id, i]));
  const rank = (item) => order.get(item.slide) ?? Infinity;
  const sorted = [...lesson.quiz.items].sort((a, b) => rank(a) - rank(b));
  /** @type {Map<string, { slide: string, title: string, entries: any[] }>} */
  const bySlide = new Map();
  sorted.forEach((item, i) => {
    if (!bySlide.has(item.slide)) {
      bySlide.set(item.slide, {
        slide: item.slide,
        title: slideTitles.get(item.slide) ?? item.slide,
        entries: [],
      });
    }
    bySlide.get(item.slide).entries.push({ item, number: i + 1 });
  });
  return [...bySlide.values()];
}

/** Shows the score of everything answered on this page since it opened. */
function showScore() {
  let right = 0;
  let answered = 0;
  for (const session of sessions) {
    right += session.score.right;
    answered += session.score.answered;
  }
  ui.score.textContent = `Score ${right} / ${answered} (of ${total} questions)`;
  ui.score.hidden = false;
}

/**
 * Mounts one item's quiz view into its card.
 * @param {HTMLElement} host
 * @param {any} item
 * @param {number} number
 * @param {object | null} engine
 */
function mountItem(host, item, number, engine) {
  const session = createSession([item], { engine });
  sessions.add(session);
  const live = 'generator' in item;
  mountQuiz(host, session, {
    label: () => `Question ${number} of ${total}${live ? ' \u00b7 live numbers' : ''}`,
    teachLink: true,
    slideTitles,
    showScore: false,
    onChange: showScore,
  });
}

/**
 * Builds the bank: one section per slide, one card per item.
 * @returns {{ host: HTMLElement, item: any, number: number }[]} the live items, still to mount
 */
function buildBank() {
  const waiting = [];
  const sections = groups().map(({ slide, title, entries }) => {
    const section = document.createElement('section');
    section.className = 'practice-group';
    section.setAttribute('aria-labelledby', `slide-${slide}`);
    const heading = document.createElement('h2');
    heading.className = 'practice-group-title';
    heading.id = `slide-${slide}`;
    heading.textContent = title;
    const list = document.createElement('ul');
    list.className = 'practice-items';
    for (const { item, number } of entries) {
      const card = document.createElement('li');
      card.className = 'practice-item';
      card.dataset.item = item.id;
      list.append(card);
      if ('generator' in item) {
        setLine(card, 'status', WAITING);
        waiting.push({ host: card, item, number });
      } else {
        mountItem(card, item, number, null);
      }
    }
    section.append(heading, list);
    return section;
  });
  ui.bank.replaceChildren(...sections);
  return waiting;
}

/**
 * Replaces an element's content with one message line.
 * @param {HTMLElement} host
 * @param {'status' | 'note'} kind
 * @param {string} text
 */
function setLine(host, kind, text) {
  const line = document.createElement('p');
  line.className = kind === 'status' ? 'status busy' : 'note';
  line.textContent = text;
  host.replaceChildren(line);
}

/** Sets up the page, then starts the engine for the live items. */
async function start() {
  const { course, code, title } = lesson.lesson;
  ui.eyebrow.textContent = `${course} \u00b7 ${code}`;
  ui.title.textContent = `Practice: ${title}`;
  document.title = `Practice \u00b7 ${title} \u00b7 ${course} \u00b7 ${code}`;
  const waiting = buildBank();
  showScore();
  if (waiting.length === 0) {
    ui.status.hidden = true;
    return;
  }
  let engine;
  try {
    if (typeof WebAssembly !== 'object' || typeof WebAssembly.instantiate !== 'function') {
      throw new Error(NO_WASM);
    }
    document.body.setAttribute('aria-busy', 'true');
    engine = await loadEngine();
  } catch (error) {
    if (error.message !== NO_WASM) console.error(error);
    ui.error.textContent = error.message === NO_WASM ? NO_WASM : LOAD_FAILED;
    ui.error.hidden = false;
    for (const { host } of waiting) setLine(host, 'note', LIVE_UNAVAILABLE);
    return;
  } finally {
    ui.status.hidden = true;
    document.body.removeAttribute('aria-busy');
  }
  for (const { host, item, number } of waiting) {
    if (!modelNeeded(item)) mountItem(host, item, number, engine);
  }
  // The questions on each trained model wait for it, loaded once for all of them.
  /** @type {Map<import('../text/trained-models.js').TrainedModel, typeof waiting>} */
  const byModel = new Map();
  for (const entry of waiting) {
    const name = modelNeeded(entry.item);
    if (name) byModel.set(name, [...(byModel.get(name) ?? []), entry]);
  }
  await Promise.all(
    [...byModel].map(async ([name, items]) => {
      for (const { host } of items) setLine(host, 'status', MODEL_TEXTS[name].loading);
      try {
        await loadTrainedModel(name, engine);
      } catch {
        const note = `${MODEL_TEXTS[name].missing}, so this live question cannot be drawn. Please reload the page to try again.`;
        for (const { host } of items) setLine(host, 'note', note);
        return;
      }
      for (const { host, item, number } of items) mountItem(host, item, number, engine);
    }),
  );
}

start();

// The site keeps itself for offline use, and offers a new version when there is one.
offerUpdates();
