// Where a score comes from: for the active cell (i, j) of Q K^T, the dot product q_i . k_j written
// out with the two tokens, its first few terms (entries of Q and K, as the engine gave them) and
// its total (the engine's score). It is added to the read-out, which the grid names as its
// description, so a screen reader hears it with the cell. Tokens are set as text, never markup.
import { formatWeight } from '../../views/heatmap/index.js';
import { leadingTerms } from './math.js';

/** How many terms of the dot product are written out before "…". */
const SHOWN_TERMS = 3;

/**
 * Adds the dot product behind score `index` to the read-out (nothing for -1).
 * @param {HTMLElement} readout the read-out, already showing the score
 * @param {string[]} tokens
 * @param {import('./math.js').Projected} result
 * @param {number} index row-major index into the scores, or -1
 */
export function addWhy(readout, tokens, result, index) {
  if (index < 0 || index >= result.n * result.n) return;
  const doc = readout.ownerDocument;
  const { n, dk } = result;
  const i = Math.floor(index / n);
  const j = index % n;
  const terms = leadingTerms(result, i, j, SHOWN_TERMS);
  // Each product stays on one line; the sum may wrap between them.
  const written = terms.flatMap(([a, b], c) => {
    const term = doc.createElement('span');
    term.className = 'qkv-why-term';
    term.textContent = `${factor(a)} \u00d7 ${factor(b)}`;
    return c === 0 ? [term] : [' + ', term];
  });
  const rest = dk > terms.length ? ` + \u2026 (${dk} terms)` : '';

  const why = doc.createElement('span');
  why.className = 'qkv-why';
  const pair = doc.createElement('span');
  pair.className = 'qkv-why-pair';
  pair.append(
    vector(doc, 'q', i),
    ' ',
    quotedToken(doc, tokens[i]),
    ' \u00b7 ',
    vector(doc, 'k', j),
    ' ',
    quotedToken(doc, tokens[j]),
  );
  const total = doc.createElement('strong');
  total.className = 'qkv-why-total';
  total.textContent = formatWeight(result.scores[index]).replace('-', '\u2212');
  why.append(pair, ' = ', ...written, `${rest} = `, total);
  readout.append(' ', why);
}

/**
 * q<sub>3</sub>: a query or key vector, numbered from 1 as the rows are.
 * @param {Document} doc
 * @param {string} name
 * @param {number} row
 */
function vector(doc, name, row) {
  const v = doc.createElement('var');
  v.textContent = name;
  const sub = doc.createElement('sub');
  sub.textContent = String(row + 1);
  const out = doc.createElement('span');
  out.className = 'qkv-why-vector';
  out.append(v, sub);
  return out;
}

/**
 * “token”, isolated so that right-to-left text does not reorder the sum around it.
 * @param {Document} doc
 * @param {string} token
 */
function quotedToken(doc, token) {
  const bdi = doc.createElement('bdi');
  bdi.textContent = token;
  const out = doc.createElement('span');
  out.append('\u201c', bdi, '\u201d');
  return out;
}

/**
 * One factor of a term: two decimals, negatives in brackets with a true minus sign.
 * @param {number} value
 * @returns {string}
 */
function factor(value) {
  const text = Math.abs(value).toFixed(2);
  return value < 0 && text !== '0.00' ? `(\u2212${text})` : text;
}
