// Live question: a decoder state's alignment scores against 4 or 5 encoder positions; which
// position gets the largest attention weight, and about how large is it? The weights come from
// the engine's softmax.
import { escapeHtml, formatNumber, pick, randomInt, shuffle, tableHtml } from './shared.js';

// Scores are tenths in [-2, 3]. A draw is kept when the top two scores are at least MIN_GAP apart
// (so "largest" is clear) and the top weight lies in [LOW, HIGH] (neither near-uniform nor
// near-certain, so "about how large" is a real question).
const MIN_GAP = 0.3;
const LOW = 0.35;
const HIGH = 0.8;
const FALLBACK = [2, 0.5, 1.2, -0.3];

/**
 * @param {import('../../engine/index.js').Engine} engine
 * @param {() => number} random
 * @returns {{ promptHtml: string, choicesHtml: string[], answer: number, explanationHtml: string }}
 */
export function generate(engine, random) {
  const { scores, weights } = drawScores(engine, random);
  const n = scores.length;
  const order = [...weights.keys()].sort((a, b) => weights[b] - weights[a]);
  const [top, second] = order;
  const size = weights[top];
  const wrongSize = pick(
    random,
    [1 / n, Math.min(0.98, size * 1.6)].filter((w) => Math.abs(w - size) >= 0.12),
  );
  const options = shuffle(random, [
    { position: top, weight: size },
    { position: top, weight: wrongSize },
    { position: second, weight: size },
    { position: second, weight: wrongSize },
  ]);
  const choice = ({ position, weight }) =>
    `Position ${position + 1}, about ${formatNumber(weight, 2)}`;
  return {
    promptHtml:
      `<p>A decoder state is compared with ${n} encoder states and gets these alignment ` +
      'scores:</p>' +
      tableHtml({
        rows: [
          ['position <var>j</var>', ...scores.map((_, j) => String(j + 1))],
          ['score <var>e<sub>j</sub></var>', ...scores.map((e) => formatNumber(e, 1))],
        ],
      }) +
      '<p>After the softmax, which position gets the largest attention weight, and about how ' +
      'large is that weight?</p>',
    choicesHtml: options.map((option) => escapeHtml(choice(option))),
    answer: options.findIndex((o) => o.position === top && o.weight === size),
    explanationHtml: explain(scores, weights, top, second),
  };
}

/**
 * Draws scores until they make a fair question, with the engine's softmax of them.
 * @param {import('../../engine/index.js').Engine} engine
 * @param {() => number} random
 * @returns {{ scores: number[], weights: Float32Array }}
 */
function drawScores(engine, random) {
  for (let tries = 0; tries < 100; tries += 1) {
    const n = randomInt(random, 4, 5);
    const scores = Array.from({ length: n }, () => randomInt(random, -20, 30) / 10);
    const sorted = [...scores].sort((a, b) => b - a);
    if (sorted[0] - sorted[1] < MIN_GAP - 1e-9) continue;
    const weights = engine.softmax(scores, 1, n);
    const largest = Math.max(...weights);
    if (largest >= LOW && largest <= HIGH) return { scores, weights };
  }
  return { scores: FALLBACK, weights: engine.softmax(FALLBACK, 1, FALLBACK.length) };
}

/**
 * The engine's weights, and why the top score wins by the factor it does.
 * @param {number[]} scores
 * @param {Float32Array} weights
 * @param {number} top
 * @param {number} second
 * @returns {string}
 */
function explain(scores, weights, top, second) {
  const total = weights.reduce((a, b) => a + b, 0);
  const mark = (j, text) => (j === top ? `<strong>${text}</strong>` : text);
  const gap = scores[top] - scores[second];
  return (
    `<p>The engine\u2019s softmax turns the scores into these weights (they sum to ` +
    `${formatNumber(total, 3)}):</p>` +
    tableHtml({
      head: [
        'position <var>j</var>',
        'score <var>e<sub>j</sub></var>',
        'weight <var>\u03b1<sub>j</sub></var>',
      ],
      rows: scores.map((e, j) => [
        mark(j, String(j + 1)),
        mark(j, formatNumber(e, 1)),
        mark(j, formatNumber(weights[j], 3)),
      ]),
    }) +
    `<p>Position ${top + 1} has the largest score, so it gets the largest weight, ` +
    `${formatNumber(weights[top], 3)}: the softmax keeps the order of the scores. It also ` +
    `stretches their gaps: position ${top + 1} scores ${formatNumber(gap, 1)} above position ` +
    `${second + 1}, so its weight is ${formatNumber(weights[top] / weights[second], 2)} times as ` +
    `large (${formatNumber(weights[top], 3)} / ${formatNumber(weights[second], 3)} = ` +
    `<var>e</var><sup>${formatNumber(gap, 1)}</sup>).</p>`
  );
}
