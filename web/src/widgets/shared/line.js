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
