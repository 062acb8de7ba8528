// The `knowledge-check` widget: the lesson's check questions (slides/quiz.yaml, `check`) as a quiz
// view. Its session is kept by the place it is shown in (props.place, registry.js), so leaving the
// slide and coming back keeps the learner's progress for this visit; nothing is stored anywhere
// else. A question on a trained model waits
// for the model to load (web/src/text/trained-models.js). Each answer is announced by
// an event from the widget's element (web/src/quiz/answer-event.js), which the deck passes on to
// an LMS when one launched it (web/src/deck/lms.js).
import lesson from 'virtual:lesson';

import { answerEvent } from '../../quiz/answer-event.js';
import { modelNeeded } from '../../quiz/generators/index.js';
import { createSession } from '../../quiz/session.js';
import { mountQuiz } from '../../quiz/view.js';
import { MODEL_TEXTS, loadTrainedModel } from '../../text/trained-models.js';
import { formWidget } from '../shared/form-widget.js';
import { registerWidget } from '../shared/registry.js';
import { SETTINGS } from './link-settings.js';
import '../../quiz/quiz.css';

/**
 * The check's items, in the order `check` lists them.
 * @returns {object[]}
 */
function checkItems() {
  const byId = new Map(lesson.quiz.items.map((item) => [item.id, item]));
  return lesson.quiz.check.map((id) => {
    const item = byId.get(id);
    if (!item) throw new Error(`knowledge check: no quiz item has the id "${id}"`);
    return item;
  });
}

/**
 * @param {import('../../text/trained-models.js').TrainedModel} name
 * @returns {string} the note that says its questions are left out
 */
function missingText(name) {
  return `${MODEL_TEXTS[name].missing}, so its questions are left out. Reload the page to try again.`;
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
 * @param {HTMLElement} el
 * @param {'status' | 'note'} kind
 * @param {string} text
 */
function showLine(el, kind, text) {
  el.replaceChildren(line(el, kind, text));
}

/**
 * The session of each place the check is shown in, by the object that stands for it.
 * @type {WeakMap<object, ReturnType<typeof createSession>>}
 */
const sessions = new WeakMap();

/** @returns {import('../shared/registry.js').Widget} */
function createKnowledgeCheck() {
  /** @type {ReturnType<typeof mountQuiz> | null} */
  let view = null;
  /** The note shown while the trained models some questions read load. */
  let loading = '';
  /** @type {import('../../text/trained-models.js').TrainedModel[]} models that could not load */
  let missing = [];
  let gone = false;

  return formWidget({
    build(doc, props) {
      const root = doc.createElement('div');
      const place = props.place && typeof props.place === 'object' ? props.place : {};
      return { root, place };
    },
    // No fill or read: the check has no inputs of its own, the learner's answers are its session's
    // (so choosing one hands the host no state).
    // The quiz of the place's session, or the note that says which models load until it has one.
    draw(parts) {
      const session = sessions.get(parts.place);
      if (!session) {
        showLine(parts.root, 'status', loading);
        return;
      }
      if (view) {
        view.render();
        return;
      }
      view = mountQuiz(parts.root, session, {
        onAnswer: (current) => {
          const event = answerEvent(session, current);
          if (event) parts.root.dispatchEvent(event);
        },
      });
      for (const name of missing) parts.root.prepend(line(parts.root, 'note', missingText(name)));
    },
    wire(parts, context) {
      gone = false;
      missing = [];
      if (!sessions.has(parts.place)) {
        const engine = context.engine();
        const items = checkItems();
        const needed = [...new Set(items.map(modelNeeded).filter((name) => name !== undefined))];
        const loaded = (name) =>
          name === 'translation' ? engine.translators : engine.languageModel;
        if (needed.every(loaded)) {
          sessions.set(parts.place, createSession(items, { engine }));
        } else {
          // A question reads a trained model: load it first (once per page, shared with the
          // figures that show it). Without it, the check goes on without that model's questions.
          loading = needed.map((name) => MODEL_TEXTS[name].loading).join(' ');
          Promise.allSettled(needed.map((name) => loadTrainedModel(name, engine))).then(
            (results) => {
              if (gone) return;
              missing = needed.filter((_, k) => results[k].status === 'rejected');
              if (!sessions.has(parts.place)) {
                const kept = items.filter(
                  (item) => !missing.includes(/** @type {any} */ (modelNeeded(item))),
                );
                sessions.set(parts.place, createSession(kept, { engine }));
              }
              context.draw();
            },
          );
        }
      }
      return () => {
        gone = true;
      };
    },
    clear() {
      view?.destroy();
      view = null;
    },
  });
}

registerWidget('knowledge-check', createKnowledgeCheck, { settings: SETTINGS });
