// What the knowledge check hands back when the learner checks an answer: its state (the one way
// back from a widget, props.onState) counts the answers given and holds the last one, so that the
// page around it (the deck's LMS reporting, web/src/deck/lms.js) can pass each on without the quiz
// knowing who listens, or whether anyone does.

/**
 * One answer, as the state holds it.
 * @typedef {{ id: string, choice: number, correctChoice: number, correct: boolean,
 *   choices: number, right: number, total: number }} AnswerDetail
 *   id: the quiz item's id; choice, correctChoice: indices into its choices; right: the attempt's
 *   right answers so far; total: how many questions the quiz has
 */

/**
 * The answer just given to `current`, the question `session` shows.
 * @param {import('./session.js').Session} session
 * @param {import('./session.js').Current} current with its result
 * @returns {AnswerDetail | null} null if it has no answer
 */
export function answerDetail(session, current) {
  const { result } = current;
  if (!result) return null;
  return {
    id: current.id,
    choice: result.choiceIndex,
    correctChoice: result.correctIndex,
    correct: result.correct,
    choices: current.choicesHtml.length,
    right: session.score.right,
    total: session.total,
  };
}

/**
 * Counts one more answer into a check's state, in place.
 * @param {Record<string, unknown>} state the widget's state
 * @param {AnswerDetail} answer
 */
export function addAnswer(state, answer) {
  state.answered = (Number(state.answered) || 0) + 1;
  state.answer = answer;
}

/**
 * Passes on, once each, the answers a check's states announce: the callback gets a state's
 * answer when its count has gone past every count seen before.
 * @param {(answer: AnswerDetail) => void} onAnswer
 * @returns {(state: Record<string, unknown>) => void}
 */
export function answerFollower(onAnswer) {
  let seen = 0;
  return (state) => {
    const answered = Number(state.answered) || 0;
    if (answered <= seen || !state.answer || typeof state.answer !== 'object') return;
    seen = answered;
    onAnswer(/** @type {AnswerDetail} */ (state.answer));
  };
}
