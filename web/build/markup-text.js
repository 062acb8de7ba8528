// Text written into the markup the build emits (the SCORM manifest's XML, the offline file's
// HTML): the characters markup gives a meaning, written as references.

/**
 * @param {unknown} text
 * @returns {string} the text with &, <, > and " written as references, safe in an element's text
 *   and in a double-quoted attribute
 */
export function markupText(text) {
  return String(text)
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');
}
