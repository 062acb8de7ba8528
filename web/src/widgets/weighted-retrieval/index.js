// The `weighted-retrieval` widget: a decoder state against encoder states. The encoder states h_j
// are the word vectors of a short source sentence, the decoder state s the word vector of a query
// word. In one mode the dot, general and additive scores are computed side by side on the same
// input (each with its weights as bars, its scores and its context vector); in the other the
// learner sets each score e_j with a slider and watches the softmax share out the weight. Props:
// { sentence, query, seed, mode, state }; state keeps the sentence, query word, seed, mode and
// the hand-set scores across mounts.
import { setLine } from '../shared/line.js';
import { formWidget } from '../shared/form-widget.js';
import { registerWidget } from '../shared/registry.js';
import { MAX_TOKENS, MODES, SETTINGS } from './link-settings.js';
import { sentenceTokens } from '../shared/token-matrix.js';
import { clearFigures, drawCompare, drawDrag, drawQueryLine, drawUnknown } from './figures.js';
import { buildRetrievalParts } from './markup.js';
import { compareScores, dragScores, fitScores } from './math.js';
import { SEED_PROBLEM, parseSeed } from '../shared/seed.js';
import { SCORE_MAX, SCORE_MIN, clearSliders, showSliders, slidersFor } from './sliders.js';
import { capNotice } from '../shared/token-cap.js';
import './style.css';
import './deck.css';

const DEFAULTS = { sentence: 'The cat sat on the mat', query: 'kitten', seed: 1, mode: 'compare' };
const PROMPT = 'Type a short source sentence: each of its words becomes an encoder state.';
const PROMPT_QUERY = 'Type a query word: its vector is the decoder state that looks back.';
// Bar heights: a slide of the deck has less room than the article or a phone, and the drag mode
// more than the three figures side by side.
const BAR_HEIGHTS = { deck: { compare: 88, drag: 130 }, page: { compare: 150, drag: 150 } };

/** @returns {import('../shared/registry.js').Widget} */
function createWeightedRetrieval() {
  return formWidget({
    build: (doc) => buildRetrievalParts(doc, MAX_TOKENS),
    fill(parts, props, state) {
      parts.sentence.value = state.sentence ?? props.sentence ?? DEFAULTS.sentence;
      parts.query.value = state.query ?? props.query ?? DEFAULTS.query;
      parts.seed.value = String(state.seed ?? props.seed ?? DEFAULTS.seed);
      const wanted = state.mode ?? props.mode;
      const mode = MODES.includes(wanted) ? wanted : DEFAULTS.mode;
      for (const input of parts.modes) input.checked = input.value === mode;
    },
    read(parts, state) {
      state.sentence = parts.sentence.value;
      state.query = parts.query.value;
      state.seed = parts.seed.value;
      state.mode = parts.modes.find((input) => input.checked)?.value ?? DEFAULTS.mode;
    },
    draw(parts, engine, state) {
      const onSlide = Boolean(parts.root.closest('.reveal'));
      const narrow = parts.root.ownerDocument.documentElement.classList.contains('deck-narrow');
      draw(parts, engine, state, onSlide && !narrow ? BAR_HEIGHTS.deck : BAR_HEIGHTS.page);
    },
    clear(parts) {
      clearFigures(parts);
      clearSliders(parts.sliders);
    },
    wire(parts, context) {
      // A slider's score goes into the state before the form reads it: this listener runs in
      // the capture phase, ahead of the form's own.
      const onSlider = (/** @type {Event} */ event) => {
        const target = event.target;
        if (!(target instanceof HTMLInputElement) || !target.classList.contains('wr-slider')) {
          return;
        }
        const state = context.state();
        const scores = [...(state.scores ?? [])];
        scores[Number(target.dataset.index)] = Number(target.value);
        state.scores = scores;
      };
      const reset = () => {
        context.state().scores = [];
        context.redraw();
      };
      parts.root.addEventListener('input', onSlider, true);
      parts.reset.addEventListener('click', reset);
      return () => {
        parts.root.removeEventListener('input', onSlider, true);
        parts.reset.removeEventListener('click', reset);
      };
    },
  });
}

/**
 * Reads the inputs and redraws, or says why there is nothing to draw.
 * @param {import('./markup.js').RetrievalParts} parts
 * @param {import('../../engine/index.js').Engine} engine
 * @param {{ sentence?: string, query?: string, seed?: string, mode?: string, scores?: number[] }}
 *   state as the inputs hold it
 * @param {{ compare: number, drag: number }} heights of the bar charts, in pixels
 */
function draw(parts, engine, state, heights) {
  const all = sentenceTokens(engine, state.sentence ?? '');
  const tokens = all.slice(0, MAX_TOKENS);
  const words = sentenceTokens(engine, state.query ?? '');
  const dragging = state.mode === 'drag';
  const seed = parseSeed(state.seed ?? '');
  setLine(parts.status, statusText(all.length, dragging ? null : words));
  let problem = '';
  if (!dragging && seed === null && words.length > 0 && tokens.length > 0) {
    problem = SEED_PROBLEM;
  }
  const ready = tokens.length > 0 && !problem && (dragging || words.length > 0);
  parts.compare.hidden = dragging;
  parts.drag.hidden = !dragging;
  parts.queryLine.hidden = dragging;
  parts.result.hidden = !ready;
  /** @type {{ unknown: boolean[], query?: string }} */
  let missing = { unknown: [] };
  if (ready) {
    try {
      // (Ready and not dragging: the seed is a valid number.)
      missing = dragging
        ? showDrag(parts, engine, state, tokens, heights.drag)
        : showCompare(parts, engine, tokens, words[0], seed ?? 0, heights.compare);
    } catch (error) {
      console.error(error);
      problem = `The scores could not be computed: ${error.message}`;
      parts.result.hidden = true;
      missing = { unknown: [] };
    }
  }
  setLine(parts.error, problem);
  drawUnknown(parts.unknown, tokens, missing.unknown, missing.query);
  if (parts.result.hidden) clearFigures(parts);
}

/**
 * What the status line says: a prompt for what is missing, or what was left out.
 * @param {number} count how many tokens the sentence has
 * @param {string[] | null} words the query box's tokens (null in the drag mode, which has none)
 * @returns {string}
 */
function statusText(count, words) {
  if (count === 0) return PROMPT;
  if (words && words.length === 0) return PROMPT_QUERY;
  const lines = [];
  if (count > MAX_TOKENS) lines.push(capNotice(count, MAX_TOKENS));
  if (words && words.length > 1) {
    lines.push(`The query is the first word in its box, \u201c${words[0]}\u201d.`);
  }
  return lines.join(' ');
}

/**
 * The three scoring functions side by side.
 * @param {import('./markup.js').RetrievalParts} parts
 * @param {import('../../engine/index.js').Engine} engine
 * @param {string[]} tokens
 * @param {string} query
 * @param {number} seed
 * @param {number} barHeight
 * @returns {{ unknown: boolean[], query?: string }} which tokens the vocabulary lacks, and the
 *   query when it lacks that too
 */
function showCompare(parts, engine, tokens, query, seed, barHeight) {
  const { unknown, queryUnknown, results } = compareScores(engine, tokens, query, seed);
  drawQueryLine(parts, query, queryUnknown);
  drawCompare(parts, { tokens, unknown, barHeight }, results);
  return { unknown, query: queryUnknown ? query : undefined };
}

/**
 * The hand-set scores: the sliders, then the weights and the context they give.
 * @param {import('./markup.js').RetrievalParts} parts
 * @param {import('../../engine/index.js').Engine} engine
 * @param {{ scores?: number[] }} state
 * @param {string[]} tokens
 * @param {number} barHeight
 * @returns {{ unknown: boolean[] }} which tokens the vocabulary lacks
 */
function showDrag(parts, engine, state, tokens, barHeight) {
  const scores = fitScores(state.scores, tokens.length, SCORE_MIN, SCORE_MAX);
  state.scores = scores;
  const result = dragScores(engine, tokens, scores);
  const sliders = slidersFor(parts.sliders, parts.id, tokens, result.unknown);
  showSliders(sliders, scores, result.weights);
  drawDrag(parts, { tokens, unknown: result.unknown, barHeight }, result);
  return { unknown: result.unknown };
}

registerWidget('weighted-retrieval', createWeightedRetrieval, {
  vectors: true,
  settings: SETTINGS,
});
