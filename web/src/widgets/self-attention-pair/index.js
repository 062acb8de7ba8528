// The `self-attention-pair` widget: two sentences that share a word ("bank" by a river, "bank"
// that lends), each with its self-attention computed by the engine over the word vectors
// (Q = K = V = X). The followed word's row of weights is drawn as bars for each sentence, and the
// cosine similarity of its two input vectors and of its two outputs shows the context at work.
// Under it, a cost panel times the attention kernel for growing n. Props: { sentences, word,
// state }; state keeps both sentences, the followed words and the last timing across mounts.
import { mountCost } from './cost.js';
import { setLine } from '../shared/line.js';
import { formWidget } from '../shared/form-widget.js';
import { registerWidget } from '../shared/registry.js';
import { SETTINGS } from './link-settings.js';
import { clearCompare, clearSide, drawCompare, drawSide } from './figures.js';
import { buildPairParts, setWordChoices } from './markup.js';
import { attendSentence, followedIndex } from './math.js';
import { sentenceTokens } from '../shared/token-matrix.js';
import { tokenStatus } from '../shared/token-cap.js';
import './style.css';
import './deck.css';

const MAX_TOKENS = 16;
const DEFAULTS = {
  sentences: ['I sat on the river bank', 'I took a loan from the bank'],
  word: 'bank',
};
const PROMPT = 'Type a sentence to see where its words look.';

/**
 * @typedef {{ index?: number, word?: string }} Chosen the token the learner follows
 * @typedef {{ sentences?: string[], chosen?: Chosen[],
 *   cost?: import('./cost.js').CostResult }} PairState
 */

/** @returns {import('../shared/registry.js').Widget} */
function createPair() {
  let fallback = DEFAULTS.word;
  /** @type {ReturnType<typeof mountCost> | null} */
  let cost = null;
  return formWidget({
    build: (doc) => buildPairParts(doc, MAX_TOKENS),
    fill(parts, props, state) {
      const given = Array.isArray(props.sentences) ? props.sentences : DEFAULTS.sentences;
      fallback = typeof props.word === 'string' ? props.word : DEFAULTS.word;
      state.sentences = [0, 1].map((s) => String(state.sentences?.[s] ?? given[s] ?? ''));
      state.chosen = [0, 1].map((s) => state.chosen?.[s] ?? {});
      parts.sides.forEach((side, s) => (side.sentence.value = state.sentences[s]));
    },
    // The word menus are filled from the tokens as the figure is drawn: a choice in one is taken
    // as it is made (wire), not read back with the sentences.
    read(parts, state) {
      state.sentences = parts.sides.map((side) => side.sentence.value);
    },
    draw(parts, engine, state) {
      draw(parts, engine, /** @type {Required<PairState>} */ (state), fallback);
      cost?.sync();
    },
    clear(parts) {
      parts.sides.forEach(clearSide);
    },
    wire(parts, context) {
      const choose = (/** @type {Event} */ event) => {
        const s = parts.sides.findIndex((side) => side.word === event.target);
        if (s < 0) return;
        const { word } = parts.sides[s];
        context.state().chosen[s] = {
          index: Number(word.value),
          word: word.options[word.selectedIndex]?.dataset.token,
        };
      };
      // On the menus themselves, so that the choice is in the state before the widget's own
      // input listener (on its root) reads the inputs and draws.
      parts.sides.forEach((side) => side.word.addEventListener('input', choose));
      const panel = mountCost(parts.cost, context.engine(), {
        kept: () => context.state().cost,
        keep(result) {
          context.state().cost = result;
          context.redraw();
        },
      });
      cost = panel;
      return () => {
        parts.sides.forEach((side) => side.word.removeEventListener('input', choose));
        panel.destroy();
        cost = null;
      };
    },
  });
}

/**
 * Redraws both sentences and the comparison, or says why there is nothing to draw.
 * @param {import('./markup.js').PairParts} parts
 * @param {import('../../engine/index.js').Engine} engine the facade, word vectors loaded
 * @param {PairState} state
 * @param {string} fallback the word followed by default
 */
function draw(parts, engine, state, fallback) {
  const drawn = parts.sides.map((side, s) =>
    drawOne(side, engine, state.sentences[s], state.chosen[s], fallback),
  );
  if (drawn[0] && drawn[1]) drawCompare(parts.compare, [drawn[0], drawn[1]]);
  else clearCompare(parts.compare);
}

/**
 * @param {import('./markup.js').SideParts} side
 * @param {import('../../engine/index.js').Engine} engine the facade, word vectors loaded
 * @param {string} sentence
 * @param {Chosen} chosen
 * @param {string} fallback
 * @returns {{ tokens: string[], result: import('./math.js').SideResult,
 *   index: number } | null} what was drawn, or null
 */
function drawOne(side, engine, sentence, chosen, fallback) {
  const all = sentenceTokens(engine, sentence);
  const tokens = all.slice(0, MAX_TOKENS);
  setLine(side.status, tokenStatus(all.length, MAX_TOKENS, PROMPT));
  const index = followedIndex(tokens, chosen, fallback);
  setWordChoices(side, tokens, index);
  let result = null;
  let problem = '';
  if (tokens.length > 0) {
    try {
      result = attendSentence(engine, tokens);
    } catch (error) {
      console.error(error);
      problem = `The weights could not be computed: ${error.message}`;
    }
  }
  setLine(side.error, problem);
  if (!result) {
    clearSide(side);
    return null;
  }
  drawSide(side, tokens, result, index);
  return { tokens, result, index };
}

registerWidget('self-attention-pair', createPair, { vectors: true, settings: SETTINGS });
