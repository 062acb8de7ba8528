// The `translation` widget: the page's two English-to-German models (docs/translation.md) on the
// sentence the learner types, in one of three views (markup.js): `compare` puts both models' German
// side by side under Figure 2, their measured BLEU by English length; `steps` walks the attention
// model's decoder one German word at a time, with that step's scores and weights; `alignment` draws
// the attention model's weights as a German-by-English matrix. Props: { view, sentence, step (1-based,
// steps view), state }; state keeps the learner's sentence and step across mounts (and in the link).
//
// It declares the `translation` models, which the host loads and hands it (props.models,
// registry.js). An alignment view whose sentence is recorded (record.js, recorded.json) is mounted
// before anything has loaded (`early`, `hasRecording`) and draws the recording at once; the host
// loads the models once the page has (after-load.js) and mounts it again with them, so the title
// slide shows its figure without waiting for them.
import { TRAINED_MODELS } from '../../text/trained-models.js';
import { tokenize } from '../../text/tokenize.js';
import { formWidget } from '../shared/form-widget.js';
import { setLine } from '../shared/line.js';
import { registerWidget } from '../shared/registry.js';
import { clearFigures, drawAlignment, drawCompare, drawSteps } from './figures.js';
import { MAX_STEP, SETTINGS } from './link-settings.js';
import { recordedAlignment } from './record.js';
import recordings from './recorded.json';
import { alignmentFactsText, modelFactsText } from './text.js';
import { stepsOf } from '../shared/translation-text.js';
import { buildTranslationParts } from './markup.js';
import './style.css';

/** The views by name, each with the sentence it opens on. */
export const VIEWS = Object.freeze({
  compare: 'Click the button to open the file.',
  steps: 'The document can not be printed.',
  alignment: 'Enter the name of the new file.',
});

const RECORDED =
  'The figure is recorded from the model; loading it (4.5 MB) to translate your own sentence\u2026';
const PROMPT = 'Type an English sentence to see the models translate it.';
const BROKEN = 'The models could not translate this text. Please reload the page to try again.';
const NOTHING =
  'The model ended its German at once, without a word: try a longer or more ordinary sentence.';

/**
 * @typedef {import('./markup.js').TranslationView} TranslationView
 * @typedef {import('./markup.js').TranslationParts} TranslationParts
 */

/**
 * @param {unknown} view
 * @returns {TranslationView} the named view, or `compare` for a name it does not know
 */
export function viewOf(view) {
  return typeof view === 'string' && Object.hasOwn(VIEWS, view)
    ? /** @type {TranslationView} */ (view)
    : 'compare';
}

/**
 * @param {unknown} step what a link or the slide gives
 * @returns {number} a whole step from 1 (the draw clamps it to the words written)
 */
export function stepOf(step) {
  const value = Number(step);
  return Number.isInteger(value) && value >= 1 && value <= MAX_STEP ? value : 1;
}

/**
 * @param {Record<string, any>} props as the widget is mounted
 * @param {Record<string, any>} state
 * @returns {string} the sentence it opens on: the learner's, else the slide's, else its view's
 */
function sentenceOf(props, state) {
  const text = typeof state.sentence === 'string' ? state.sentence : undefined;
  const given = typeof props.sentence === 'string' ? props.sentence : undefined;
  return text ?? given ?? VIEWS[viewOf(props.view)];
}

/**
 * @param {import('../shared/registry.js').MountProps} props as the widget would be mounted
 * @returns {boolean} whether it opens on a recorded alignment, which it draws before the models
 *   have loaded
 */
export function hasRecording(props) {
  const sentence = sentenceOf(props, props.state ?? {});
  return (
    viewOf(props.view) === 'alignment' && recordedAlignment(recordings, sentence) !== undefined
  );
}

/** @returns {import('../shared/registry.js').Widget} */
function createTranslation() {
  return formWidget({
    build: (doc, props) => buildTranslationParts(doc, viewOf(props.view)),
    fill(parts, props, state) {
      parts.sentence.value = sentenceOf(props, state);
      if (parts.step) parts.step.value = String(stepOf(state.step ?? props.step));
    },
    read(parts, state) {
      state.sentence = parts.sentence.value;
      if (parts.step) state.step = stepOf(parts.step.value);
    },
    draw(parts, _engine, state, models) {
      if (models.translation) draw(parts, models.translation, state);
      else drawRecorded(parts, state);
    },
    clear: clearFigures,
    wire(parts, context) {
      // A click on a German word of the steps view chooses its step.
      const choose = (/** @type {Event} */ event) => {
        const target = event.target instanceof Element ? event.target.closest('.mt-word') : null;
        const step = target instanceof HTMLElement ? target.dataset.step : undefined;
        if (!step || !parts.step) return;
        parts.step.value = step;
        context.redraw();
        /** @type {HTMLElement | null} */ (
          parts.root.querySelector(`[data-step="${step}"]`)
        )?.focus();
      };
      parts.root.addEventListener('click', choose);
      return () => parts.root.removeEventListener('click', choose);
    },
  });
}

/**
 * Translates the sentence and draws the view, or says why there is nothing to draw.
 * @param {TranslationParts} parts
 * @param {import('../../text/translation.js').Translators} models
 * @param {Record<string, any>} state
 */
function draw(parts, models, state) {
  parts.status.classList.remove('busy');
  const text = typeof state.sentence === 'string' ? state.sentence : '';
  if (tokenize(text).length === 0) {
    show(parts, 'empty', PROMPT, '');
    return;
  }
  try {
    // The steps view follows greedy decoding, one likeliest word at a time; the other views show
    // the German as the models' report measured it (the beam it names).
    const beam = parts.view === 'steps' ? 1 : models.attention.info.measuredBeam;
    const attention = models.attention.translate(text, { beam });
    if (parts.view === 'compare') {
      show(parts, 'drawn', '', '');
      const fixedVector = models.fixedVector.translate(text, { beam });
      drawCompare(parts, models, { attention, fixedVector });
      return;
    }
    if (attention.target.length === 0) {
      show(parts, 'empty', NOTHING, '');
      return;
    }
    show(parts, 'drawn', '', '');
    if (parts.view === 'alignment') {
      drawAlignment(parts, attention, {
        alignment: alignmentFactsText(models.attention.info),
        ...modelFactsText(models.attention.info, models.fixedVector.info),
      });
      return;
    }
    const written = stepsOf(attention);
    const steps = written.length;
    const step = Math.min(stepOf(state.step), steps);
    const slider = /** @type {HTMLInputElement} */ (parts.step);
    slider.max = String(steps);
    slider.value = String(step);
    slider.setAttribute('aria-valuetext', `step ${step} of ${steps}: ${written[step - 1].text}`);
    /** @type {HTMLElement} */ (parts.stepValue).textContent = `${step} of ${steps}`;
    drawSteps(parts, models, attention, step - 1);
  } catch (error) {
    console.error(error);
    show(parts, 'failed', '', BROKEN);
  }
}

/**
 * @param {Record<string, any>} state
 * @returns {ReturnType<typeof recordedAlignment>} the recording of the state's sentence
 */
function recordingOf(state) {
  return typeof state.sentence === 'string'
    ? recordedAlignment(recordings, state.sentence)
    : undefined;
}

/**
 * Before the models have loaded (an early mount): the recording of the sentence, if there is
 * one, under a line that says so; else the models' loading line alone (the learner typed
 * another sentence), until the host mounts the widget again with the models.
 * @param {TranslationParts} parts
 * @param {Record<string, any>} state
 */
function drawRecorded(parts, state) {
  const recorded = parts.view === 'alignment' ? recordingOf(state) : undefined;
  if (!recorded) {
    parts.root.dataset.state = 'loading';
    setLine(parts.pending, '');
    setLine(parts.status, TRAINED_MODELS.translation.loading);
    parts.status.classList.add('busy');
    clearFigures(parts);
    return;
  }
  drawAlignment(parts, recorded.translation, recorded.facts);
  parts.status.classList.remove('busy');
  setLine(parts.error, '');
  // Said under the sentence, where the slide has room, so the figure shows as it will live.
  setLine(parts.status, '');
  setLine(parts.pending, RECORDED);
  parts.root.dataset.state = 'recorded';
}

/**
 * Shows the status and alert lines, and the figure only when it is drawn.
 * @param {TranslationParts} parts
 * @param {'empty' | 'failed' | 'drawn'} what
 * @param {string} status
 * @param {string} alert
 */
function show(parts, what, status, alert) {
  setLine(parts.pending, '');
  setLine(parts.status, status);
  setLine(parts.error, alert);
  parts.root.dataset.state = what;
  if (what !== 'drawn') clearFigures(parts);
}

registerWidget('translation', createTranslation, {
  models: ['translation'],
  early: hasRecording,
  settings: SETTINGS,
});
