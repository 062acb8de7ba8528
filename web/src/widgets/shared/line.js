// One line of text under a figure (a status, an alert, a note): shown with its text, hidden when
// there is none. Every widget shows its messages through it.

/**
 * Shows a line of text in a status or alert element, or hides it when the text is empty.
 * @param {HTMLElement} line
 * @param {string} text
 */
export function setLine(line, text) {
  line.textContent = text;
  line.hidden = text === '';
}
