// One line of text under a figure (a status, an alert, a note): shown with its text, hidden when
// there is none. Every widget shows its messages through it.

/**
 * Shows a line of text in a status, alert or note element, or hides it when the text is empty.
 * The same text again changes nothing: a live region would announce it again, and the page would
 * lay out again for nothing.
 * @param {HTMLElement} line
 * @param {string} text
 */
export function setLine(line, text) {
  if (line.textContent !== text) line.textContent = text;
  line.hidden = text === '';
}

/**
 * A figure's status line and alert line as markup, both hidden until setLine gives them text: a
 * `status` paragraph (role status) and an `error` one (role alert), with the widget's classes
 * `${prefix}-status` and `${prefix}-error` to find them by.
 * @param {string} prefix the widget's class prefix, e.g. 'pos'
 * @param {{ busy?: boolean }} [options] busy: the status line shows the spinner (base.css)
 * @returns {string}
 */
export function messageLinesHtml(prefix, { busy = false } = {}) {
  return `<p class="status${busy ? ' busy' : ''} ${prefix}-status" role="status" hidden></p>
<p class="error ${prefix}-error" role="alert" hidden></p>`;
}
