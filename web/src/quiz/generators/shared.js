// Small tools the live questions share: HTML escaping, number formatting and draws from an
// injected random source (a () => number in [0, 1), so tests can make every draw repeatable).

const ENTITIES = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/**
 * Makes text safe to place in HTML, as element content or inside a quoted attribute.
 * @param {unknown} text
 * @returns {string}
 */
export function escapeHtml(text) {
  return String(text).replace(/[&<>"']/g, (ch) => ENTITIES[ch]);
}

const formats = new Map();

/**
 * A number with a fixed count of decimals, thousands separated by commas and a true minus sign.
 * @param {number} value
 * @param {number} [digits]
 * @returns {string}
 */
export function formatNumber(value, digits = 0) {
  if (!formats.has(digits)) {
    const options = { minimumFractionDigits: digits, maximumFractionDigits: digits };
    formats.set(digits, new Intl.NumberFormat('en-US', options));
  }
  const text = formats.get(digits).format(value);
  return text === '-0' || /^-0\.0*$/.test(text) ? text.slice(1) : text.replace('-', '\u2212');
}

/**
 * A whole number from `low` to `high`, both included.
 * @param {() => number} random
 * @param {number} low
 * @param {number} high
 * @returns {number}
 */
export function randomInt(random, low, high) {
  return Math.min(high, low + Math.floor(random() * (high - low + 1)));
}

/**
 * One entry of `list`.
 * @template T
 * @param {() => number} random
 * @param {readonly T[]} list
 * @returns {T}
 */
export function pick(random, list) {
  return list[randomInt(random, 0, list.length - 1)];
}

/**
 * A shuffled copy of `list` (Fisher-Yates).
 * @template T
 * @param {() => number} random
 * @param {readonly T[]} list
 * @returns {T[]}
 */
export function shuffle(random, list) {
  const copy = [...list];
  for (let i = copy.length - 1; i > 0; i -= 1) {
    const j = randomInt(random, 0, i);
    [copy[i], copy[j]] = [copy[j], copy[i]];
  }
  return copy;
}

/**
 * A seed for the engine's generators: a whole number from 0 to 2^32 - 1.
 * @param {() => number} random
 * @returns {number}
 */
export function drawSeed(random) {
  return randomInt(random, 0, 0xffffffff);
}

/**
 * A one-line HTML table.
 * @param {{ caption?: string, head?: string[], rows: string[][], className?: string }} table
 *   cells are HTML; in each row the first cell is a row header
 * @returns {string}
 */
export function tableHtml({ caption, head, rows, className = 'quiz-table' }) {
  const headRow = head
    ? `<thead><tr>${head.map((cell) => `<th scope="col">${cell}</th>`).join('')}</tr></thead>`
    : '';
  const body = rows
    .map(([first, ...rest]) => {
      const cells = rest.map((cell) => `<td>${cell}</td>`).join('');
      return `<tr><th scope="row">${first}</th>${cells}</tr>`;
    })
    .join('');
  const captionHtml = caption ? `<caption>${caption}</caption>` : '';
  return `<div class="quiz-scroll"><table class="${className}">${captionHtml}${headRow}<tbody>${body}</tbody></table></div>`;
}

/**
 * The index of the largest entry (the first of equals).
 * @param {ArrayLike<number>} values
 * @returns {number}
 */
export function largestAt(values) {
  let best = 0;
  for (let j = 1; j < values.length; j++) if (values[j] > values[best]) best = j;
  return best;
}
