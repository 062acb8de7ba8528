// Shows a quiz session in an element: the question, its choices as radio buttons, Check, then the
// explanation (right or wrong) announced in a polite live region, the score, Next and Try again.
// Keys pressed inside never reach the page around it, so choosing never moves the slides.
import { slideHref } from '../links.js';
import { buildChoice, buildQuizParts, element } from './view-markup.js';

/** Keys the quiz uses (radio arrows, Space, Enter) or that a deck would take as navigation. */
const OWN_KEYS = new Set([
  'ArrowUp',
  'ArrowDown',
  'ArrowLeft',
  'ArrowRight',
  'Home',
  'End',
  'PageUp',
  'PageDown',
  'Enter',
  ' ',
  'Spacebar',
]);

let views = 0;

/**
 * @typedef {object} ViewOptions
 * @property {(current: import('./session.js').Current) => string} [label] the question's heading;
 *   "Question k of N" by default
 * @property {boolean} [teachLink] add a "Where this is taught" link to the item's slide
 * @property {Map<string, string>} [slideTitles] slide id -> title, named in that link
 * @property {string | null} [lessonKey] the lesson's key, which that link carries (none: the
 *   first lesson)
 * @property {boolean} [showScore] show the score line (default true)
 * @property {(session: import('./session.js').Session) => void} [onChange] after every answer,
 *   next and restart
 * @property {(current: import('./session.js').Current) => void} [onAnswer] after an answer, with
 *   the question as answered (its result set)
 */

/**
 * Renders `session` into `el` (its content is replaced) and keeps it in step as the learner works.
 * @param {HTMLElement} el
 * @param {import('./session.js').Session} session
 * @param {ViewOptions} [options]
 * @returns {{ render(): void, destroy(): void }}
 */
export function mountQuiz(el, session, options = {}) {
  const { teachLink = false, slideTitles = new Map(), showScore = true, lessonKey } = options;
  const label = options.label ?? ((q) => `Question ${q.index + 1} of ${q.total}`);
  const onChange = options.onChange ?? (() => {});
  const onAnswer = options.onAnswer ?? (() => {});
  const doc = el.ownerDocument;
  views += 1;
  const name = `quiz-${views}`;
  const parts = buildQuizParts(doc, name);
  let shown = '';
  let feedbackKey = '';

  /** @returns {HTMLInputElement[]} */
  const radios = () => Array.from(parts.choices.querySelectorAll('input[type="radio"]'));

  /** @param {string} key @param {() => Node[]} build */
  const setFeedback = (key, build) => {
    if (key === feedbackKey) return;
    feedbackKey = key;
    parts.feedback.replaceChildren(...build());
  };

  /** @param {import('./session.js').Current} q */
  const fillQuestion = (q) => {
    parts.prompt.innerHTML = q.promptHtml;
    parts.choices.replaceChildren(
      ...q.choicesHtml.map((html, i) => buildChoice(doc, name, i, html)),
    );
    parts.teach.hidden = !teachLink;
    if (teachLink) {
      const title = slideTitles.get(q.slide);
      parts.teachLink.href = slideHref(q.slide, lessonKey);
      parts.teachLink.textContent = title
        ? `Where this is taught: ${title}`
        : 'Where this is taught';
    }
  };

  /** @param {import('./session.js').Current} q */
  const markChoices = ({ result, choicesHtml }) => {
    radios().forEach((input, i) => {
      const chosen = result?.choiceIndex === i;
      const right = result?.correctIndex === i;
      input.disabled = Boolean(result);
      if (result) input.checked = chosen;
      const choice = /** @type {HTMLElement} */ (input.parentElement);
      choice.classList.toggle('is-correct', Boolean(result) && right);
      choice.classList.toggle('is-wrong', chosen && !right);
      const tag = result && (right ? (chosen ? 'Your answer: correct' : 'Correct answer') : '');
      choice.querySelector('.quiz-choice-tag').textContent = tag || (chosen ? 'Your answer' : '');
    });
    if (!result) return;
    setFeedback(`${shown}:answered`, () => {
      const verdict = element(doc, 'p', { class: 'quiz-verdict' }, [
        result.correct ? 'Correct.' : 'Not quite.',
      ]);
      verdict.classList.add(result.correct ? 'is-correct' : 'is-wrong');
      const nodes = [verdict];
      if (!result.correct) {
        const answer = element(doc, 'span', { class: 'quiz-answer' });
        answer.innerHTML = choicesHtml[result.correctIndex];
        nodes.push(element(doc, 'p', {}, ['The answer is: ', answer]));
      }
      const explanation = element(doc, 'div', { class: 'quiz-explanation' });
      explanation.innerHTML = result.explanationHtml;
      return [...nodes, explanation];
    });
  };

  const render = () => {
    const q = session.current();
    const score = session.score;
    parts.score.textContent = `Score ${score.right} / ${score.answered}`;
    parts.score.hidden = !showScore;
    parts.restart.hidden = score.answered === 0;
    parts.question.hidden = !q;
    parts.check.hidden = !q || Boolean(q.result);
    parts.next.hidden = !q?.result || q.total === 1;
    if (!q) {
      parts.teach.hidden = true;
      setFeedback(`${session.attempt}:done`, () => [
        element(doc, 'p', { class: 'quiz-summary' }, [
          score.total === 1
            ? `You have answered the question: ${score.right === 1 ? 'right' : 'not quite'}.`
            : `You have answered all ${score.total} questions: ${score.right} right.`,
        ]),
      ]);
      return;
    }
    const key = `${session.attempt}:${q.index}`;
    if (key !== shown) {
      shown = key;
      fillQuestion(q);
      setFeedback(key, () => []);
    }
    parts.legend.textContent = label(q);
    parts.next.textContent = q.index + 1 >= q.total ? 'See your score' : 'Next question';
    markChoices(q);
  };

  const focusQuestion = () => (radios()[0] ?? parts.restart).focus();

  const check = () => {
    const q = session.current();
    if (!q || q.result) return;
    const chosen = radios().find((input) => input.checked);
    if (!chosen) {
      setFeedback(`${shown}:hint`, () => [
        element(doc, 'p', { class: 'quiz-hint' }, ['Choose an answer first.']),
      ]);
      focusQuestion();
      return;
    }
    session.answer(Number(chosen.value));
    render();
    (parts.next.hidden ? parts.restart : parts.next).focus();
    onAnswer(/** @type {import('./session.js').Current} */ (session.current()));
    onChange(session);
  };

  /** @param {() => void} step */
  const move = (step) => () => {
    step();
    render();
    if (session.done) parts.restart.focus();
    else focusQuestion();
    onChange(session);
  };
  const onNext = move(() => session.next());
  const onRestart = move(() => session.restart());

  /** @param {SubmitEvent} event */
  const onSubmit = (event) => {
    event.preventDefault();
    check();
  };

  /** @param {KeyboardEvent} event */
  const onKeyDown = (event) => {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    if (!OWN_KEYS.has(event.key) && event.key.length !== 1) return;
    event.stopPropagation();
    const target = /** @type {HTMLElement} */ (event.target);
    if (!(target instanceof HTMLInputElement) || target.type !== 'radio') return;
    if (event.key === 'Enter') {
      event.preventDefault();
      check();
    } else if (event.key === 'Home' || event.key === 'End') {
      event.preventDefault();
      const enabled = radios().filter((input) => !input.disabled);
      const to = event.key === 'Home' ? enabled[0] : enabled[enabled.length - 1];
      if (to) {
        to.checked = true;
        to.focus();
      }
    }
  };

  parts.form.addEventListener('submit', onSubmit);
  parts.next.addEventListener('click', onNext);
  parts.restart.addEventListener('click', onRestart);
  parts.root.addEventListener('keydown', onKeyDown);
  el.replaceChildren(parts.root);
  render();

  return {
    render,
    destroy() {
      parts.form.removeEventListener('submit', onSubmit);
      parts.next.removeEventListener('click', onNext);
      parts.restart.removeEventListener('click', onRestart);
      parts.root.removeEventListener('keydown', onKeyDown);
      el.replaceChildren();
    },
  };
}
