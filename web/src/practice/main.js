// The practice page: every quiz item of the lesson, static and live, grouped by the slide that
// teaches it in lesson order, each with a link back to that slide. Each item is a card of the
// knowledge-check widget, placed through the widget contract as every figure is
// (widgets/shared/host.js): static items work at once; live items wait for the engine, which
// computes their numbers afresh at every attempt. The score line adds up the cards' states.
import 'katex/dist/katex.min.css';
import '../styles/base.css';
import '../widgets/shared/widgets.css';
import lesson, { LINK_KEY } from '../lesson.js';

import '../widgets/knowledge-check/index.js';
import { EngineUnavailable, loadEngineOnce } from '../widgets/shared/engine-loader.js';
import { ARTICLE_URL, DECK_URL, lessonHref } from '../links.js';
import { placeWidget } from '../widgets/shared/host.js';
import { offerUpdates } from '../app-updates.js';

const LOAD_FAILED =
  'The attention engine could not be loaded, so the live questions cannot draw their numbers. ' +
  'The other questions still work; please reload the page to try the live ones.';
const NO_WASM =
  'The live questions need WebAssembly, which this browser does not offer or has turned off. ' +
  'The other questions work without it; for the live ones, please open this page in an ' +
  'up-to-date browser with WebAssembly enabled.';

const ui = {
  eyebrow: /** @type {HTMLElement} */ (document.getElementById('eyebrow')),
  title: /** @type {HTMLElement} */ (document.getElementById('title')),
  status: /** @type {HTMLElement} */ (document.getElementById('status')),
  error: /** @type {HTMLElement} */ (document.getElementById('error')),
  score: /** @type {HTMLElement} */ (document.getElementById('score')),
  bank: /** @type {HTMLElement} */ (document.getElementById('bank')),
};

/** Per item, its card's score as its state last gave it. @type {Map<string, { right: number, answered: number }>} */
const scores = new Map();
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
  for (const score of scores.values()) {
    right += score.right;
    answered += score.answered;
  }
  ui.score.textContent = `Score ${right} / ${answered} (of ${total} questions)`;
  ui.score.hidden = false;
}

/**
 * Places one item's card: the knowledge-check widget with that item alone.
 * @param {HTMLElement} host
 * @param {any} item
 * @param {number} number
 */
function placeItem(host, item, number) {
  placeWidget(
    host,
    { type: 'knowledge-check', props: { items: [item.id], number, practice: true } },
    {
      state: {},
      place: {},
      onState(state) {
        const score = /** @type {any} */ (state.score);
        if (score) scores.set(item.id, { right: score.right, answered: score.answered });
        showScore();
      },
    },
  );
}

/**
 * Builds the bank: one section per slide, one card per item.
 * @returns {boolean} whether any item is live
 */
function buildBank() {
  let live = false;
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
      live ||= 'generator' in item;
      placeItem(card, item, number);
    }
    section.append(heading, list);
    return section;
  });
  ui.bank.replaceChildren(...sections);
  return live;
}

/** Sets up the page; while the engine starts for the live items, says so once for the page. */
async function start() {
  const { course, code, title } = lesson.lesson;
  ui.eyebrow.textContent = `${course} \u00b7 ${code}`;
  ui.title.textContent = `Practice: ${title}`;
  document.title = `Practice \u00b7 ${title} \u00b7 ${course} \u00b7 ${code}`;
  // The header leads to this lesson's slides and article (the page's own links, the first's).
  if (LINK_KEY) {
    for (const [selector, page] of [
      ['a.deck-link', DECK_URL],
      ['a.article-link', ARTICLE_URL],
    ]) {
      const link = /** @type {HTMLAnchorElement | null} */ (document.querySelector(selector));
      if (link) link.href = lessonHref(page, LINK_KEY);
    }
  }
  const live = buildBank();
  showScore();
  if (!live) {
    ui.status.hidden = true;
    return;
  }
  document.body.setAttribute('aria-busy', 'true');
  try {
    await loadEngineOnce();
  } catch (error) {
    const noWasm = typeof WebAssembly !== 'object';
    if (!(error instanceof EngineUnavailable)) console.error(error);
    ui.error.textContent = noWasm ? NO_WASM : LOAD_FAILED;
    ui.error.hidden = false;
  } finally {
    ui.status.hidden = true;
    document.body.removeAttribute('aria-busy');
  }
}

start();

// The site keeps itself for offline use, and offers a new version when there is one.
offerUpdates();
