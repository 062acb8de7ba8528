// Draws the self-attention-pair widget: for each sentence, the followed word's row of weights as
// bars (tokens outside the vocabulary marked with *), and a small table of how alike the followed
// words are in the two sentences, before attention (input vectors) and after it (outputs).
import { clearBars, renderBars } from '../../views/charts/bars.js';
import { formatWeight } from '../../views/heatmap/index.js';
import { cosineSimilarity, rowOf, sameVector } from './math.js';
import { UNKNOWN_MARK, markUnknown } from '../shared/unknown-text.js';

/**
 * @param {string} word
 * @returns {string} the word in curly quotes
 */
const quote = (word) => `\u201c${word}\u201d`;

/**
 * A weight as bars write it: three decimals without the leading zero ('.058'), which fits over a
 * narrow bar; exactly 0 as '0'.
 * @param {number} value
 * @returns {string}
 */
export function barText(value) {
  return formatWeight(value).replace(/^0\./, '.');
}

/**
 * Draws one sentence's bars: the weights of the followed token over every token.
 * @param {import('./markup.js').SideParts} side
 * @param {string[]} tokens (n)
 * @param {import('./math.js').SideResult} result
 * @param {number} i the followed token
 */
export function drawSide(side, tokens, result, i) {
  const { n, weights, unknown } = result;
  const word = tokens[i];
  side.figure.hidden = false;
  side.title.textContent = `How much ${quote(word)} attends to each token of ${side.name}`;
  renderBars(side.bars, {
    caption:
      `Sentence ${side.name}: the attention weights of ${quote(word)} (token ${i + 1} of ${n}) ` +
      'over every token of the sentence, its row of the self-attention grid; they add up to 1.',
    labels: tokens.map((token, k) => markUnknown(token, unknown[k])),
    values: Array.from(rowOf(weights, i, n)),
    labelName: 'key',
    valueName: 'weight',
    domain: [0, 1],
    format: barText,
    height: 112,
  });
  const missing = [...new Set(tokens.filter((_, k) => unknown[k]))];
  side.unknown.hidden = missing.length === 0;
  side.unknown.textContent =
    missing.length === 0
      ? ''
      : `Marked ${UNKNOWN_MARK}, not in the vocabulary: ${missing.map(quote).join(', ')}. ` +
        `${missing.length === 1 ? 'It gets' : 'Each gets'} a stand-in vector with no meaning.`;
}

/**
 * Empties one sentence's figure.
 * @param {import('./markup.js').SideParts} side
 */
export function clearSide(side) {
  side.figure.hidden = true;
  clearBars(side.bars);
}

/**
 * @param {number} cos
 * @returns {string} the angle between two vectors with this cosine, e.g. '6.2°'
 */
function angleText(cos) {
  const degrees = (Math.acos(cos) * 180) / Math.PI;
  return `${degrees < 0.05 ? '0' : degrees.toFixed(1)}\u00b0`;
}

/**
 * @param {Document} doc
 * @param {string} key
 * @param {string} head
 * @param {number} cos
 */
function compareRow(doc, key, head, cos) {
  const tr = doc.createElement('tr');
  tr.dataset.key = key;
  const th = doc.createElement('th');
  th.scope = 'row';
  th.textContent = head;
  const value = doc.createElement('td');
  value.dataset.value = String(cos);
  value.textContent = Number.isNaN(cos) ? 'n/a' : cos.toFixed(3);
  const angle = doc.createElement('td');
  angle.textContent = Number.isNaN(cos) ? 'n/a' : angleText(cos);
  tr.append(th, value, angle);
  return tr;
}

/**
 * How alike the followed tokens are in the two sentences: the cosine similarity (and angle) of
 * their input vectors and of their outputs, both from the engine's results.
 * @param {HTMLElement} box
 * @param {{ tokens: string[], result: import('./math.js').SideResult,
 *   index: number }[]} sides both sentences, drawn
 */
export function drawCompare(box, sides) {
  const doc = box.ownerDocument;
  const [a, b] = sides;
  const d = a.result.d;
  const [wordA, wordB] = [a.tokens[a.index], b.tokens[b.index]];
  const inA = rowOf(a.result.x, a.index, d);
  const inB = rowOf(b.result.x, b.index, d);
  const inputCos = cosineSimilarity(inA, inB);
  const outputCos = cosineSimilarity(
    rowOf(a.result.output, a.index, d),
    rowOf(b.result.output, b.index, d),
  );
  const same = sameVector(inA, inB);
  const who =
    wordA === wordB
      ? `${quote(wordA)} in A and in B`
      : `${quote(wordA)} in A, ${quote(wordB)} in B`;

  const table = doc.createElement('table');
  table.className = 'widget-table sap-compare-table';
  const caption = doc.createElement('caption');
  caption.className = 'deck-hidden';
  caption.textContent = `${who}: how alike (cosine similarity, 1 = same direction)`;
  const head = doc.createElement('thead');
  head.innerHTML = '<tr><td></td><th scope="col">cosine</th><th scope="col">angle</th></tr>';
  const body = doc.createElement('tbody');
  body.append(
    compareRow(doc, 'input', same ? 'input vectors (identical)' : 'input vectors', inputCos),
    compareRow(doc, 'output', 'outputs after attention', outputCos),
  );
  table.append(caption, head, body);

  const verdict = doc.createElement('p');
  verdict.className = 'sap-verdict';
  verdict.textContent = !same
    ? 'Two different vectors go in, so they differ before attention too.'
    : sameVector(rowOf(a.result.output, a.index, d), rowOf(b.result.output, b.index, d))
      ? 'The same vector goes in and, with the same context, the same output comes out.'
      : 'The same vector goes in; each sentence\u2019s context moves it somewhere else.';
  box.replaceChildren(table, verdict);
}

/**
 * Says why there is nothing to compare.
 * @param {HTMLElement} box
 */
export function clearCompare(box) {
  const line = box.ownerDocument.createElement('p');
  line.className = 'sap-verdict';
  line.textContent = 'Give both sentences a word to compare the two outputs.';
  box.replaceChildren(line);
}
