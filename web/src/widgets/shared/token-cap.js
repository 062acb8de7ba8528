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

/**
 * The sentence box as markup: its label, a two-line text box named `sentence` (no spelling marks,
 * no capitals or completion from a phone's keyboard) and the help it is described by, which the
 * deck hides and the page shows. The box is drawn as a sentence box (`widget-sentence`,
 * widgets.css); the further classes are the widget's own, to style and find them by.
 * @param {string} id the widget instance's id; the box's is `${id}-sentence`, its help's
 *   `${id}-sentence-help`
 * @param {{ label: string, input: string, help: string, labelClass?: string, helpClass?: string,
 *   language?: string }} field the label's text, the box's further classes, the help (markup), the
 *   label's and the help's further classes, and the language of what is typed when the figure
 *   expects one
 * @returns {string}
 */
export function sentenceFieldHtml(id, field) {
  const { label, input, help, labelClass = '', helpClass = '', language } = field;
  const also = (classes) => (classes ? ` ${classes}` : '');
  const lang = language ? ` lang="${language}" dir="auto"` : '';
  return `<label class="field-label${also(labelClass)}" for="${id}-sentence">${label}</label>
<textarea id="${id}-sentence" class="widget-sentence ${input}" name="sentence" rows="2"${lang}
  spellcheck="false" autocomplete="off" autocapitalize="off"
  aria-describedby="${id}-sentence-help"></textarea>
<p id="${id}-sentence-help" class="help${also(helpClass)} deck-hidden">${help}</p>`;
}
