// Live question: in causal self-attention over a short sentence of n tokens, how many weights does
// the mask set to exactly 0? The answer is counted in the engine's weights, on seeded vectors.
import { drawSeed, escapeHtml, formatNumber, pick, tableHtml } from './shared.js';

/** Short sentences, one token per space-separated piece (4 to 6 tokens). */
export const SENTENCES = [
  'the cat sat on the mat',
  'she read the letter twice',
  'rain fell all night',
  'it\u2019s never too late',
  'rock & roll never dies',
  'birds sing at dawn',
  'we built a small boat',
  'the sun came out',
];

/** Width of the seeded token vectors. */
const WIDTH = 8;

/**
 * @param {import('../../engine/index.js').Engine} engine
 * @param {() => number} random
 * @returns {{ promptHtml: string, choicesHtml: string[], answer: number, explanationHtml: string }}
 */
export function generate(engine, random) {
  const sentence = pick(random, SENTENCES);
  const tokens = sentence.split(' ');
  const n = tokens.length;
  const seed = drawSeed(random);
  const x = engine.unitNormal(n, WIDTH, seed);
  const size = { nq: n, nk: n, dk: WIDTH, dv: WIDTH };
  const { weights } = engine.attention({ q: x, k: x, v: x, ...size, causal: true, trace: false });
  const rowZeros = Array.from({ length: n }, (_, i) =>
    weights.subarray(i * n, (i + 1) * n).reduce((count, w) => count + (w === 0 ? 1 : 0), 0),
  );
  const zeros = rowZeros.reduce((a, b) => a + b, 0);
  const values = [zeros];
  for (const other of [(n * (n + 1)) / 2, n * n, n, n * (n - 1), 0, 1]) {
    if (values.length < 4 && !values.includes(other)) values.push(other);
  }
  values.sort((a, b) => a - b);
  return {
    promptHtml:
      `<p>The sentence \u201c${escapeHtml(sentence)}\u201d has <var>n</var> = ${n} tokens. ` +
      `Self-attention over it has ${n} \u00d7 ${n} = ${n * n} weights.</p>` +
      '<p>With a causal mask, how many of those weights are exactly 0?</p>',
    choicesHtml: values.map((value) => formatNumber(value)),
    answer: values.indexOf(zeros),
    explanationHtml: explain(tokens, weights, rowZeros, seed),
  };
}

/**
 * The engine's causal weights, with the zeros counted row by row.
 * @param {string[]} tokens
 * @param {Float32Array} weights (n, n)
 * @param {number[]} rowZeros zeros in each row
 * @param {number} seed
 * @returns {string}
 */
function explain(tokens, weights, rowZeros, seed) {
  const n = tokens.length;
  const zeros = rowZeros.reduce((a, b) => a + b, 0);
  const labels = tokens.map(escapeHtml);
  const cell = (w) => (w === 0 ? '<span class="quiz-zero">0</span>' : formatNumber(w, 2));
  const rows = labels.map((label, i) => [
    label,
    ...Array.from(weights.subarray(i * n, (i + 1) * n), cell),
  ]);
  return (
    `<p>The engine ran causal self-attention on the sentence (token vectors of width ${WIDTH}, ` +
    `seed ${seed}) and <strong>${zeros}</strong> of its ${n * n} weights came out exactly 0. ` +
    'Token <var>i</var> may look only at itself and the tokens before it, so row <var>i</var> ' +
    `loses the tokens after it: ${rowZeros.join(' + ')} = ${zeros} = ` +
    `<var>n</var>(<var>n</var> \u2212 1) / 2. Every row still sums to 1.</p>` +
    tableHtml({
      caption: 'Causal weights (rows: queries, columns: keys; a masked weight shows as 0)',
      head: ['', ...labels],
      rows,
    })
  );
}
