// The language-model experiment's drawings, from a run's history (web/src/train/history.js): each
// head's score over the steps (a line chart), the probe (a
// held-out phrase said twice) through every head as a grid of small heatmaps, and the reading line
// naming the heads that have found a job. The names of the kinds and the thresholds are the
// trained model's (docs/language-model.md, "Measuring the heads").
import { clearLines, renderLines } from '../../views/charts/lines.js';
import { clearHeatmap, renderHeatmaps } from '../../views/heatmap/index.js';
import {
  INDUCTION_THRESHOLD,
  PREVIOUS_TOKEN_THRESHOLD,
  headName,
  kindHead,
} from '../../text/heads.js';

/** @typedef {import('./markup.js').TrainingParts} Parts */
/** @typedef {import('../../train/history.js').History} History */
/** @typedef {import('../../train/lm-run.js').HeadsEvaluation} HeadsEvaluation */
/** @typedef {import('../../engine/index.js').MeasuredHead} MeasuredHead */

const count = (/** @type {number} */ n) => n.toLocaleString('en-US');
const score = (/** @type {number} */ value) => value.toFixed(2);

/**
 * The head-score evaluations of a language-model run's history.
 * @param {History} history
 * @returns {HeadsEvaluation[]}
 */
export function headEvaluations(history) {
  return /** @type {HeadsEvaluation[]} */ (
    history.evaluations.filter((evaluation) => 'heads' in evaluation)
  );
}

/**
 * The score of each head's job at every evaluation so far, in one chart: the previous-token score
 * of the heads of layer 1 (the first half of the circuit) and the induction score of the heads of
 * the layers above (which can read what a layer-1 head found). The tiles state both scores of
 * every head.
 * @param {Parts} parts
 * @param {number} height of the chart
 * @param {History} history
 */
export function drawHeadScores(parts, height, history) {
  if (!parts.scores) return;
  const evaluations = headEvaluations(history);
  if (evaluations.length === 0) {
    clearLines(parts.scores);
    return;
  }
  const x = evaluations.map((evaluation) => evaluation.step);
  const series = evaluations[0].heads.map((head, i) => {
    const key = head.layer === 0 ? 'previousToken' : 'induction';
    return {
      name: `head ${headName(head)}`,
      values: evaluations.map((evaluation) => evaluation.heads[i][key]),
    };
  });
  renderLines(parts.scores, {
    caption:
      `Every head's score over training, up to step ${count(x[x.length - 1])}: for the heads ` +
      `of layer 1 the previous-token score (the mean weight on the word just before, on held-out ` +
      `text; a previous-token head from ${score(PREVIOUS_TOKEN_THRESHOLD)}), for the heads of ` +
      `layer 2 the induction score (on random words said twice, the mean weight on the word ` +
      `after the same word in the first copy; an induction head from ` +
      `${score(INDUCTION_THRESHOLD)})`,
    x,
    xLabel: 'step',
    yLabel: 'score',
    series,
    yDomain: [0, 1],
    format: score,
    height,
  });
}

/**
 * The probe through every head: a small heatmap per head, in a row per layer, each titled with
 * the head's name and what its latest scores make it.
 * @param {Parts} parts
 * @param {History} history
 */
export function drawProbe(parts, history) {
  if (!parts.map) return;
  const map = /** @type {import('../../train/lm-run.js').ProbeMap | null} */ (
    history.map && 'words' in history.map ? history.map : null
  );
  const evaluations = headEvaluations(history);
  const latest = evaluations[evaluations.length - 1];
  if (!map || !latest) {
    clearHeatmap(parts.map);
    parts.map.replaceChildren();
    if (parts.sample) parts.sample.textContent = '';
    return;
  }
  const n = map.words.length;
  const labels = map.words.map((word) => word ?? '(unknown)');
  const unknown = map.words.map((word) => word === null);
  const masked = Array.from({ length: n * n }, (_, k) => k % n > Math.floor(k / n));
  const tiles = tilesFor(parts.map, map.layers * map.heads, map.layers * map.heads);
  renderHeatmaps(
    tiles.map((tile, i) => {
      const head = latest.heads[i];
      const name = tile.querySelector('.tr-head-name');
      const text = `Head ${headName(head)}\n${kindHead(head.kind)}`;
      if (name && name.textContent !== text) name.textContent = text;
      tile.dataset.kind = head.kind;
      return {
        container: /** @type {HTMLElement} */ (tile.querySelector('.tr-head-map')),
        data: {
          rowLabels: labels,
          colLabels: labels,
          values: map.weights.subarray(i * n * n, (i + 1) * n * n),
          masked,
          unknownRows: unknown,
          unknownCols: unknown,
          rowName: 'query',
          colName: 'key',
          title: `Head ${headName(head)}`,
          caption:
            `Head ${headName(head)} after ${count(map.step)} steps (${kindHead(head.kind)}; ` +
            `previous-token score ${score(head.previousToken)}, induction score ` +
            `${score(head.induction)}): its attention weights on a held-out phrase said twice, ` +
            `${n} by ${n}`,
          compact: true,
          labels: false,
          rowHeight: 5,
        },
        options: { legend: false, table: false, readout: parts.headsReadout ?? undefined },
      };
    }),
  );
  if (parts.sample) {
    const half = labels.slice(0, n / 2).join(' ');
    parts.sample.textContent =
      `The phrase, twice: \u201c${half}\u201d. A previous-token head draws a line just under ` +
      'the diagonal; an induction head a second line, from the second copy back to the word ' +
      'after the same word in the first.';
  }
}

/**
 * The tiles of the grid (made again only when their number changes).
 * @param {HTMLElement} grid
 * @param {number} count
 * @param {number} perLayer
 * @returns {HTMLElement[]}
 */
function tilesFor(grid, count, perLayer) {
  const existing = /** @type {HTMLElement[]} */ ([...grid.querySelectorAll('.tr-head')]);
  if (existing.length === count) return existing;
  grid.style.setProperty('--tr-head-cols', String(perLayer));
  const doc = grid.ownerDocument;
  const tiles = Array.from({ length: count }, () => {
    const tile = doc.createElement('div');
    tile.className = 'tr-head';
    const name = doc.createElement('p');
    name.className = 'tr-head-name';
    const map = doc.createElement('div');
    map.className = 'tr-head-map';
    tile.append(name, map);
    return tile;
  });
  grid.replaceChildren(...tiles);
  return tiles;
}

/**
 * The reading line: which heads have found a job at the latest evaluation, and since when; for a
 * job no head has yet, the head closest to it.
 * @param {HeadsEvaluation[]} evaluations in order
 * @returns {string}
 */
export function headsReading(evaluations) {
  const latest = evaluations[evaluations.length - 1];
  const since = (/** @type {number} */ i, /** @type {string} */ kind) => {
    let first = evaluations.length - 1;
    while (first > 0 && evaluations[first - 1].heads[i].kind === kind) first -= 1;
    return evaluations[first].step;
  };
  const jobs = /** @type {const} */ ([
    ['induction', 'induction', 'induction'],
    ['previous-token', 'previousToken', 'previous-token'],
  ]);
  const parts = jobs.map(([kind, key, words]) => {
    const holders = latest.heads
      .map((head, i) => ({ head, i }))
      .filter(({ head }) => head.kind === kind)
      .map(
        ({ head, i }) =>
          `${headName(head)} (${score(head[key])}, from step ${count(since(i, kind))})`,
      );
    if (holders.length > 0) {
      const list =
        holders.length > 1
          ? `${holders.slice(0, -1).join(', ')} and ${holders.at(-1)}`
          : holders[0];
      return `${words} head${holders.length > 1 ? 's' : ''} ${list}`;
    }
    const best = latest.heads.reduce((a, b) => (b[key] > a[key] ? b : a));
    return `no ${words} head yet (closest: ${headName(best)} at ${score(best[key])})`;
  });
  return `After ${count(latest.step)} steps: ${parts.join('; ')}.`;
}

/**
 * Empties the head drawings.
 * @param {Parts} parts
 */
export function clearHeadFigures(parts) {
  if (parts.scores) clearLines(parts.scores);
}
