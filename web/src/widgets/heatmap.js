// The `heatmap` widget: a sentence box and a causal-mask toggle, and the self-attention weights of
// the sentence as a heatmap, computed by the engine as the learner types. Props: { sentence,
// causal, state }; state keeps the learner's sentence and toggle across mounts.
import { vocabularyOf } from '../text/embed.js';
import { tokenize } from '../text/tokenize.js';
import { clearHeatmap, renderHeatmap } from '../views/heatmap/index.js';
import { buildHeatmapParts, setLine } from './heatmap-markup.js';
import { registerWidget } from './registry.js';
import {
  MAX_TOKENS,
  countText,
  heatmapData,
  selfAttention,
  unknownText,
} from './self-attention.js';

const DEFAULT_SENTENCE = 'The cat sat on the mat because it was tired.';
const PROMPT = 'Type a sentence to see how its words attend to each other.';

/**
 * @typedef {{ sentence?: string, causal?: boolean, state?: { sentence?: string, causal?: boolean } }} HeatmapProps
 */

/** @returns {import('./registry.js').Widget} */
function createHeatmap() {
  /** @type {ReturnType<typeof buildHeatmapParts> | null} */
  let parts = null;
  /** @type {HTMLElement | null} */
  let host = null;
  let engine = null;
  let state = {};

  const redraw = () => {
    if (!parts) return;
    state.sentence = parts.sentence.value;
    state.causal = parts.causal.checked;
    draw(parts, engine, state.sentence, state.causal);
  };

  /** @param {HeatmapProps} props */
  const apply = (props) => {
    state = props.state ?? {};
    parts.sentence.value = state.sentence ?? props.sentence ?? DEFAULT_SENTENCE;
    parts.causal.checked = state.causal ?? Boolean(props.causal);
    redraw();
  };

  return {
    mount(el, props, facade) {
      host = el;
      engine = facade;
      parts = buildHeatmapParts(el.ownerDocument);
      el.replaceChildren(parts.root);
      parts.sentence.addEventListener('input', redraw);
      parts.causal.addEventListener('change', redraw);
      apply(props);
    },
    update(props) {
      if (parts) apply(props);
    },
    destroy() {
      if (parts) {
        parts.sentence.removeEventListener('input', redraw);
        parts.causal.removeEventListener('change', redraw);
        clearHeatmap(parts.figure);
      }
      host?.replaceChildren();
      parts = null;
      host = null;
      engine = null;
    },
  };
}

/**
 * Reads the inputs and redraws the figure, or shows why there is none.
 * @param {ReturnType<typeof buildHeatmapParts>} parts
 * @param {{ embed: Function, attention: Function }} engine the facade, word vectors loaded
 * @param {string} sentence
 * @param {boolean} causal
 */
function draw(parts, engine, sentence, causal) {
  const all = tokenize(sentence, { known: vocabularyOf(engine) });
  if (all.length === 0) {
    hideFigure(parts);
    setLine(parts.error, '');
    setLine(parts.status, PROMPT);
    return;
  }
  const tokens = all.slice(0, MAX_TOKENS);
  setLine(
    parts.status,
    all.length > MAX_TOKENS
      ? `Showing the first ${MAX_TOKENS} of ${all.length} tokens; the rest are left out.`
      : '',
  );
  let weights;
  let unknown;
  try {
    ({ weights, unknown } = selfAttention(engine, tokens, causal));
  } catch (error) {
    console.error(error);
    hideFigure(parts);
    setLine(parts.error, `The weights could not be computed: ${error.message}`);
    return;
  }
  setLine(parts.error, '');
  parts.count.textContent = countText(tokens.length, causal);
  parts.result.hidden = false;
  renderHeatmap(parts.figure, heatmapData(tokens, weights, causal, unknown));
  setLine(parts.unknown, unknownText(tokens, unknown));
}

/** @param {ReturnType<typeof buildHeatmapParts>} parts */
function hideFigure(parts) {
  parts.result.hidden = true;
  clearHeatmap(parts.figure);
}

registerWidget('heatmap', createHeatmap, { vectors: true });
