// The `position` widget: a sentence, a Shuffle button and a positional-encoding toggle. It checks
// in the page that plain self-attention outputs follow a shuffle of the tokens (equivariance), and
// that adding positional encodings breaks this; it draws the outputs and the encoding. Props:
// { sentence, state }; state keeps the sentence, the order on show and the toggle across mounts.
import { formWidget } from '../shared/form-widget.js';
import { setLine } from '../shared/line.js';
import { clearFigures, drawCheck, drawFigures } from './figures.js';
import { buildPositionParts } from './markup.js';
import { checkEquivariance, shuffledOrder } from './math.js';
import { registerWidget } from '../shared/registry.js';
import { SETTINGS } from './link-settings.js';
import { sentenceTokens } from '../shared/token-matrix.js';
import { tokenStatus } from '../shared/token-cap.js';
import './style.css';
import './deck.css';

const MAX_TOKENS = 16;
const DEFAULT_SENTENCE = 'The dog bites the man.';
const PROMPT = 'Type a sentence, then shuffle its tokens.';

/** @returns {import('../shared/registry.js').Widget} */
function createPosition() {
  return formWidget({
    build: (doc) => buildPositionParts(doc, MAX_TOKENS),
    fill(parts, props, state) {
      parts.sentence.value = state.sentence ?? props.sentence ?? DEFAULT_SENTENCE;
      parts.pe.checked = Boolean(state.pe);
    },
    read(parts, state) {
      state.sentence = parts.sentence.value;
      state.pe = parts.pe.checked;
    },
    draw,
    clear: clearFigures,
    wire(parts, { redraw, state, engine }) {
      const shuffle = () => {
        const kept = state();
        const tokens = currentTokens(engine(), kept);
        kept.shuffles = (kept.shuffles ?? 0) + 1;
        kept.order = shuffledOrder(engine(), tokens.length, kept.shuffles, orderOf(kept, tokens));
        kept.orderKey = keyOf(tokens);
        redraw();
      };
      const reset = () => {
        state().order = undefined;
        redraw();
      };
      parts.shuffle.addEventListener('click', shuffle);
      parts.reset.addEventListener('click', reset);
      return () => {
        parts.shuffle.removeEventListener('click', shuffle);
        parts.reset.removeEventListener('click', reset);
      };
    },
  });
}

/** @param {string[]} tokens */
const keyOf = (tokens) => tokens.join('\u0000');

/** @param {{ sentence?: string }} state */
const currentTokens = (engine, state) =>
  sentenceTokens(engine, state.sentence ?? '').slice(0, MAX_TOKENS);

/**
 * The order on show: the shuffled one while the tokens are those it was made for, else the
 * original order.
 * @param {{ order?: number[], orderKey?: string }} state
 * @param {string[]} tokens
 * @returns {number[]}
 */
function orderOf(state, tokens) {
  if (state.order && state.orderKey === keyOf(tokens)) return state.order;
  return tokens.map((_, i) => i);
}

/**
 * @param {import('./markup.js').PositionParts} parts
 * @param {object} engine
 * @param {{ sentence: string, pe: boolean, order?: number[], orderKey?: string }} state
 */
function draw(parts, engine, state) {
  const all = sentenceTokens(engine, state.sentence);
  const tokens = all.slice(0, MAX_TOKENS);
  setLine(parts.status, tokenStatus(all.length, MAX_TOKENS, PROMPT));
  parts.shuffle.disabled = tokens.length < 2;
  const order = orderOf(state, tokens);
  let result = null;
  let problem = '';
  if (tokens.length > 0) {
    try {
      result = checkEquivariance(engine, tokens, order, state.pe);
    } catch (error) {
      console.error(error);
      problem = `The outputs could not be computed: ${error.message}`;
    }
  }
  setLine(parts.error, problem);
  parts.result.hidden = parts.order.hidden = parts.check.hidden = !result;
  if (!result) {
    clearFigures(parts);
    return;
  }
  drawCheck(parts, tokens, order, result.difference);
  drawFigures(
    parts,
    order.map((k) => tokens[k]),
    result,
    state.pe,
  );
}

registerWidget('position', createPosition, { vectors: true, settings: SETTINGS });
