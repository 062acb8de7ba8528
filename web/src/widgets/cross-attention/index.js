// The `cross-attention` widget: two sentences and a mode. In cross mode the queries come from
// sentence A's word vectors and the keys and values from sentence B's, and the weights form an
// n_q x n_k grid; the same pair can also be shown as self-attention of either sentence (a square).
// Optional seeded projections W_Q, W_K, W_V. Props: { sentenceA, sentenceB, mode, project, seed,
// state }; state keeps both sentences, the mode, the projection switch and the seed across mounts.
import { formWidget } from '../shared/form-widget.js';
import { setLine } from '../shared/line.js';
import { clearFigure, drawFigure } from './figures.js';
import { buildCrossParts, checkMode, checkedMode } from './markup.js';
import { MAX_TOKENS, crossAttention, modeOf, sidesOf } from './math.js';
import { SEED_PROBLEM, parseSeed } from '../shared/seed.js';
import { cutText, promptText } from './text.js';
import { registerWidget } from '../shared/registry.js';
import { SETTINGS } from './link-settings.js';
import { sentenceTokens } from '../shared/token-matrix.js';
import './style.css';
import './deck.css';

const DEFAULTS = {
  sentenceA: 'The cat sat on the mat',
  sentenceB: 'A kitten rested on the rug',
  seed: 1,
};

/**
 * @typedef {{ a: string, b: string, mode: import('./math.js').Mode,
 *   project: boolean, seed: string }} CrossState
 */

/** @returns {import('../shared/registry.js').Widget} */
function createCrossAttention() {
  return formWidget({
    build: buildCrossParts,
    fill(parts, props, state) {
      parts.a.value = state.a ?? props.sentenceA ?? DEFAULTS.sentenceA;
      parts.b.value = state.b ?? props.sentenceB ?? DEFAULTS.sentenceB;
      checkMode(parts, modeOf(state.mode ?? props.mode));
      parts.project.checked = Boolean(state.project ?? props.project);
      parts.seed.value = String(state.seed ?? props.seed ?? DEFAULTS.seed);
    },
    read(parts, state) {
      state.a = parts.a.value;
      state.b = parts.b.value;
      state.mode = modeOf(checkedMode(parts));
      state.project = parts.project.checked;
      state.seed = parts.seed.value;
      parts.seed.disabled = !state.project;
    },
    draw: (parts, engine, state) => draw(parts, engine, /** @type {CrossState} */ (state)),
    clear: clearFigure,
  });
}

/**
 * Reads the inputs and redraws, or says why there is nothing to draw.
 * @param {import('./markup.js').CrossParts} parts
 * @param {object} engine the facade, word vectors loaded
 * @param {CrossState} state
 */
function draw(parts, engine, state) {
  const all = { a: sentenceTokens(engine, state.a), b: sentenceTokens(engine, state.b) };
  const sides = sidesOf(state.mode);
  const { queries, keys } = sides;
  const used = [...new Set([queries, keys])];
  const prompt = promptText(sides, { a: all.a.length, b: all.b.length });
  const cuts = used.map((side) => cutText(side, all[side].length, MAX_TOKENS)).filter(Boolean);
  setLine(parts.status, prompt || cuts.join(' '));
  const seed = state.project ? parseSeed(state.seed) : null;
  let problem = '';
  let result = null;
  if (state.project && seed === null) {
    problem = SEED_PROBLEM;
  } else if (!prompt) {
    try {
      result = crossAttention(
        engine,
        all[queries].slice(0, MAX_TOKENS),
        all[keys].slice(0, MAX_TOKENS),
        seed,
      );
    } catch (error) {
      console.error(error);
      problem = `The weights could not be computed: ${error.message}`;
    }
  }
  setLine(parts.error, problem);
  if (!result) {
    clearFigure(parts);
    return;
  }
  const shown = (side) => all[side].slice(0, MAX_TOKENS);
  drawFigure(parts, state.mode, sides, shown(queries), shown(keys), result);
}

registerWidget('cross-attention', createCrossAttention, { vectors: true, settings: SETTINGS });
