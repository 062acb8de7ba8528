// The event a quiz view's host sends when the learner checks an answer: it bubbles from the
// widget's element, so the page around it (the deck's LMS reporting, web/src/deck/lms.js) can
// listen without the quiz knowing who listens, or whether anyone does.

/**
 * What the event carries.
 * @typedef {{ id: string, choice: number, correctChoice: number, correct: boolean,
 *   choices: number, right: number, total: number }} AnswerDetail
 *   id: the quiz item's id; choice, correctChoice: indices into its choices; right: the attempt's
 *   right answers so far; total: how many questions the quiz has
 */

/** The event's name. */
export const ANSWER_EVENT = 'quiz-answer';

/**
 * The event for the answer just given to `current`, the question `session` shows.
 * @param {import('./session.js').Session} session
 * @param {import('./session.js').Current} current with its result
 * @returns {CustomEvent<AnswerDetail> | null} null if it has no answer
 */
export function answerEvent(session, current) {
  const { result } = current;
  if (!result) return null;
  return new CustomEvent(ANSWER_EVENT, {
    bubbles: true,
    detail: {
      id: current.id,
      choice: result.choiceIndex,
      correctChoice: result.correctIndex,
      correct: result.correct,
      choices: current.choicesHtml.length,
      right: session.score.right,
      total: session.total,
    },
  });
}
