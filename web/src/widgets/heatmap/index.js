// The `heatmap` widget: a sentence box and a causal-mask toggle, and the self-attention weights of
// the sentence as a heatmap, computed by the engine as the learner types. Props: { sentence,
// causal, view, from, state }; state keeps the learner's sentence, toggle, view (grid or lines) and
// chosen token across mounts.
import { vocabularyOf } from '../../text/embed.js';
import { tokenize } from '../../text/tokenize.js';
import { formWidget } from '../shared/form-widget.js';
import { chosenView, clearViews, drawView, setView } from './lines.js';
import { buildHeatmapParts } from './markup.js';
import { setLine } from '../shared/line.js';
import { registerWidget } from '../shared/registry.js';
import { SETTINGS } from './link-settings.js';
import { MAX_TOKENS, countText, heatmapData } from './math.js';
import { selfAttention } from '../shared/self-attention.js';
import { unknownText } from '../shared/unknown-text.js';
import { capNotice } from '../shared/token-cap.js';
import './style.css';

const DEFAULT_SENTENCE = 'The cat sat on the mat because it was tired.';
const PROMPT = 'Type a sentence to see how its words attend to each other.';

/** @returns {import('../shared/registry.js').Widget} */
function createHeatmap() {
  /** What a click on a token of the lines view does: chooses it (set once wired). */
  let pick = (/** @type {number} */ index) => void index;
  return formWidget({
    build: buildHeatmapParts,
    fill(parts, props, state) {
      parts.sentence.value = state.sentence ?? props.sentence ?? DEFAULT_SENTENCE;
      parts.causal.checked = state.causal ?? Boolean(props.causal);
      setView(parts, state.view ?? props.view);
      state.from = Number(state.from ?? props.from ?? 0);
    },
    read(parts, state) {
      state.sentence = parts.sentence.value;
      state.causal = parts.causal.checked;
      state.view = chosenView(parts);
    },
    draw(parts, engine, state) {
      state.from = draw(parts, engine, /** @type {any} */ (state), pick);
    },
    clear: clearViews,
    // The token the lines view starts from: chosen in its list or by a click on it.
    wire(parts, context) {
      pick = (index) => {
        context.state().from = index;
        context.redraw();
      };
      const pickFromList = () => pick(Number(parts.from.value));
      parts.from.addEventListener('change', pickFromList);
      return () => parts.from.removeEventListener('change', pickFromList);
    },
    // Typing redraws once per frame, from the latest inputs.
    typing: 'frame',
  });
}

/**
 * Reads the inputs and redraws the figure, or shows why there is none.
 * @param {ReturnType<typeof buildHeatmapParts>} parts
 * @param {{ embed: Function, attention: Function }} engine the facade, word vectors loaded
 * @param {{ sentence: string, causal: boolean, from?: number }} inputs
 * @param {(index: number) => void} pick what a click on a token of the lines view does
 * @returns {number | undefined} the token the lines view starts from
 */
function draw(parts, engine, { sentence, causal, from = 0 }, pick) {
  const all = tokenize(sentence, { known: vocabularyOf(engine) });
  if (all.length === 0) {
    hideFigure(parts);
    setLine(parts.error, '');
    setLine(parts.status, PROMPT);
    return from;
  }
  const tokens = all.slice(0, MAX_TOKENS);
  setLine(parts.status, capNotice(all.length, MAX_TOKENS));
  let weights;
  let unknown;
  try {
    ({ weights, unknown } = selfAttention(engine, tokens, causal));
  } catch (error) {
    console.error(error);
    hideFigure(parts);
    setLine(parts.error, `The weights could not be computed: ${error.message}`);
    return from;
  }
  setLine(parts.error, '');
  parts.count.textContent = countText(tokens.length, causal);
  parts.result.hidden = false;
  const data = heatmapData(tokens, weights, causal, unknown);
  const chosen = drawView(parts, { tokens, weights, causal, unknown, data }, from, pick);
  setLine(parts.unknown, unknownText(tokens, unknown));
  return chosen;
}

/** @param {ReturnType<typeof buildHeatmapParts>} parts */
function hideFigure(parts) {
  parts.result.hidden = true;
  clearViews(parts);
}

registerWidget('heatmap', createHeatmap, { vectors: true, settings: SETTINGS });
