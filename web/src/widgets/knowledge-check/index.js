// The `knowledge-check` widget: quiz questions of a quiz.yaml as a quiz view. By default the
// lesson's check (`check`); with props `{ items: [id], number, practice: true }`, one card of the
// practice bank (web/src/practice/main.js), numbered among all items and linked to its slide. Its
// session is kept by the place it is shown in (props.place, registry.js), so leaving the slide and
// coming back keeps the learner's progress for this visit; nothing is stored anywhere else.
//
// It is mounted before the engine (`early`): questions with fixed answers show at once, and the
// live ones wait for the engine and, for a question on a trained model, that model
// (web/src/text/trained-models.js); a question whose engine or model cannot load is left out,
// with a note that says so. What the learner did goes back in the widget's state, the one way
// back: each answer counted (web/src/quiz/answer.js), which the deck passes on to an LMS when one
// launched it (web/src/deck/lms.js), and the score, which the practice page adds up.
import lesson, { LINK_KEY } from '../../lesson.js';

import { addAnswer, answerDetail } from '../../quiz/answer.js';
import { modelNeeded } from '../../quiz/generators/index.js';
import { createSession } from '../../quiz/session.js';
import { mountQuiz } from '../../quiz/view.js';
import { TRAINED_MODELS } from '../../text/trained-models.js';
import { loadEngineOnce } from '../shared/engine-loader.js';
import { formWidget } from '../shared/form-widget.js';
import { registerWidget } from '../shared/registry.js';
import { SETTINGS } from './link-settings.js';
import '../../quiz/quiz.css';

const ENGINE_LOADING = 'Loading the attention engine\u2026';
/** What a check (or a practice card) says of its live questions when the engine cannot start. */
const NO_ENGINE = {
  check:
    'The attention engine could not start, so the live questions are left out. Reload the page to try again.',
  practice:
    'This live question needs the attention engine, which could not start. Please reload the page to try again.',
};

/** Slide id -> title, for the practice cards' links to where an item is taught. */
const SLIDE_TITLES = new Map(lesson.slides.map((slide) => [slide.id, slide.title]));

/**
 * The items of `ids` (default: the check's, in the order `check` lists them).
 * @param {unknown} ids
 * @returns {object[]}
 */
function itemsOf(ids) {
  const byId = new Map(lesson.quiz.items.map((item) => [item.id, item]));
  const wanted = Array.isArray(ids) ? ids : lesson.quiz.check;
  return wanted.map((id) => {
    const item = byId.get(id);
    if (!item) throw new Error(`knowledge check: no quiz item has the id "${id}"`);
    return item;
  });
}

/**
 * One message line.
 * @param {HTMLElement} el
 * @param {'status' | 'note'} kind
 * @param {string} text
 * @returns {HTMLParagraphElement}
 */
function line(el, kind, text) {
  const p = el.ownerDocument.createElement('p');
  p.className = kind === 'status' ? 'widget-message status busy' : 'widget-message note';
  if (kind === 'status') p.setAttribute('role', 'status');
  p.textContent = text;
  return p;
}

/**
 * The session of each place the check is shown in, by the object that stands for it, with the
 * notes on what it had to leave out.
 * @type {WeakMap<object, { session: ReturnType<typeof createSession>, notes: string[] }>}
 */
const sessions = new WeakMap();

/**
 * @typedef {object} CheckParts
 * @property {HTMLElement} root
 * @property {object} place
 * @property {object[]} items
 * @property {{ number?: number, practice: boolean }} card how a practice card is labelled
 */

/**
 * Makes the place's session once what its questions need is loaded: the engine for live ones,
 * and each trained model a question reads. What cannot load is left out, with its note.
 * @param {CheckParts} parts
 * @param {import('../shared/form-widget.js').FormContext} context
 * @param {{ gone: boolean, loading: string }} visit this mount's: whether it has ended, and the
 *   line shown while waiting
 */
function prepare(parts, context, visit) {
  const { items } = parts;
  const live = items.some((item) => 'generator' in item);
  const needed = [...new Set(items.map(modelNeeded).filter((name) => name !== undefined))];
  const make = (engine, kept, notes) => {
    sessions.set(parts.place, { session: createSession(kept, { engine }), notes });
  };
  const engine = /** @type {any} */ (context.engine());
  const loaded = (name) => engine && TRAINED_MODELS[name].loaded(engine);
  if (!live || (engine && needed.every(loaded))) {
    make(engine, items, []);
    return;
  }
  visit.loading = engine
    ? needed.map((name) => TRAINED_MODELS[name].loading).join(' ')
    : ENGINE_LOADING;
  (engine ? Promise.resolve(engine) : loadEngineOnce())
    .then(
      // A question reads a trained model: load it first (once per page, shared with the
      // figures that show it). Without it, the check goes on without that model's questions.
      async (ready) => {
        const results = await Promise.allSettled(
          needed.map((name) => TRAINED_MODELS[name].loadOnce(ready)),
        );
        const missing = needed.filter((_, k) => results[k].status === 'rejected');
        const kept = items.filter(
          (item) => !missing.includes(/** @type {any} */ (modelNeeded(item))),
        );
        make(
          ready,
          kept,
          missing.map((name) => leftOut(TRAINED_MODELS[name].missing, parts.card)),
        );
      },
      () => {
        const kept = items.filter((item) => !('generator' in item));
        make(null, kept, [parts.card.practice ? NO_ENGINE.practice : NO_ENGINE.check]);
      },
    )
    .then(() => {
      if (!visit.gone) context.draw();
    });
}

/**
 * @param {string} reason e.g. "The trained language model could not be loaded"
 * @param {{ practice: boolean }} card
 * @returns {string} the note that says which questions are left out
 */
function leftOut(reason, card) {
  return card.practice
    ? `${reason}, so this live question cannot be drawn. Please reload the page to try again.`
    : `${reason}, so its questions are left out. Reload the page to try again.`;
}

/** @returns {import('../shared/registry.js').Widget} */
function createKnowledgeCheck() {
  /** @type {ReturnType<typeof mountQuiz> | null} */
  let view = null;
  let visit = { gone: false, loading: '' };
  /** Hands an answer or a new score to the host in the state; set once wired. */
  let report = (/** @type {import('../../quiz/answer.js').AnswerDetail | null} */ _answer) => {};

  return formWidget({
    /** @returns {CheckParts} */
    build(doc, props) {
      const root = doc.createElement('div');
      const place = props.place && typeof props.place === 'object' ? props.place : {};
      const number = Number.isInteger(props.number) ? props.number : undefined;
      return {
        root,
        place,
        items: itemsOf(props.items),
        card: { number, practice: !!props.practice },
      };
    },
    // No fill or read: the check has no inputs of its own, the learner's answers are its session's
    // (so choosing one hands the host no state).
    // The quiz of the place's session, or the line that says what loads until it has one.
    draw(parts) {
      const prepared = sessions.get(parts.place);
      if (!prepared) {
        parts.root.replaceChildren(line(parts.root, 'status', visit.loading));
        return;
      }
      if (view) {
        view.render();
        return;
      }
      const { session, notes } = prepared;
      parts.root.replaceChildren();
      if (session.total > 0) {
        view = mountQuiz(parts.root, session, {
          ...practiceOptions(parts, session),
          onAnswer: (current) => report(answerDetail(session, current)),
          onChange: () => report(null),
        });
      }
      for (const note of notes) parts.root.prepend(line(parts.root, 'note', note));
    },
    wire(parts, context) {
      visit = { gone: false, loading: '' };
      const mine = visit;
      report = (answer) => {
        if (mine.gone) return;
        const state = context.state();
        if (answer) addAnswer(state, answer);
        const { session } = /** @type {any} */ (sessions.get(parts.place));
        state.score = { right: session.score.right, answered: session.score.answered };
        context.report();
      };
      if (!sessions.has(parts.place)) prepare(parts, context, visit);
      return () => {
        mine.gone = true;
      };
    },
    clear() {
      view?.destroy();
      view = null;
    },
  });
}

/**
 * The quiz view's options for a practice card: its number among all items, a link to where it is
 * taught, no score line of its own (the page adds the cards up). The check takes the defaults.
 * @param {CheckParts} parts
 * @param {ReturnType<typeof createSession>} session
 */
function practiceOptions(parts, session) {
  const { number, practice } = parts.card;
  if (!practice) return {};
  const total = lesson.quiz.items.length;
  const live = parts.items.some((item) => 'generator' in item) && session.total > 0;
  return {
    label: () => `Question ${number ?? 1} of ${total}${live ? ' \u00b7 live numbers' : ''}`,
    teachLink: true,
    slideTitles: SLIDE_TITLES,
    lessonKey: LINK_KEY,
    showScore: false,
  };
}

registerWidget('knowledge-check', createKnowledgeCheck, { settings: SETTINGS, early: true });
