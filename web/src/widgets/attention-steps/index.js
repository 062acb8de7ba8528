// The `attention-steps` widget: softmax(QK^T / sqrt(d_k) + M) V one step at a time, for the word
// vectors of the learner's sentence (Q = K = V = X): raw scores, scaled scores, the mask added,
// the weights, the output. Previous and Next (or the list of steps) move through the engine's trace
// of one attention call; a causal-mask toggle and a padding toggle ([pad] tokens and a key padding
// mask) change what it computes. Props: { sentence, causal, padding, step, state }; state keeps
// the learner's sentence, toggles and step across mounts.
import { tokenStatus } from '../shared/token-cap.js';
import './style.css';
import './deck.css';
import { clearStep, drawStep, stepData } from './figures.js';
import { announceStep, buildAttentionStepsParts, showStep } from './markup.js';
import { MAX_TOKENS, STEPS, attentionSteps, stepNumber } from './math.js';
import { padText, shapeText, stepText } from './text.js';
import { setLine } from '../shared/line.js';
import { formWidget } from '../shared/form-widget.js';
import { registerWidget } from '../shared/registry.js';
import { SETTINGS } from './link-settings.js';
import { unknownText } from '../shared/unknown-text.js';
import { sentenceTokens } from '../shared/token-matrix.js';

const DEFAULT_SENTENCE = 'The cook tasted the soup and added more salt.';
const PROMPT = 'Type a sentence to follow its attention step by step.';

/**
 * @typedef {{ sentence: string, causal: boolean, padding: boolean, step: number }} Inputs
 */

/** @returns {import('../shared/registry.js').Widget} */
function createAttentionSteps() {
  return formWidget({
    build: (doc) => buildAttentionStepsParts(doc, MAX_TOKENS),
    fill(parts, props, state) {
      parts.sentence.value = String(state.sentence ?? props.sentence ?? DEFAULT_SENTENCE);
      parts.causal.checked = Boolean(state.causal ?? props.causal);
      parts.padding.checked = Boolean(state.padding ?? props.padding);
      state.step = stepNumber(state.step ?? props.step);
    },
    read(parts, state) {
      state.sentence = parts.sentence.value;
      state.causal = parts.causal.checked;
      state.padding = parts.padding.checked;
    },
    draw: (parts, engine, state) => draw(parts, engine, /** @type {Inputs} */ (state)),
    clear: clearStep,
    // Previous, Next and the list of steps move through the trace.
    wire(parts, context) {
      /** @param {unknown} wanted a step number; out of range changes nothing */
      const goTo = (wanted) => {
        const state = context.state();
        const step = stepNumber(wanted, state.step);
        if (step === state.step) return;
        state.step = step;
        context.redraw();
        announceStep(parts, step);
      };
      /** @param {MouseEvent} event */
      const onStepper = (event) => {
        const button = /** @type {Element} */ (event.target).closest?.('button');
        if (!button || button.getAttribute('aria-disabled') === 'true') return;
        const at = context.state().step ?? 1;
        if (button === parts.prev) goTo(at - 1);
        else if (button === parts.next) goTo(at + 1);
        else goTo(/** @type {HTMLElement} */ (button).dataset.step);
      };
      parts.stepper.addEventListener('click', onStepper);
      return () => parts.stepper.removeEventListener('click', onStepper);
    },
  });
}

/**
 * Reads the inputs and draws the current step, or says why there is nothing to draw.
 * @param {import('./markup.js').AttentionStepsParts} parts
 * @param {object} engine the facade, word vectors loaded
 * @param {Inputs} inputs
 * @returns {import('../../views/heatmap/index.js').HeatmapData | null} what the figure now shows
 */
function draw(parts, engine, { sentence, causal, padding, step }) {
  showStep(parts, step);
  const all = sentenceTokens(engine, sentence);
  const words = all.slice(0, MAX_TOKENS);
  setLine(parts.status, tokenStatus(all.length, MAX_TOKENS, PROMPT));
  let result = null;
  let problem = '';
  if (words.length > 0) {
    try {
      result = attentionSteps(engine, words, { causal, padding });
    } catch (error) {
      console.error(error);
      problem = `The attention could not be computed: ${error.message}`;
    }
  }
  setLine(parts.error, problem);
  parts.result.hidden = !result;
  if (!result) {
    clearStep(parts);
    return null;
  }
  parts.title.textContent = `Step ${step} of ${STEPS.length} \u00b7 ${STEPS[step - 1].title}`;
  parts.shape.textContent = shapeText(result, step);
  parts.explain.textContent = stepText(result, step, padding);
  setLine(parts.padNote, padText(result));
  setLine(parts.unknown, unknownText(words, result.unknown));
  const data = stepData(result, step);
  drawStep(parts, data);
  return data;
}

registerWidget('attention-steps', createAttentionSteps, { vectors: true, settings: SETTINGS });
