// The `self-attention-pair` widget: two sentences that share a word ("bank" by a river, "bank"
// that lends), each with its self-attention computed by the engine over the word vectors
// (Q = K = V = X). The followed word's row of weights is drawn as bars for each sentence, and the
// cosine similarity of its two input vectors and of its two outputs shows the context at work.
// Under it, a cost panel times the attention kernel for growing n. Props: { sentences, word,
// state }; state keeps both sentences, the followed words and the last timing across mounts.
import { mountCost } from './cost.js';
import { setLine } from '../shared/line.js';
import { registerWidget, stateReporter } from '../shared/registry.js';
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
 * @typedef {{ sentences?: string[], chosen?: Chosen[], cost?: object }} PairState
 */

/** @returns {import('../shared/registry.js').Widget} */
function createPair() {
  /** @type {import('./markup.js').PairParts | null} */
  let parts = null;
  let engine = null;
  /** @type {PairState} */
  let state = {};
  let report = stateReporter({});
  let fallback = DEFAULTS.word;
  let cost = null;

  const redraw = () => {
    if (parts) draw(parts, engine, state, fallback);
  };
  /** @param {Event} event */
  const onInput = (event) => {
    if (!parts) return;
    const target = /** @type {HTMLElement} */ (event.target);
    parts.sides.forEach((side, s) => {
      if (target === side.sentence) state.sentences[s] = side.sentence.value;
      if (target === side.word) {
        const index = Number(side.word.value);
        state.chosen[s] = {
          index,
          word: side.word.options[side.word.selectedIndex]?.dataset.token,
        };
      }
    });
    redraw();
    report(state);
  };

  const apply = (props) => {
    state = props.state ?? {};
    report = stateReporter(props);
    const given = Array.isArray(props.sentences) ? props.sentences : DEFAULTS.sentences;
    fallback = typeof props.word === 'string' ? props.word : DEFAULTS.word;
    state.sentences = [0, 1].map((s) => String(state.sentences?.[s] ?? given[s] ?? ''));
    state.chosen = [0, 1].map((s) => state.chosen?.[s] ?? {});
    parts.sides.forEach((side, s) => (side.sentence.value = state.sentences[s]));
    redraw();
  };

  return {
    mount(el, props, facade) {
      engine = facade;
      parts = buildPairParts(el.ownerDocument, MAX_TOKENS);
      el.replaceChildren(parts.root);
      parts.root.addEventListener('input', onInput);
      apply(props);
      cost = mountCost(parts.cost, engine, state, () => report(state));
    },
    update(props) {
      if (parts) apply(props);
    },
    destroy() {
      if (!parts) return;
      cost?.destroy();
      cost = null;
      parts.root.removeEventListener('input', onInput);
      parts.sides.forEach(clearSide);
      parts.root.remove();
      parts = null;
      engine = null;
    },
  };
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
