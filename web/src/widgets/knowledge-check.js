// The `knowledge-check` widget: the lesson's check questions (slides/quiz.yaml, `check`) as a quiz
// view. Its session lives in props.state, so leaving the slide and coming back keeps the learner's
// progress for this visit; nothing is stored anywhere else.
import lesson from 'virtual:lesson';

import { createSession } from '../quiz/session.js';
import { mountQuiz } from '../quiz/view.js';
import { registerWidget } from './registry.js';
import '../quiz/quiz.css';

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

/** @returns {import('./registry.js').Widget} */
function createKnowledgeCheck() {
  /** @type {ReturnType<typeof mountQuiz> | null} */
  let view = null;

  return {
    mount(el, props, engine) {
      const state = props.state ?? {};
      state.session ??= createSession(checkItems(), { engine });
      view = mountQuiz(el, state.session);
    },
    update() {
      view?.render();
    },
    destroy() {
      view?.destroy();
      view = null;
    },
  };
}

registerWidget('knowledge-check', createKnowledgeCheck);
