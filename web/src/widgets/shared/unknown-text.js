// The line under a figure that names the tokens outside the vocabulary of word vectors, shared
// by every widget that embeds the learner's words.

/** Put after a label (a bar's, a column's) whose token the vocabulary does not hold. */
export const UNKNOWN_MARK = '*';

/**
 * A figure's label for a token: the token, marked when the vocabulary does not hold it.
 * @param {string} token
 * @param {boolean} unknown
 * @returns {string}
 */
export function markUnknown(token, unknown) {
  return unknown ? `${token}${UNKNOWN_MARK}` : token;
}

/** The most unknown tokens named in the line under the figure. */
const MAX_LISTED = 8;

/**
 * The line under the figure that names the tokens outside the vocabulary, or '' for none.
 * @param {string[]} tokens
 * @param {boolean[]} unknown
 * @returns {string}
 */
export function unknownText(tokens, unknown) {
  const words = [...new Set(tokens.filter((_, i) => unknown[i]))];
  if (words.length === 0) return '';
  const shown = words.slice(0, MAX_LISTED).map((word) => `\u201c${word}\u201d`);
  const more = words.length - shown.length;
  const list = more > 0 ? `${shown.join(', ')} and ${more} more` : shown.join(', ');
  const each = words.length === 1 ? 'It gets' : 'Each gets';
  return (
    `Not in the vocabulary (italic, dotted underline): ${list}. ` +
    `${each} a stand-in vector of its own, the same every time but with no meaning.`
  );
}
