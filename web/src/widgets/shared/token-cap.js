// The cap a figure puts on the learner's sentence, and the status line that says where it cut: one
// wording for every figure that shows only the first tokens of a long sentence.

/**
 * @param {number} count how many tokens the sentence has
 * @param {number} max how many the figure shows
 * @returns {string} what the status line says of the cut, or '' when every token is shown
 */
export function capNotice(count, max) {
  return count > max ? `Showing the first ${max} of ${count} tokens.` : '';
}

/**
 * The status line of a figure over one sentence: the prompt while it is empty, else the cut.
 * @param {number} count how many tokens the sentence has
 * @param {number} max how many the figure shows
 * @param {string} prompt what to say while the sentence is empty
 * @returns {string}
 */
export function tokenStatus(count, max, prompt) {
  return count === 0 ? prompt : capNotice(count, max);
}
